import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashSecretKey } from '@expedition/auth-publishable-key';
import { type Database, createDatabase, prepareDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createTestDatabase } from '@expedition/db/testing';
import { type Keyring, createSecretBox, resolveWebhookSecretKeys } from '@expedition/operators';
import { type AdminDeps, type AdminResult, runAdmin } from '../src/run-admin';
import { COMMANDS } from '../src/commands';

let db: Database;
let dataDir: string;
let opened: number;
const NOW = new Date('2026-11-21T10:00:00Z');
const keyring = (...kids: string[]): Keyring =>
  kids.map((kid) => ({ kid, key: Buffer.alloc(32, kid) })) as unknown as Keyring;
const KEYS_A = keyring('a');

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  await db.prisma.operator.deleteMany();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'admin-cli-'));
  opened = 0;
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function deps(overrides: Partial<AdminDeps> = {}): AdminDeps {
  return {
    openDatabase: async () => {
      opened += 1;
      // The runner closes what it opens; the test database outlives each command.
      return { ...db, close: async () => undefined };
    },
    prepareDatabase: (db) => prepareDatabase(db, { catalog: catalogSnapshot() }),
    dataDir,
    usingDatabaseUrl: false,
    demoOrigin: 'http://localhost:4200',
    demoWebhookUrl: 'http://localhost:4200/webhooks/expedition',
    allowPrivateWebhookUrls: true,
    webhookSecretKeys: () => KEYS_A,
    clock: { now: () => NOW },
    ...overrides,
  };
}

const admin = (...argv: string[]) => runAdmin(argv, deps());

