import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
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
    throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters', [
      { path: 'Idempotency-Key', message: 'invalid length' },
    ]);
  }
  return value;
}

/**
 * `Idempotency-Key` on POST /api/v1/checkout: the same key with the same body answers the same link, for as long as
 * that link works (30 minutes); a key reused with another body is 422. The body includes the quote's `sessionId`, a
 * bearer secret, so only a caller who could open the link anyway can have it replayed. Only a 200 is stored: a
 * refusal (expired quote, purchased quote…) is evaluated again on the next try. After the link has expired, the same
 * key and body open a new link in place of the old one (a retry never hands out a dead link).
 *
 * The link is a bearer secret, so the record keeps it sealed (AES-256-GCM) under a key derived from the request's
 * `sessionId`, which the database holds only as a hash: a database read yields no link, and only a caller presenting
 * the same sessionId (the one a replay needs anyway) can open it. A record whose link cannot be opened (one stored
 * before sealing) counts as expired: the retry opens a new link.
 */
export function createCheckoutIdempotency(deps: { prisma: PrismaClient; clock: Clock }) {
  const { prisma, clock } = deps;
  const store = createIdempotencyStore(deps);

  /** Hash of the parsed body, field order and absent optionals normalised. */
  function requestHash(body: CheckoutRequest): string {
    const canonical = [
      body.quoteId,
      body.planId,
      body.sessionId,
      body.email ?? null,
      body.guestNames ?? null,
      body.agentSummary ?? null,
    ];
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
    const link = stored ? openLink(stored.response.body, body.sessionId, key) : null;
    if (link && !isExpired(link)) return { link, replayed: true };

    const created = await open();
    const sealed = sealLink(created, body.sessionId, key);
    if (stored) {
      // The stored link has expired: replace it, unless a concurrent retry already did.
      const replaced = await prisma.idempotencyRecord.updateMany({
        where: { scope: SCOPE, key, createdAt: stored.createdAt },
        data: { body: sealed, createdAt: clock.now() },
      });
      return replaced.count === 1
        ? { link: created, replayed: false }
        : { link: await current(key, body.sessionId, created), replayed: true };
    }
    // First writer wins; a concurrent twin with the same body is answered the winner's link.
    if (await store.save(SCOPE, key, hash, { status: 200, headers: {}, body: sealed }))
      return { link: created, replayed: false };
    const winner = await store.find(SCOPE, key);
    if (winner && winner.requestHash !== hash) throw conflict();
    return { link: (winner && openLink(winner.response.body, body.sessionId, key)) ?? created, replayed: true };
  }

  async function current(key: string, sessionId: string, fallback: CheckoutResponse): Promise<CheckoutResponse> {
    const stored = await store.find(SCOPE, key);
    return (stored && openLink(stored.response.body, sessionId, key)) ?? fallback;
  }

  function conflict(): AppError {
    return new AppError(
      422,
      'invalid_request',
      'Idempotency-Key was already used with a different request body; use a new key for a new request',
    );
  }

  function isExpired(link: CheckoutResponse): boolean {
    return link.expiresAt !== undefined && Date.parse(link.expiresAt) <= clock.now().getTime();
  }

  return { run };
}

/** A cached link as stored: `expiresAt` in clear, the link itself sealed (iv, ciphertext, tag; base64url). */
type SealedLink = { sealedLink: string; expiresAt?: string };

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The record's own key: from the quote's sessionId (a 32-byte random secret), bound to this Idempotency-Key. */
function linkKey(sessionId: string, idempotencyKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionId, `${SCOPE}:${idempotencyKey}`, 'checkout-idempotency-link:v1', 32));
}

function sealLink(link: CheckoutResponse, sessionId: string, idempotencyKey: string): SealedLink {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', linkKey(sessionId, idempotencyKey), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(link), 'utf8'), cipher.final()]);
  return {
    sealedLink: Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url'),
    ...(link.expiresAt ? { expiresAt: link.expiresAt } : {}),
  };
}

/** The cached link, or null when there is none this sessionId opens. */
function openLink(stored: unknown, sessionId: string, idempotencyKey: string): CheckoutResponse | null {
  const sealed = (stored as Partial<SealedLink> | null)?.sealedLink;
  if (typeof sealed !== 'string') return null;
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', linkKey(sessionId, idempotencyKey), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return JSON.parse(plain.toString('utf8')) as CheckoutResponse;
  } catch {
    return null;
  }
}
