import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import {
  DEMO_OPERATOR_NAME,
  type EnsureDemoOperatorOptions,
  demoOperatorFilePath,
  ensureDemoOperator,
} from '../src/lib/demo-operator';
import { OperatorError } from '../src/lib/operator-error';
import { createPublishableKeyService } from '../src/lib/publishable-key.service';
import { gateAccepts, testClock, testSecretBox } from './helpers';

const DEMO_ORIGIN = 'http://localhost:4200';
const WEBHOOK_URL = 'http://localhost:4200/webhooks/expedition';

let db: Database;
let dataDir: string;
let clock: ReturnType<typeof testClock>;
const secretBox = testSecretBox();

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  await db.prisma.operator.deleteMany();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'demo-operator-'));
  clock = testClock();
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function ensure(overrides: Partial<EnsureDemoOperatorOptions> = {}) {
  return ensureDemoOperator({
    prisma: db.prisma,
    dataDir,
    demoOrigin: DEMO_ORIGIN,
    webhookUrl: WEBHOOK_URL,
    clock,
    secretBox,
    ...overrides,
  });
}

function readFile(): unknown {
  return JSON.parse(readFileSync(demoOperatorFilePath(dataDir), 'utf8'));
}

describe('ensureDemoOperator', () => {
  it('creates an active demo operator with a test key, the demo origins and a webhook, and writes the file', async () => {
    const info = await ensure();

    expect(info).toEqual({
      operatorId: expect.any(String),
      name: DEMO_OPERATOR_NAME,
      publishableKey: expect.stringMatching(/^pk_op_test_[0-9a-f]{48}$/),
      allowedOrigins: ['http://localhost:4200', 'http://127.0.0.1:4200'],
      webhookUrl: WEBHOOK_URL,
      webhookSecret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
      portalEmail: null,
      portalPassword: null,
    });
    const row = await db.prisma.operator.findUniqueOrThrow({ where: { id: info.operatorId } });
    expect(row).toMatchObject({
      name: DEMO_OPERATOR_NAME,
      status: 'active',
      commissionRateBps: 1000,
      // A new operator is not approved for live embedding; the demo's test key does not need it.
      embeddingEnabled: false,
      webhookUrl: WEBHOOK_URL,
    });
    // Sealed in the database; in plain only in the 0600 file the demo site reads.
    expect(row.webhookSecret).not.toBe(info.webhookSecret);
    expect(secretBox.open(row.webhookSecret!, info.operatorId)).toBe(info.webhookSecret);
    expect(await gateAccepts(db.prisma, info.publishableKey, clock.now())).toBe(true);
    expect(readFile()).toEqual(info);
  });

  it('writes the file with mode 0600', async () => {
    await ensure();
    expect(statSync(demoOperatorFilePath(dataDir)).mode & 0o777).toBe(0o600);
  });

  it('is idempotent: a second run returns the same operator, key and secret and creates nothing', async () => {
    const first = await ensure();
    const second = await ensure();

    expect(second).toEqual(first);
    expect(await db.prisma.operator.count()).toBe(1);
    expect(await db.prisma.publishableKey.count()).toBe(1);
    expect(await db.prisma.allowedOrigin.count()).toBe(2);
    expect(readFile()).toEqual(first);
  });

  it('finds the demo operator by name when the file is gone', async () => {
    const first = await ensure();
    unlinkSync(demoOperatorFilePath(dataDir));

    expect(await ensure()).toEqual(first);
    expect(await db.prisma.operator.count()).toBe(1);
  });

  it('creates a new operator when the one in the file no longer exists', async () => {
    const first = await ensure();
    await db.prisma.operator.delete({ where: { id: first.operatorId } });

    const second = await ensure();

    expect(second.operatorId).not.toBe(first.operatorId);
    expect(second.publishableKey).not.toBe(first.publishableKey);
    expect(await db.prisma.operator.count()).toBe(1);
    expect(readFile()).toEqual(second);
  });

  it('mints a fresh test key for the same operator when the filed key was revoked', async () => {
    const first = await ensure();
    await createPublishableKeyService({ prisma: db.prisma, clock }).revokeKey(first.publishableKey);

    const second = await ensure();

    expect(second.operatorId).toBe(first.operatorId);
    expect(second.publishableKey).not.toBe(first.publishableKey);
    expect(await gateAccepts(db.prisma, second.publishableKey, clock.now())).toBe(true);
  });

  it('follows a moved demo site: new origins and webhook URL, same secret', async () => {
    const first = await ensure();
    const second = await ensure({
      demoOrigin: 'http://127.0.0.1:4300',
      webhookUrl: 'http://127.0.0.1:4300/webhooks/expedition',
      extraOrigins: ['https://demo.example.com/'],
    });

    expect(second.operatorId).toBe(first.operatorId);
    expect(second.webhookSecret).toBe(first.webhookSecret);
    expect(second.webhookUrl).toBe('http://127.0.0.1:4300/webhooks/expedition');
    expect(second.allowedOrigins).toEqual(
      expect.arrayContaining(['http://127.0.0.1:4300', 'http://localhost:4300', 'https://demo.example.com']),
    );
  });

  it('seals a legacy plain secret on the next run and keeps its value', async () => {
    const first = await ensure();
    await db.prisma.operator.update({
      where: { id: first.operatorId },
      data: { webhookSecret: 'whsec_legacy_plain_0123' },
    });

    const second = await ensure();

    expect(second.webhookSecret).toBe('whsec_legacy_plain_0123');
    const stored = (await db.prisma.operator.findUniqueOrThrow({ where: { id: first.operatorId } })).webhookSecret!;
    expect(secretBox.isCurrent(stored)).toBe(true);
    expect(secretBox.open(stored, first.operatorId)).toBe('whsec_legacy_plain_0123');
  });

  it('moves the secret to a new current key after a rotation, same value', async () => {
    const first = await ensure();
    const rotated = testSecretBox('b', 'a');

    const second = await ensure({ secretBox: rotated });

    expect(second.webhookSecret).toBe(first.webhookSecret);
    const stored = (await db.prisma.operator.findUniqueOrThrow({ where: { id: first.operatorId } })).webhookSecret!;
    expect(stored.startsWith('sbx1.b.')).toBe(true);
  });

  it('issues a fresh secret when the keyring that sealed the old one is gone (the file follows)', async () => {
    const first = await ensure();

    const second = await ensure({ secretBox: testSecretBox('z') });

    expect(second.webhookSecret).not.toBe(first.webhookSecret);
    expect(readFile()).toEqual(second);
  });

  it('keeps portal credentials that a later step added to the file', async () => {
    const first = await ensure();
    const withPortal = { ...first, portalEmail: 'demo@polar.example', portalPassword: 'demo-password' };
    writeFileSync(demoOperatorFilePath(dataDir), JSON.stringify(withPortal));

    expect(await ensure()).toEqual(withPortal);
  });

  it('rewrites a corrupt file', async () => {
    const first = await ensure();
    writeFileSync(demoOperatorFilePath(dataDir), '{ not json');

    expect(await ensure()).toEqual(first);
    expect(readFile()).toEqual(first);
  });

  it('rejects an invalid demo origin or webhook URL before writing anything', async () => {
    await expect(ensure({ demoOrigin: 'localhost:4200/path' })).rejects.toBeInstanceOf(OperatorError);
    await expect(ensure({ webhookUrl: 'http://demo.example.com/hook' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(await db.prisma.operator.count()).toBe(0);
  });
});