function json<T = any>(result: AdminResult): T {
  expect(result).toMatchObject({ exitCode: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
}

async function createOperator(...extra: string[]): Promise<string> {
  return json<{ id: string }>(
    await admin('operator:create', '--name', 'Ice Tours', '--status', 'active', '--json', ...extra),
  ).id;
}

describe('admin CLI: commands', () => {
  it('help lists every command without opening the database', async () => {
    const result = await admin('help');
    expect(result.exitCode).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toContain(command.name);
    expect(opened).toBe(0);
  });

  it('operator:create prints a readable summary and stores the operator', async () => {
    const result = await admin(
      'operator:create',
      '--name',
      'Arctic Ways',
      '--email',
      'ops@arctic.example',
      '--commission-bps',
      '1250',
    );

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Created operator\./);
    expect(result.stdout).toMatch(/status:\s+pending/);
    expect(result.stdout).toMatch(/commission:\s+1250 bps \(12\.5 %\)/);
    const row = await db.prisma.operator.findFirstOrThrow({ where: { name: 'Arctic Ways' } });
    expect(row).toMatchObject({ status: 'pending', commissionRateBps: 1250, contactEmail: 'ops@arctic.example' });
    expect(result.stdout).toContain(row.id);
  });

  it('--json gives machine-readable output for operator:list', async () => {
    const id = await createOperator();
    const list = json<{ id: string; status: string; embeddingEnabled: boolean }[]>(
      await admin('operator:list', '--json'),
    );
    expect(list).toEqual([expect.objectContaining({ id, status: 'active', embeddingEnabled: false })]);
  });

  it('manages keys, origins, embedding and commission end to end', async () => {
    const id = await createOperator();

    const key = json<{ key: string; id: string; mode: string; label: string }>(
      await admin('key:create', id, '--mode', 'live', '--label', 'main site', '--json'),
    );
    expect(key).toMatchObject({ mode: 'live', label: 'main site' });
    expect(key.key).toMatch(/^pk_op_[0-9a-f]{48}$/);

    expect(json(await admin('origin:add', id, 'HTTPS://Tours.Ice.Example/', '--json'))).toEqual({
      origin: 'https://tours.ice.example',
      added: true,
    });
    expect((await admin('origin:add', id, 'https://tours.ice.example')).stdout).toMatch(/already allowed/);
    expect(json(await admin('origin:list', id, '--json'))).toEqual(['https://tours.ice.example']);

    expect(json(await admin('operator:enable-embedding', id, '--json'))).toMatchObject({ embeddingEnabled: true });
    expect(json(await admin('operator:set-commission', id, '--bps', '800', '--json'))).toMatchObject({
      commissionRateBps: 800,
    });

    const rotated = json<{ newKey: { key: string; mode: string }; oldKey: { expiresAt: string; state: string } }>(
      await admin('key:rotate', key.key, '--grace-seconds', '60', '--json'),
    );
    expect(rotated.newKey.mode).toBe('live');
    expect(rotated.oldKey).toMatchObject({ state: 'expiring', expiresAt: '2026-11-21T10:01:00.000Z' });

    expect(json(await admin('key:revoke', key.id, '--json'))).toMatchObject({ state: 'revoked' });
    const states = json<{ state: string }[]>(await admin('key:list', id, '--json')).map((k) => k.state);
    expect(states.sort()).toEqual(['active', 'revoked']);

    const shown = json<{ allowedOrigins: string[]; keys: unknown[] }>(await admin('operator:show', id, '--json'));
    expect(shown.allowedOrigins).toEqual(['https://tours.ice.example']);
    expect(shown.keys).toHaveLength(2);
    expect(json(await admin('operator:suspend', id, '--json'))).toMatchObject({ status: 'suspended' });
  });

  it('shows a generated webhook secret once and never again', async () => {
    const id = await createOperator();
    const result = await admin('operator:set-webhook', id, '--url', 'https://hooks.ice.example/expedition');

    const secret = /whsec_[0-9a-f]{64}/.exec(result.stdout)?.[0];
    expect(secret).toBeDefined();
    const stored = (await db.prisma.operator.findUniqueOrThrow({ where: { id } })).webhookSecret!;
    expect(stored).not.toContain(secret!.slice(6));
    expect(createSecretBox(KEYS_A).open(stored, id)).toBe(secret);
    const shown = await admin('operator:show', id);
    expect(shown.stdout).toMatch(/webhook secret:\s+set/);
    expect(shown.stdout).not.toContain(secret);
  });

  it('operator:set-webhook refuses a metadata, private or loopback URL under production rules and stores nothing', async () => {
    const id = await createOperator();
    const production = deps({ allowPrivateWebhookUrls: false });
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'https://192.168.1.1/hooks',
      'http://127.1:9464/metrics',
    ]) {
      const result = await runAdmin(['operator:set-webhook', id, '--url', url], production);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toMatch(/public internet host/);
    }
    expect(await db.prisma.operator.findUniqueOrThrow({ where: { id } })).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
    });
    // In development (npm start) the demo receiver on localhost is fine.
    expect(
      (await admin('operator:set-webhook', id, '--url', 'http://127.0.0.1:4200/webhooks/expedition')).exitCode,
    ).toBe(0);
  });

  it('secrets:rewrap moves every webhook secret to the new current key after a rotation', async () => {
    const id = await createOperator();
    const legacy = await createOperator();
    const { webhookSecret } = json<{ webhookSecret: string }>(
      await admin('operator:set-webhook', id, '--url', 'https://hooks.ice.example/expedition', '--json'),
    );
    await db.prisma.operator.update({ where: { id: legacy }, data: { webhookSecret: 'whsec_legacy_plain_0123' } });

    const rotated = keyring('b', 'a');
    const result = await runAdmin(['secrets:rewrap'], deps({ webhookSecretKeys: () => rotated }));

    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toMatch(/now under key "b"/);
    expect(result.stdout).toMatch(/re-wrapped:\s+1/);
    expect(result.stdout).toMatch(/sealed \(were plain\):\s+1/);
    const onlyB = createSecretBox(keyring('b'));
    const row = async (opId: string) =>
      (await db.prisma.operator.findUniqueOrThrow({ where: { id: opId } })).webhookSecret!;
    expect(onlyB.open(await row(id), id)).toBe(webhookSecret);
    expect(onlyB.open(await row(legacy), legacy)).toBe('whsec_legacy_plain_0123');
    expect(result.stdout).not.toContain(webhookSecret);
  });

  it('secrets:rewrap exits 1 and names the operator whose secret no key opens', async () => {
    const id = await createOperator();
    await admin('operator:set-webhook', id, '--url', 'https://hooks.ice.example/expedition');

    const result = await runAdmin(['secrets:rewrap', '--json'], deps({ webhookSecretKeys: () => keyring('c') }));

    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout).failed).toEqual([{ operatorId: id, reason: expect.stringContaining('"a"') }]);
  });

  it('needs WEBHOOK_SECRET_KEYS with DATABASE_URL only for commands that write a secret, and says so in one line', async () => {
    const id = await createOperator();
    const deployed = deps({
      usingDatabaseUrl: true,
      webhookSecretKeys: () => resolveWebhookSecretKeys({ configured: undefined, embedded: false, dataDir }),
    });

    expect((await runAdmin(['key:list', id], deployed)).exitCode).toBe(0);
    const refused = await runAdmin(['operator:set-webhook', id, '--url', 'https://hooks.ice.example/x'], deployed);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^error: WEBHOOK_SECRET_KEYS: required with DATABASE_URL[^\n]*\n$/);
    expect((await db.prisma.operator.findUniqueOrThrow({ where: { id } })).webhookUrl).toBeNull();
    const asJson = await runAdmin(['secrets:rewrap', '--json'], deployed);
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { code: 'config' } });
  });

  it('prints a secret key once and stores only its hash', async () => {
    const id = await createOperator();
    const result = await admin('secret-key:create', id, '--mode', 'test');

    const key = /sk_op_test_[0-9a-f]{64}/.exec(result.stdout)?.[0];
    expect(key).toBeDefined();
    const row = await db.prisma.secretKey.findFirstOrThrow({ where: { operatorId: id } });
    expect(row.hash).toBe(hashSecretKey(key!));
    expect((await admin('operator:show', id)).stdout).not.toContain(key);
  });

  it('demo:ensure writes DATA_DIR/demo-operator.json (0600) and is idempotent', async () => {
    const first = json<{ operatorId: string; publishableKey: string; allowedOrigins: string[] }>(
      await admin('demo:ensure', '--json'),
    );
    const file = path.join(dataDir, 'demo-operator.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.allowedOrigins).toEqual(['http://localhost:4200', 'http://127.0.0.1:4200']);

    expect(json(await admin('demo:ensure', '--json'))).toEqual(first);
    expect(await db.prisma.operator.count()).toBe(1);
  });
});

