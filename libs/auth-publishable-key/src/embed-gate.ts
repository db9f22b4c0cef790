import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  PREFLIGHT_MAX_AGE_SEC,
  sendBareForbidden,
  sendBareUnauthorized,
  sendPlain,
  setAllowHeaders,
  setCorsHeaders,
  varyOnOrigin,
  writePlain,
} from './cors';
import type { Mode } from '@expedition/contracts';
import { PUBLISHABLE_KEY_HEADER } from '@expedition/contracts/rules';
import type { Logger, RateLimiter, RateLimitResult } from '@expedition/platform';
import type { IntegrationTier, ResolveKey, ResolvedKey } from './key-resolver';
import { normalizeOrigin } from './origin';
import { parsePublishableKey, redactKey } from './publishable-key';
import { isSecretKeyFormat } from './secret-key';

export interface EmbedContext {
  keyId: string;
  operatorId: string;
  mode: Mode;
  /** The normalized Origin that matched; it is also the Access-Control-Allow-Origin value. */
  origin: string;
  /** The operator's widget tier cap (1..3): checkout links need 2, in-iframe payments 3. */
  integrationTier: IntegrationTier;
}

export interface EmbedGateOptions {
  resolveKey: ResolveKey;
  rateLimiter: RateLimiter;
  /** The widget iframe origin(s): accepted for every valid key (docs/decisions.md "Which origin is checked"). */
  firstPartyOrigins: readonly string[];
  /** The provider's dashboard (portal) origin(s): accepted for test keys only. */
  testDashboardOrigins: readonly string[];
  /** True only where `?pk=` is an accepted fallback (GET /api/embed/options). */
  allowQueryKey: (req: Request) => boolean;
  logger?: Pick<Logger, 'warn' | 'debug'>;
  /**
   * Called synchronously for every admitted request (after the rate limit), e.g. to record the key's `lastUsedAt`.
   * Must not throw or block: it is fire-and-forget, and a throw is caught and logged.
   */
  onAdmitted?: (key: ResolvedKey) => void;
}

/**
 * Where the gate leaves the context: a WeakMap keyed by the request. A new field on the request object itself cost
 * 1-3 µs per request (a shape change of a large object; tools/bench/embed-gate.micro.ts measures the gate).
 */
const embedContexts = new WeakMap<Request, EmbedContext>();

/** The context the gate attached. Throws when the gate did not run for this request (a wiring bug). */
export function getEmbedContext(req: Request): EmbedContext {
  const context = embedContexts.get(req);
  if (!context) throw new Error('getEmbedContext: the embed gate has not admitted this request');
  return context;
}

/**
 * The embed gate (spec §5, §7): publishable key (401) -> Origin allowlist (403) -> rate limit per key (429) -> route.
 * `Vary: Origin` is on every response; CORS headers only on what passes the origin check (429 and the route's
 * 200/400). OPTIONS requests are answered as preflights, so mounting order cannot put a preflight behind the key check.
 * A store failure while resolving the key goes to `next(err)`: an outage must not masquerade as a revoked key.
 */
export function createEmbedGate(options: EmbedGateOptions): RequestHandler {
  const steps = createGateSteps(options);

  return async function embedGate(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method === 'OPTIONS') return answerPreflight(req, res);
    varyOnOrigin(res);

    const presented = steps.checkPresentedKey(req, options.allowQueryKey(req) ? readQueryKey : undefined);
    if (presented.refused) return refuse(presented, res);
    let resolved: ResolvedKey | null;
    try {
      // A cached key comes back as a value: no await, so no extra turn of the microtask queue.
      const answer = options.resolveKey(presented.key);
      resolved = isPending(answer) ? await answer : answer;
    } catch (err) {
      return next(err);
    }
    const checked = steps.checkResolvedKey(req, presented.key, resolved);
    if (checked.refused) return refuse(checked, res);

    const { key, origin } = checked;
    // Vary: Origin is already set above; only the Access-Control-* headers remain.
    setAllowHeaders(res, origin);
    let limit: RateLimitResult;
    try {
      limit = await options.rateLimiter.consume(key.keyId);
    } catch (err) {
      limit = steps.failOpen(key.keyId, err);
    }
    if (!limit.allowed) {
      res.setHeader('Retry-After', String(limit.retryAfterSec));
      return sendPlain(res, 429, TOO_MANY_REQUESTS);
    }

    embedContexts.set(req, {
      keyId: key.keyId,
      operatorId: key.operatorId,
      mode: key.mode,
      origin,
      integrationTier: key.integrationTier,
    });
    steps.notifyAdmitted(key);
    next();
  };

  function refuse(refusal: Refusal, res: Response): void {
    if (refusal.log) options.logger?.debug(refusal.log.fields, refusal.log.msg);
    return refusal.refused === 401 ? sendBareUnauthorized(res) : sendBareForbidden(res);
  }
}

