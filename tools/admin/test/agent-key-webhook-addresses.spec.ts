import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { parseWebhookSecretKeys } from '@expedition/operators';
import { type AdminDeps, type AdminResult, runAdmin } from '../src/run-admin';

/**
 * `agent-key:webhook --url`: an IPv6 literal that carries a refused IPv4 address is refused like that address
 * (libs/platform outbound-address.ts, classifyAddress): the order events would otherwise be dialled into our network.
 */

let db: Database;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admin-agent-key-addresses-'));

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const KEYRING = parseWebhookSecretKeys(`a:${Buffer.alloc(32, 0xa1).toString('base64')}`);
const deps: AdminDeps = {
  openDatabase: async () => ({ ...db, close: async () => undefined }),
  prepareDatabase: (d) => prepareDatabase(d, { catalog: catalogSnapshot() }),
  dataDir,
  usingDatabaseUrl: false,
  demoOrigin: 'http://localhost:4200',
  demoWebhookUrl: 'http://localhost:4200/webhooks/expedition',
  webhookSecretKeys: () => KEYRING,
  clock: { now: () => new Date('2026-11-23T10:00:00Z') },
};
const admin = (...argv: string[]) => runAdmin(argv, deps);
function json<T>(result: AdminResult): T {
  expect(result).toMatchObject({ exitCode: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
}

/** 127.0.0.1 or 169.254.169.254 inside IPv6: compatible, translated, NAT64 (well-known and local-use), 6to4, Teredo. */
const CARRYING_REFUSED = [
  'https://[::127.0.0.1]/hook',
  'https://[::7f00:1]/hook',
  'https://[::a9fe:a9fe]/latest/meta-data',
  'https://[::ffff:0:7f00:1]/hook',
  'https://[64:ff9b::7f00:1]/hook',
  'https://[64:ff9b:1::a9fe:a9fe]/hook',
  'https://[2002:7f00:1::]/hook',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
];

describe('admin CLI: agent-key:webhook and IPv6 forms of a refused IPv4 address', () => {
  it.each(CARRYING_REFUSED)('refuses --url %s (exit 1, nothing stored)', async (url) => {
    const { id } = json<{ agentKey: { id: string } }>(await admin('agent-key:create', 'Tunnel', '--json')).agentKey;
    const result = await admin('agent-key:webhook', id, '--url', url);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/webhook url must point to a public internet host, not an? [a-z -]+ address/);
    expect(await db.prisma.agentKey.findUniqueOrThrow({ where: { id } })).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
    });
  });
});
