import { createHash } from 'node:crypto';
import { isUniqueViolation, type PrismaClient } from '@expedition/db';
import { withAccessToken, withoutAccessToken, type PolicyTokens } from '@expedition/fulfillment';
import type { Clock } from '@expedition/platform';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** `status_code` of a row whose first request is still running (no answer stored yet). */
const IN_FLIGHT = 0;

/** What `begin` found for a key. */
type IdempotencyBegin =
  { kind: 'started' } | { kind: 'replay'; response: StoredResponse } | { kind: 'conflict' } | { kind: 'in_flight' };

/**
 * `idempotency_records`, one namespace per `scope` (a route, or a caller + route): the one store behind every
 * `Idempotency-Key` of quote-api. `find`/`save` keep a finished answer; `begin`/`finish`/`release` also lock the key
 * while its first request runs, so a twin sent meanwhile is told so (409) instead of running the operation again.
 */
export function createIdempotencyStore(deps: { prisma: PrismaClient; clock: Clock }) {
  const { prisma, clock } = deps;
  const where = (scope: string, key: string) => ({ scope_key: { scope, key } });

  async function find(
    scope: string,
    key: string,
  ): Promise<{ requestHash: string; response: StoredResponse; createdAt: Date } | null> {
    const row = await prisma.idempotencyRecord.findUnique({ where: where(scope, key) });
    if (!row || row.statusCode === IN_FLIGHT) return null;
    return {
      requestHash: row.bodyHash,
      createdAt: row.createdAt,
      response: { status: row.statusCode, headers: row.headers as Record<string, string>, body: row.body },
    };
  }

  /** First writer wins (true); a concurrent twin's result is not stored over it (false). */
  async function save(scope: string, key: string, hash: string, response: StoredResponse): Promise<boolean> {
    try {
      await prisma.idempotencyRecord.create({
        data: {
          scope,
          key,
          bodyHash: hash,
          statusCode: response.status,
          headers: response.headers,
          body: response.body as object,
          createdAt: clock.now(),
        },
      });
      return true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return false;
    }
  }

  /**
   * Takes the key for a first request (an in-flight row, atomic on the primary key), or says what is there: the
   * stored answer (same body), a conflict (another body), or a first request still running. A row older than
   * `retainMs` is forgotten (the key is new again), and an in-flight row older than `staleInFlightMs` belonged to a
   * process that died: it is taken over.
   */
  async function begin(
    scope: string,
    key: string,
    hash: string,
    opts: { retainMs: number; staleInFlightMs: number },
  ): Promise<IdempotencyBegin> {
    for (let tries = 0; tries < 3; tries++) {
      try {
        await prisma.idempotencyRecord.create({
          data: { scope, key, bodyHash: hash, statusCode: IN_FLIGHT, headers: {}, body: {}, createdAt: clock.now() },
        });
        return { kind: 'started' };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      const row = await prisma.idempotencyRecord.findUnique({ where: where(scope, key) });
      if (!row) continue;
      const age = clock.now().getTime() - row.createdAt.getTime();
      const stale = row.statusCode === IN_FLIGHT ? age > opts.staleInFlightMs : age > opts.retainMs;
      if (stale) {
        await prisma.idempotencyRecord.deleteMany({
          where: { scope, key, createdAt: row.createdAt, statusCode: row.statusCode },
        });
        continue;
      }
      if (row.bodyHash !== hash) return { kind: 'conflict' };
      if (row.statusCode === IN_FLIGHT) return { kind: 'in_flight' };
      return {
        kind: 'replay',
        response: { status: row.statusCode, headers: row.headers as Record<string, string>, body: row.body },
      };
    }
    return { kind: 'in_flight' };
  }

  /** Stores the answer of the request that `begin` started. */
  async function finish(scope: string, key: string, response: StoredResponse): Promise<void> {
    await prisma.idempotencyRecord.updateMany({
      where: { scope, key, statusCode: IN_FLIGHT },
      data: { statusCode: response.status, headers: response.headers, body: response.body as object },
    });
  }

  /** Frees the key without storing anything (a 5xx, or a failure): a retry runs afresh. */
  async function release(scope: string, key: string): Promise<void> {
    await prisma.idempotencyRecord.deleteMany({ where: { scope, key, statusCode: IN_FLIGHT } });
  }

  return { find, save, begin, finish, release };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

const SCOPE = 'purchase';

/**
 * `Idempotency-Key` on POST /api/v1/purchase. /api/v1 has no caller identity, so a stored result is bound to the
 * request that produced it AND the credential that paid: the same key with the same body but another (or no)
 * credential is a different request (422), never a replay of someone else's receipt.
 *
 * The buyer's receipt is stored without the policy's access token (its certificate link without `access_token`); a
 * replay derives the same token again (policy-tokens.ts), so no cached answer holds a bearer token.
 */
export function createIdempotencyRepository(deps: { prisma: PrismaClient; clock: Clock; policyTokens: PolicyTokens }) {
  const store = createIdempotencyStore(deps);

  function requestHash(parts: { quoteId: string; planId: string; authorization: string | undefined }): string {
    const credential = createHash('sha256')
      .update(parts.authorization ?? '')
      .digest('hex');
    return createHash('sha256')
      .update(JSON.stringify([parts.quoteId, parts.planId, credential]))
      .digest('hex');
  }

  async function find(key: string): Promise<{ requestHash: string; response: StoredResponse } | null> {
    const found = await store.find(SCOPE, key);
    return (
      found && { requestHash: found.requestHash, response: { ...found.response, body: withToken(found.response.body) } }
    );
  }

  async function save(key: string, hash: string, response: StoredResponse): Promise<void> {
    await store.save(SCOPE, key, hash, { ...response, body: withoutToken(response.body) });
  }

  /** A buyer's receipt (one with `documentUrl`) as stored: no `accessToken`, the link without it. */
  function withoutToken(body: unknown): unknown {
    if (!isBuyerReceipt(body)) return body;
    const { accessToken: _dropped, ...rest } = body;
    return { ...rest, documentUrl: withoutAccessToken(body.documentUrl) };
  }

  /** A stored buyer's receipt as answered: the policy's derived token, in the body and in the link. */
  function withToken(body: unknown): unknown {
    if (!isBuyerReceipt(body)) return body;
    const accessToken = deps.policyTokens.tokenFor({ policyNumber: body.policyNumber });
    return { ...body, accessToken, documentUrl: withAccessToken(body.documentUrl, accessToken) };
  }

  return { requestHash, find, save };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;

function isBuyerReceipt(body: unknown): body is { policyNumber: string; documentUrl: string; accessToken?: string } {
  const b = body as { policyNumber?: unknown; documentUrl?: unknown } | null;
  return typeof b === 'object' && b !== null && typeof b.policyNumber === 'string' && typeof b.documentUrl === 'string';
}