/** A key and Origin the gate would let on to the rate limit; `origin` is the normalized, matched one. */
export interface AdmissibleRequest {
  key: ResolvedKey;
  origin: string;
}

/**
 * The gate's steps for a caller that answers a request before Express does (embed-api's poll of a ready quote), over
 * the same options as createEmbedGate. The caller first asks `admissible`, which has no effect on anything the client
 * can see: no header, no rate limit, no log line. On null it hands the request to Express unchanged, and the gate
 * there answers it exactly as it answers any request. Otherwise `admit` runs the rest of the gate on the raw response.
 */
export interface EmbedGateSteps {
  /**
   * The key (from the header, else `queryKey()` when given) and the Origin checks of the gate: the key and matched
   * origin when both pass; null when the gate would refuse with 401/403 or when the key store fails.
   */
  admissible(req: IncomingMessage, queryKey: (() => unknown) | undefined): Promise<AdmissibleRequest | null>;
  /**
   * The gate's answer from step 3 on, for a request `admissible` accepted, on a response Express has not seen (so
   * nothing has set Vary yet): `Vary: Origin` and the CORS headers, then the rate limit (fail open). Over budget: answers the gate's 429 itself and returns false. Admitted: runs
   * `onAdmitted` and returns true; the caller answers.
   */
  admit(res: ServerResponse, admissible: AdmissibleRequest): Promise<boolean>;
}

export function createEmbedGateSteps(options: Omit<EmbedGateOptions, 'allowQueryKey'>): EmbedGateSteps {
  const steps = createGateSteps(options);
  return {
    async admissible(req, queryKey) {
      const presented = steps.checkPresentedKey(req, queryKey);
      if (presented.refused) return null;
      let resolved: ResolvedKey | null;
      try {
        const answer = options.resolveKey(presented.key);
        resolved = isPending(answer) ? await answer : answer;
      } catch {
        // The gate sends a store failure to the app's error handler: the caller hands the request to it.
        return null;
      }
      const checked = steps.checkResolvedKey(req, presented.key, resolved);
      return checked.refused ? null : checked;
    },
    async admit(res, { key, origin }) {
      // What setCorsHeaders writes: the response is one Express has not seen, so it has no Vary to merge with.
      res.setHeader('Vary', 'Origin');
      setAllowHeaders(res, origin);
      let limit: RateLimitResult;
      try {
        limit = await options.rateLimiter.consume(key.keyId);
      } catch (err) {
        limit = steps.failOpen(key.keyId, err);
      }
      if (!limit.allowed) {
        res.setHeader('Retry-After', String(limit.retryAfterSec));
        writePlain(res, 429, TOO_MANY_REQUESTS);
        return false;
      }
      steps.notifyAdmitted(key);
      return true;
    },
  };
}

const TOO_MANY_REQUESTS = 'Too Many Requests';

/** A 401 or 403 of the gate, and its debug line (none for a request without any key). */
interface Refusal {
  refused: 401 | 403;
  log?: { fields: Record<string, unknown>; msg: string };
}

/** What both forms of the gate share: one set of configured origins, one origin cache, one limiter, one hook. */
function createGateSteps(options: Omit<EmbedGateOptions, 'allowQueryKey'>) {
  const firstParty = new Set(normalizeConfigured(options.firstPartyOrigins, 'firstPartyOrigins'));
  const dashboard = new Set(normalizeConfigured(options.testDashboardOrigins, 'testDashboardOrigins'));
  const normalizeRequestOrigin = createOriginCache();

  function originAllowed(key: ResolvedKey, origin: string): boolean {
    if (firstParty.has(origin) || key.allowedOrigins.includes(origin)) return true;
    return key.mode === 'test' && dashboard.has(origin);
  }

  /**
   * Step 1 up to the key store, which the caller asks (`resolveKey`) between this and checkResolvedKey: the two are
   * synchronous so the gate waits for the store and nothing else.
   */
  function checkPresentedKey(
    req: IncomingMessage,
    queryKey: QueryKeyReader | undefined,
  ): Refusal | { refused?: undefined; key: string } {
    const presented = readPresentedKey(req, queryKey);
    if (presented === null) return { refused: 401 };
    const parsed = parsePublishableKey(presented);
    if (!parsed) {
      const reason = isSecretKeyFormat(presented) ? 'secret key presented' : 'malformed';
      return { refused: 401, log: { fields: { key: redactKey(presented), reason }, msg: 'embed gate: 401' } };
    }
    return { key: parsed.key };
  }

  /** The rest of step 1 (the store's answer for `presented`) and step 2 (Origin). */
  function checkResolvedKey(
    req: IncomingMessage,
    presented: string,
    key: ResolvedKey | null,
  ): Refusal | ({ refused?: undefined } & AdmissibleRequest) {
    if (!key) {
      const fields = { key: redactKey(presented), reason: 'unknown or not valid' };
      return { refused: 401, log: { fields, msg: 'embed gate: 401' } };
    }

    const rawOrigin = req.headers.origin;
    const origin = normalizeRequestOrigin(rawOrigin);
    if (!origin || !originAllowed(key, origin)) {
      const fields = { keyId: key.keyId, origin: rawOrigin ?? null };
      return { refused: 403, log: { fields, msg: 'embed gate: 403 origin not allowed' } };
    }
    return { key, origin };
  }

  return {
    checkPresentedKey,
    checkResolvedKey,
    failOpen: (keyId: string, err: unknown) => failOpen(options, keyId, err),
    notifyAdmitted: (key: ResolvedKey) => notifyAdmitted(options, key),
  };
}