describe('admin CLI: errors', () => {
  it.each([
    [['bogus'], /unknown command "bogus"/],
    [['key:create', 'some-id'], /needs --mode/],
    [['key:create'], /expects <operatorId>/],
    [['operator:list', '--colour'], /Unknown option '--colour'/],
    [['operator:set-commission', 'some-id', '--bps', 'ten'], /--bps must be a whole number/],
    [['origin:add', 'some-id'], /expects <operatorId> <origin>/],
  ])('%j is a usage error: exit 2, usage on stderr, database untouched', async (argv, message) => {
    const result = await admin(...argv);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(opened).toBe(0);
  });

  it('reports a domain error with exit 1 and a message, never a stack trace', async () => {
    const result = await admin('operator:show', '00000000-0000-4000-8000-000000000000');
    expect(result).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'error: operator 00000000-0000-4000-8000-000000000000 not found\n',
    });
  });

  it('reports invalid values refused by the service with exit 1', async () => {
    const id = await createOperator();
    const bps = await admin('operator:set-commission', id, '--bps', '20000');
    expect(bps.exitCode).toBe(1);
    expect(bps.stderr).toMatch(/0 to 10000/);

    const origin = await admin('origin:add', id, 'https://tours.example.com/book');
    expect(origin.exitCode).toBe(1);
    expect(origin.stderr).toMatch(/not a valid origin/);
    expect(origin.stderr).not.toMatch(/\n\s+at /);
  });

  it('--json errors are a JSON object on stderr', async () => {
    const result = await admin('key:revoke', `pk_op_test_${'0'.repeat(48)}`, '--json');
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error: { code: 'not_found', message: expect.stringMatching(/not found/) },
    });
  });

  it('explains a PGlite directory held by another process (npm start)', async () => {
    // The same lock createDatabase takes: a pid file naming a live process (this one).
    writeFileSync(path.join(dataDir, 'pglite.pid'), String(process.pid));
    const result = await runAdmin(['operator:list'], deps({ openDatabase: () => createDatabase({ dataDir }) }));

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/in use by another process/);
    // What to do, each way: stop it (naming the pid), the portal's admin pages meanwhile, or PostgreSQL for both.
    expect(result.stderr).toContain(`\`kill ${process.pid}\``);
    expect(result.stderr).toContain(`provider admin pages`);
    expect(result.stderr).toContain(path.join(dataDir, 'provider-admin.json'));
    expect(result.stderr).toMatch(/DATABASE_URL=postgresql:\/\/… for `npm start` and for this command/);
  });

  it('reports an unreachable database without a stack trace', async () => {
    const result = await runAdmin(
      ['operator:list'],
      deps({
        openDatabase: async () => {
          throw new Error('connect ECONNREFUSED 127.0.0.1:1');
        },
      }),
    );
    expect(result).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'error: could not open the database: connect ECONNREFUSED 127.0.0.1:1\n',
    });
  });
});
