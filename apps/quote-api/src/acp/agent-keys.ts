import { createHash } from 'node:crypto';
import { ACP_AGENT_KEY_PREFIX } from '@expedition/contracts';
import type { AgentKey, PrismaClient } from '@expedition/db';
import { hashToken, type Clock } from '@expedition/platform';

/** A verified request signature: the digest of its signed bytes and when its Timestamp goes stale. */
export interface SignedRequest {
  digest: string;
  expiresAt: Date;
}

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

  /**
   * One signed request, one Idempotency-Key (docs/acp.md, "Request signatures"): the first use of a signed POST
   * records the key it came with; a later use is allowed (true) only with that same key, so a retry still gets the
   * idempotent answer while a captured request replayed under a new key is refused (false). `Idempotency-Key` is not
   * in the signed bytes, so this is what binds it to them. One statement: of two concurrent first uses, one records.
   * Rows whose window has passed are deleted on the way (never this request's own row).
   */
  async function useSignedRequest(keyId: string, signed: SignedRequest, idempotencyKey: string): Promise<boolean> {
    const digest = createHash('sha256').update(`${keyId}\n${signed.digest}`).digest('hex');
    const rows = await deps.prisma.$queryRaw<{ idempotency_key: string }[]>`
      WITH expired AS (
        DELETE FROM acp_signature_uses WHERE expires_at < ${deps.clock.now()} AND digest <> ${digest}
      )
      INSERT INTO acp_signature_uses (digest, idempotency_key, expires_at)
      VALUES (${digest}, ${idempotencyKey}, ${signed.expiresAt})
      ON CONFLICT (digest) DO UPDATE SET digest = EXCLUDED.digest
      RETURNING idempotency_key`;
    return rows[0]?.idempotency_key === idempotencyKey;
  }

  return { authenticate, useSignedRequest };
}

export type AgentKeyAuth = ReturnType<typeof createAgentKeyAuth>;
