import { createHash } from 'node:crypto';
import { isUniqueViolation, type PrismaClient } from '@expedition/db';
import type { Clock } from '@expedition/platform';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const SCOPE = 'purchase';

/**
 * `Idempotency-Key` on POST /api/v1/purchase. /api/v1 has no caller identity, so a stored result is bound to the
 * request that produced it AND the credential that paid: the same key with the same body but another (or no)
 * credential is a different request (422), never a replay of someone else's receipt.
 */
export function createIdempotencyRepository(deps: { prisma: PrismaClient; clock: Clock }) {
  const { prisma, clock } = deps;

  function requestHash(parts: { quoteId: string; planId: string; authorization: string | undefined }): string {
    const credential = createHash('sha256').update(parts.authorization ?? '').digest('hex');
    return createHash('sha256').update(JSON.stringify([parts.quoteId, parts.planId, credential])).digest('hex');
  }

  async function find(key: string): Promise<{ requestHash: string; response: StoredResponse } | null> {
    const row = await prisma.idempotencyRecord.findUnique({ where: { scope_key: { scope: SCOPE, key } } });
    if (!row) return null;
    return { requestHash: row.bodyHash, response: { status: row.statusCode, headers: row.headers as Record<string, string>, body: row.body } };
  }

  /** First writer wins; a concurrent twin's identical result is simply not stored twice. */
  async function save(key: string, hash: string, response: StoredResponse): Promise<void> {
    try {
      await prisma.idempotencyRecord.create({
        data: {
          scope: SCOPE,
          key,
          bodyHash: hash,
          statusCode: response.status,
          headers: response.headers,
          body: response.body as object,
          createdAt: clock.now(),
        },
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }

  return { requestHash, find, save };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