/**
 * Preflight for the embed routes (spec §4): a normalizable Origin is reflected with the CORS headers and
 * `Access-Control-Max-Age: 86400`, no key required; a missing (or unusable, e.g. `null`) Origin gets a bare 403.
 */
export function createPreflightHandler(): RequestHandler {
  return function embedPreflight(req: Request, res: Response): void {
    answerPreflight(req, res);
  };
}

function answerPreflight(req: Request, res: Response): void {
  varyOnOrigin(res);
  const origin = normalizeOrigin(req.get('Origin'));
  if (!origin) return sendBareForbidden(res);
  setCorsHeaders(res, origin);
  res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SEC));
  res.status(204).end();
}

/** Origins kept per gate; past this many distinct ones the cache starts over (a flood of made-up origins). */
const ORIGIN_CACHE_SIZE = 1_000;

/**
 * normalizeOrigin with its answers remembered per raw header value: a widget sends the same few Origin values on
 * every request, and normalizing one parses a URL. Bounded, so made-up origins cost memory only up to the bound.
 */
function createOriginCache(): (raw: string | undefined) => string | null {
  const known = new Map<string, string | null>();
  return (raw) => {
    if (raw === undefined) return null;
    const cached = known.get(raw);
    if (cached !== undefined) return cached;
    const origin = normalizeOrigin(raw);
    if (known.size >= ORIGIN_CACHE_SIZE) known.clear();
    known.set(raw, origin);
    return origin;
  };
}

/**
 * Header first (trimmed); then `?pk`, only where the route passes `queryKey`. Blank counts as absent. Repeated `?pk`
 * is not a key.
 */
function readPresentedKey(req: IncomingMessage, queryKey: QueryKeyReader | undefined): string | null {
  const header = req.headers[PUBLISHABLE_KEY_HEADER_NAME];
  const trimmed = typeof header === 'string' ? header.trim() : '';
  if (trimmed) return trimmed;
  if (!queryKey) return null;
  const pk = queryKey(req);
  if (typeof pk !== 'string') return null;
  return pk.trim() || null;
}

/** A store round trip still under way (any thenable), as opposed to an answer from memory. */
function isPending<T>(answer: T | PromiseLike<T>): answer is PromiseLike<T> {
  return typeof (answer as { then?: unknown } | null)?.then === 'function';
}

/** Reads `?pk` of the request (the steps' callers pass a reader that ignores its argument). */
type QueryKeyReader = (req: IncomingMessage) => unknown;

/** `?pk` of an Express request; one function for every request rather than a closure per request. */
function readQueryKey(req: IncomingMessage): unknown {
  return (req as Request).query['pk'];
}

/** How Node names the header in `req.headers` (lower case); what `req.get(PUBLISHABLE_KEY_HEADER)` reads. */
const PUBLISHABLE_KEY_HEADER_NAME = PUBLISHABLE_KEY_HEADER.toLowerCase();

/**
 * What the gate does when the limiter fails (rejects or throws): it lets the request through (fail open, logged). The
 * limiter already degrades to memory when Redis fails; the caller has passed key and origin checks, and failing closed
 * would take every operator's widget down with the limiter. The gate awaits the limiter inside try/catch rather than
 * chaining a handler, so an admitted request allocates no closure for this.
 */
function failOpen(options: Pick<EmbedGateOptions, 'logger'>, keyId: string, err: unknown): RateLimitResult {
  options.logger?.warn({ keyId, err }, 'embed gate: rate limiter failed, request allowed');
  return { allowed: true, retryAfterSec: 1, remaining: 0 };
}

function notifyAdmitted(options: Pick<EmbedGateOptions, 'onAdmitted' | 'logger'>, key: ResolvedKey): void {
  try {
    options.onAdmitted?.(key);
  } catch (err) {
    options.logger?.warn({ keyId: key.keyId, err }, 'embed gate: onAdmitted failed (ignored)');
  }
}

function normalizeConfigured(origins: readonly string[], name: string): string[] {
  return origins.map((input) => {
    const origin = normalizeOrigin(input);
    if (!origin) throw new Error(`${name}: not an http(s) origin: ${JSON.stringify(input)}`);
    return origin;
  });
}
