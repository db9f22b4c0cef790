import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, prepareDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createTestDatabase } from '@expedition/db/testing';
import { verifyPassword } from '@expedition/operators';
import { type AdminDeps, runAdmin } from '../src/run-admin';

let db: Database;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'admin-cli-pa-'));
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await db.close();
});

const deps = (): AdminDeps => ({
  openDatabase: async () => ({ ...db, close: async () => undefined }),
  prepareDatabase: (d) => prepareDatabase(d, { catalog: catalogSnapshot() }),
  dataDir,
  usingDatabaseUrl: false,
  demoOrigin: 'http://localhost:4200',
  demoWebhookUrl: 'http://localhost:4200/webhooks/expedition',
  webhookSecretKeys: () => [{ kid: 'a', key: Buffer.alloc(32, 1) }],
});

describe('create-provider-admin', () => {
  it('creates a verified provider admin and prints a generated password once (only its argon2id hash is stored)', async () => {
    const result = await runAdmin(['create-provider-admin', 'Staff@Expedition.example', '--json'], deps());
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const out = JSON.parse(result.stdout) as { user: { email: string; role: string }; password: string };
    expect(out.user).toMatchObject({
      email: 'staff@expedition.example',
      role: 'provider_admin',
      operatorId: null,
      emailVerified: true,
    });
    expect(out.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const row = await db.prisma.operatorUser.findUniqueOrThrow({ where: { email: 'staff@expedition.example' } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.passwordHash, out.password)).toBe(true);
  });

  it('human output says the password is shown once', async () => {
    const result = await runAdmin(['create-provider-admin', 'second@expedition.example'], deps());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/shown ONCE/);
    expect(result.stdout).toMatch(/password:\s+[A-Za-z0-9_-]{24}\n/);
  });

  it('refuses an existing address (exit 1, code email_taken) and a malformed one (exit 1)', async () => {
    const taken = await runAdmin(['create-provider-admin', 'staff@expedition.example', '--json'], deps());
    expect(taken.exitCode).toBe(1);
    expect(JSON.parse(taken.stderr)).toEqual({ error: { code: 'email_taken', message: expect.any(String) } });
    const bad = await runAdmin(['create-provider-admin', 'not-an-email'], deps());
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/not a valid e-mail/);
  });

  it('usage error (exit 2) without the e-mail', async () => {
    expect((await runAdmin(['create-provider-admin'], deps())).exitCode).toBe(2);
  });
});
