import path from 'node:path';
import type { PrismaClient } from '@expedition/db';
import { readJson, writePrivateJson } from '@expedition/operators';
import { ACP_AGENT_KEY_PREFIX } from '@expedition/contracts';
import { hashToken, randomToken } from '@expedition/platform';

export const DEMO_AGENT_KEY_FILE = 'demo-agent-key.json';

/**
 * The launcher's test-mode agent-platform key for /acp/v1, printed at start, so a newcomer can walk an ACP checkout
 * at once (the admin CLI's `agent-key:create` mints the real ones). Kept in DATA_DIR/demo-agent-key.json (0600) and
 * reused while that key exists and is not revoked; otherwise a new one is minted.
 */
export async function ensureDemoAgentKey(options: {
  prisma: PrismaClient;
  dataDir: string;
}): Promise<{ id: string; key: string; file: string }> {
  const file = path.join(path.resolve(options.dataDir), DEMO_AGENT_KEY_FILE);
  const stored = readJson<{ id: string; key: string }>(file);
  if (typeof stored?.key === 'string') {
    const row = await options.prisma.agentKey.findUnique({ where: { hash: hashToken(stored.key) } });
    if (row && !row.revokedAt) return { id: row.id, key: stored.key, file };
  }
  // Minted as `npm run admin -- agent-key:create` does (tools/admin/src/agent-keys.ts): only the sha256 is stored.
  const key = randomToken(`${ACP_AGENT_KEY_PREFIX}_test`, 32);
  const row = await options.prisma.agentKey.create({
    data: { name: 'Demo agent platform (npm start)', mode: 'test', prefix: key.slice(0, 16), hash: hashToken(key) },
  });
  writePrivateJson(file, { id: row.id, key });
  return { id: row.id, key, file };
}
