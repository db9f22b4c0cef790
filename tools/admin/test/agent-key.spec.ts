import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { hashToken } from '@expedition/platform';
import { agentKeySecretContext, createSecretBox, parseWebhookSecretKeys, type Keyring } from '@expedition/operators';
import { type AdminDeps, type AdminResult, runAdmin } from '../src/run-admin';

/** `agent-key:*`: the provider mints, lists and revokes agent platforms' keys for /acp/v1. */

let db: Database;
let dataDir: string;
const NOW = new Date('2026-11-23T10:00:00Z');

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'admin-agent-key-'));
});
afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await db.prisma.acpOrderEvent.deleteMany();
  await db.prisma.acpCheckoutSession.deleteMany();
  await db.prisma.agentKey.deleteMany();
});

function deps(): AdminDeps {
  return {
    openDatabase: async () => ({ ...db, close: async () => undefined }),
    prepareDatabase: (d) => prepareDatabase(d, { catalog: catalogSnapshot() }),
    dataDir,
    usingDatabaseUrl: false,
    demoOrigin: 'http://localhost:4200',
    demoWebhookUrl: 'http://localhost:4200/webhooks/expedition',
    webhookSecretKeys: () => [] as unknown as Keyring,
    clock: { now: () => NOW },
  };
}
const admin = (...argv: string[]) => runAdmin(argv, deps());
const KEYRING = parseWebhookSecretKeys(`a:${Buffer.alloc(32, 0xa1).toString('base64')}`);
const adminWithKeyring = (...argv: string[]) => runAdmin(argv, { ...deps(), webhookSecretKeys: () => KEYRING });
function json<T>(result: AdminResult): T {
  expect(result).toMatchObject({ exitCode: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
}

describe('admin CLI: agent keys', () => {
  it('create prints the secret once and stores only its sha256', async () => {
    const result = await admin('agent-key:create', 'Acme Agents', '--mode', 'test');
    expect(result.exitCode).toBe(0);
    const secret = /^\s+(acpk_test_[A-Za-z0-9_-]{43})$/m.exec(result.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(result.stdout).toContain('shown once');
    const row = await db.prisma.agentKey.findFirstOrThrow({ where: { name: 'Acme Agents' } });
    expect(row).toMatchObject({ mode: 'test', hash: hashToken(secret!), revokedAt: null, createdAt: NOW });
    expect(JSON.stringify(row)).not.toContain(secret!);
    expect(row.prefix).toBe(secret!.slice(0, 16));
  });

  it('defaults to test mode, accepts live, refuses anything else (usage-free refusal, nothing stored)', async () => {
    expect(json<{ agentKey: { mode: string } }>(await admin('agent-key:create', 'A', '--json')).agentKey.mode).toBe(
      'test',
    );
    const live = json<{ key: string; agentKey: { mode: string } }>(
      await admin('agent-key:create', 'B', '--mode', 'live', '--json'),
    );
    expect(live.key).toMatch(/^acpk_live_/);
    const bad = await admin('agent-key:create', 'C', '--mode', 'prod', '--json');
    expect(bad.exitCode).toBe(1);
    expect(JSON.parse(bad.stderr)).toEqual({
      error: { code: 'invalid_input', message: '--mode must be test or live' },
    });
    expect(await db.prisma.agentKey.count()).toBe(2);
    expect((await admin('agent-key:create')).exitCode).toBe(2);
  });

  it('list shows keys without secrets; revoke marks one revoked, idempotently', async () => {
    const minted = json<{ key: string; agentKey: { id: string } }>(await admin('agent-key:create', 'Acme', '--json'));
    const list = json<{ id: string; state: string }[]>(await admin('agent-key:list', '--json'));
    expect(list).toEqual([expect.objectContaining({ id: minted.agentKey.id, state: 'active', name: 'Acme' })]);
    expect(JSON.stringify(list)).not.toContain(minted.key);
    const table = await admin('agent-key:list');
    expect(table.stdout).toContain(minted.agentKey.id);
    expect(table.stdout).not.toContain(minted.key);

    const revoked = json<{ state: string; revokedAt: string }>(
      await admin('agent-key:revoke', minted.agentKey.id, '--json'),
    );
    expect(revoked).toMatchObject({ state: 'revoked', revokedAt: NOW.toISOString() });
    expect((await admin('agent-key:revoke', minted.agentKey.id)).exitCode).toBe(0);
    const unknown = await admin('agent-key:revoke', '00000000-0000-4000-8000-000000000000', '--json');
    expect(unknown.exitCode).toBe(1);
    expect(JSON.parse(unknown.stderr).error.code).toBe('not_found');
  });

  it('signing-key registers an Ed25519 (PEM) or ES256 (JWK) public key, rotates it, removes it; refuses private and RSA keys', async () => {
    const minted = json<{ agentKey: { id: string } }>(await admin('agent-key:create', 'Signer', '--json'));
    const id = minted.agentKey.id;
    const ed = generateKeyPairSync('ed25519');
    const pem = ed.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(
      json<{ signing: string }>(await admin('agent-key:signing-key', id, `--public-key=${pem}`, '--json')).signing,
    ).toBe('ed25519');
    expect(await db.prisma.agentKey.findUniqueOrThrow({ where: { id } })).toMatchObject({
      signingAlgorithm: 'ed25519',
      signingPublicKey: pem,
      signingKeySetAt: NOW,
    });

    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = JSON.stringify(ec.publicKey.export({ format: 'jwk' }));
    expect(
      json<{ signing: string }>(await admin('agent-key:signing-key', id, '--public-key', jwk, '--json')).signing,
    ).toBe('es256');
    expect((await admin('agent-key:list')).stdout).toMatch(/es256/);

    for (const refused of [
      ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      'hello',
    ]) {
      const res = await admin('agent-key:signing-key', id, `--public-key=${refused}`, '--json');
      expect(res.exitCode).toBe(1);
      expect(JSON.parse(res.stderr).error.code).toBe('invalid_input');
    }
    expect((await db.prisma.agentKey.findUniqueOrThrow({ where: { id } })).signingAlgorithm).toBe('es256');

    expect(
      json<{ signing: string | null }>(await admin('agent-key:signing-key', id, '--remove', '--json')).signing,
    ).toBeNull();
    expect(await db.prisma.agentKey.findUniqueOrThrow({ where: { id } })).toMatchObject({
      signingAlgorithm: null,
      signingPublicKey: null,
    });
    expect((await admin('agent-key:signing-key', id)).exitCode).toBe(2);
    expect((await admin('agent-key:signing-key', id, '--remove', `--public-key=${pem}`)).exitCode).toBe(2);
  });

  it('webhook sets the order events URL with a generated secret (shown once, stored sealed), keeps it on a URL change, removes both', async () => {
    const { id } = json<{ agentKey: { id: string } }>(await admin('agent-key:create', 'Hooked', '--json')).agentKey;
    const set = await adminWithKeyring(
      'agent-key:webhook',
      id,
      '--url',
      'https://agents.example.com/agentic_checkout/webhooks/order_events',
    );
    expect(set.exitCode).toBe(0);
    const secret = /^\s+(whsec_[a-f0-9]{64})$/m.exec(set.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(set.stdout).toContain('shown once');
    let row = await db.prisma.agentKey.findUniqueOrThrow({ where: { id } });
    expect(row.webhookUrl).toBe('https://agents.example.com/agentic_checkout/webhooks/order_events');
    expect(row.webhookSecret).not.toContain(secret!);
    expect(createSecretBox(KEYRING).open(row.webhookSecret!, agentKeySecretContext(id))).toBe(secret);

    const moved = await adminWithKeyring(
      'agent-key:webhook',
      id,
      '--url',
      'https://agents.example.com/v2/order_events',
    );
    expect(moved.stdout).not.toMatch(/whsec_/);
    row = await db.prisma.agentKey.findUniqueOrThrow({ where: { id } });
    expect(createSecretBox(KEYRING).open(row.webhookSecret!, agentKeySecretContext(id))).toBe(secret);

    expect((await admin('agent-key:webhook', id, '--remove')).exitCode).toBe(0);
    expect(await db.prisma.agentKey.findUniqueOrThrow({ where: { id } })).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
    });
  });

  it('webhook refuses a URL that points into our network (SSRF), or plain http, and stores nothing', async () => {
    const { id } = json<{ agentKey: { id: string } }>(await admin('agent-key:create', 'Sneaky', '--json')).agentKey;
    for (const url of [
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.7/hook',
      'https://[::1]/hook',
      'https://metadata.google.internal/x',
      'http://agents.example.com/hook',
    ]) {
      const result = await adminWithKeyring('agent-key:webhook', id, '--url', url);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/webhook url must/);
    }
    expect(await db.prisma.agentKey.findUniqueOrThrow({ where: { id } })).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
    });
  });

  it("deliveries lists the key's order events, newest first", async () => {
    const { id } = json<{ agentKey: { id: string } }>(await admin('agent-key:create', 'Logged', '--json')).agentKey;
    await db.prisma.acpOrderEvent.create({
      data: {
        eventId: 'evt_log_1',
        agentKeyId: id,
        type: 'order_create',
        checkoutSessionId: 'acs_1',
        payload: { type: 'order_create', data: { order_number: 'POL-2026-ABCDEF' } },
        status: 'failed',
        attempts: 5,
        lastStatusCode: 503,
        lastError: 'HTTP 503',
      },
    });
    const out = await admin('agent-key:deliveries', id);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(/evt_log_1\s+order_create\s+POL-2026-ABCDEF\s+failed\s+5\/5\s+503\s+HTTP 503/);
  });
});
