import { ACP_AGENT_KEY_PREFIX } from '@expedition/contracts';
import type { AgentKey, PrismaClient } from '@expedition/db';
import { hashToken, type Clock } from '@expedition/platform';

/**
 * Agent platforms' bearer keys (`acpk_…`), minted by the provider with `npm run admin -- agent-key create`. Only the
 * sha256 is stored, so a key is checked by hashing what was presented; revoked keys are refused.
 */
export function createAgentKeyAuth(deps: { prisma: PrismaClient; clock: Clock }) {
  async function authenticate(authorization: string | undefined): Promise<AgentKey | null> {
    const presented = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(authorization ?? '')?.[1];
    if (!presented?.startsWith(`${ACP_AGENT_KEY_PREFIX}_`)) return null;
    const key = await deps.prisma.agentKey.findUnique({ where: { hash: hashToken(presented) } });
    if (!key || key.revokedAt) return null;
    // Bookkeeping only: a failure here must not refuse the request.
    await deps.prisma.agentKey
      .update({ where: { id: key.id }, data: { lastUsedAt: deps.clock.now() } })
      .catch(() => undefined);
    return key;
  }
  return { authenticate };
}

export type AgentKeyAuth = ReturnType<typeof createAgentKeyAuth>;
