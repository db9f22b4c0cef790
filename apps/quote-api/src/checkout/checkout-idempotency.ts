import { createHash } from 'node:crypto';
import type { CheckoutRequest, CheckoutResponse } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { AppError } from '@expedition/http-kit';
import type { Clock } from '@expedition/platform';
import { createIdempotencyStore } from '../purchase/idempotency.repository';

/** Its own namespace in `idempotency_records`: a key used for /purchase never replays or blocks a checkout. */
const SCOPE = 'checkout';

/** `replayed`: the link was stored by an earlier request with this key (answered with `Idempotent-Replayed: true`). */
export interface Answer {
  link: CheckoutResponse;
  replayed: boolean;
}

/** Same rule as /purchase: 1 to 255 characters. */
export function readIdempotencyKey(value: string | undefined): string | undefined {
  if (value !== undefined && (value.length === 0 || value.length > 255)) {
    throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters', [{ path: 'Idempotency-Key', message: 'invalid length' }]);
  }
  return value;
}

/**
 * `Idempotency-Key` on POST /api/v1/checkout: the same key with the same body answers the same link, for as long as
 * that link works (30 minutes); a key reused with another body is 422. The body includes the quote's `sessionId`, a
 * bearer secret, so only a caller who could open the link anyway can have it replayed. Only a 200 is stored: a
 * refusal (expired quote, purchased quote…) is evaluated again on the next try. After the link has expired, the same
 * key and body open a new link in place of the old one (a retry never hands out a dead link).
 */
export function createCheckoutIdempotency(deps: { prisma: PrismaClient; clock: Clock }) {
  const { prisma, clock } = deps;
  const store = createIdempotencyStore(deps);

  /** Hash of the parsed body, field order and absent optionals normalised. */
  function requestHash(body: CheckoutRequest): string {
    const canonical = [body.quoteId, body.planId, body.sessionId, body.email ?? null, body.guestNames ?? null, body.agentSummary ?? null];
    return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
  }

  /**
   * Runs `open` at most once per live key: a stored link is returned as is; another body is 422. Two concurrent
   * first attempts may both open a link, but both callers get the one that was stored first.
   */
  async function run(key: string, body: CheckoutRequest, open: () => Promise<CheckoutResponse>): Promise<Answer> {
    const hash = requestHash(body);
    const stored = await store.find(SCOPE, key);
    if (stored && stored.requestHash !== hash) throw conflict();
    const link = stored?.response.body as CheckoutResponse | undefined;
    if (link && !isExpired(link)) return { link, replayed: true };

    const created = await open();
    if (stored) {
      // The stored link has expired: replace it, unless a concurrent retry already did.
      const replaced = await prisma.idempotencyRecord.updateMany({
        where: { scope: SCOPE, key, createdAt: stored.createdAt },
        data: { body: created, createdAt: clock.now() },
      });
      return replaced.count === 1 ? { link: created, replayed: false } : { link: await current(key, created), replayed: true };
    }
    // First writer wins; a concurrent twin with the same body is answered the winner's link.
    if (await store.save(SCOPE, key, hash, { status: 200, headers: {}, body: created })) return { link: created, replayed: false };
    const winner = await store.find(SCOPE, key);
    if (winner && winner.requestHash !== hash) throw conflict();
    return { link: (winner?.response.body as CheckoutResponse | undefined) ?? created, replayed: true };
  }

  async function current(key: string, fallback: CheckoutResponse): Promise<CheckoutResponse> {
    return ((await store.find(SCOPE, key))?.response.body as CheckoutResponse | undefined) ?? fallback;
  }

  function conflict(): AppError {
    return new AppError(422, 'invalid_request', 'Idempotency-Key was already used with a different request body; use a new key for a new request');
  }

  function isExpired(link: CheckoutResponse): boolean {
    return link.expiresAt !== undefined && Date.parse(link.expiresAt) <= clock.now().getTime();
  }

  return { run };
}

export type CheckoutIdempotency = ReturnType<typeof createCheckoutIdempotency>;
