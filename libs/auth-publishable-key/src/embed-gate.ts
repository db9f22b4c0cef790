import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  PREFLIGHT_MAX_AGE_SEC,
  sendBareForbidden,
  sendBareUnauthorized,
  sendPlain,
  setCorsHeaders,
  varyOnOrigin,
} from './cors';
import type { Mode } from '@expedition/contracts';
import type { Logger, RateLimiter } from '@expedition/platform';
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
  /** The widget iframe origin(s): accepted for every valid key (docs/decisions.md, "Which origin is checked"). */
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

/** Where the gate leaves the context: a symbol-keyed field of the request (cheaper per request than a WeakMap entry). */
const EMBED_CONTEXT: unique symbol = Symbol('embedContext');
type AdmittedRequest = Request & { [EMBED_CONTEXT]?: EmbedContext };

/** The context the gate attached. Throws when the gate did not run for this request (a wiring bug). */
export function getEmbedContext(req: Request): EmbedContext {
  const context = (req as AdmittedRequest)[EMBED_CONTEXT];
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
  const firstParty = new Set(normalizeConfigured(options.firstPartyOrigins, 'firstPartyOrigins'));
  const dashboard = new Set(normalizeConfigured(options.testDashboardOrigins, 'testDashboardOrigins'));
  const debug = (fields: Record<string, unknown>, msg: string) => options.logger?.debug(fields, msg);
  const normalizeRequestOrigin = createOriginCache();

  function originAllowed(key: ResolvedKey, origin: string): boolean {
    if (firstParty.has(origin) || key.allowedOrigins.includes(origin)) return true;
    return key.mode === 'test' && dashboard.has(origin);
  }

  return async function embedGate(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method === 'OPTIONS') return answerPreflight(req, res);
    varyOnOrigin(res);

    const presented = readPresentedKey(req, options.allowQueryKey(req));
    if (presented === null) return sendBareUnauthorized(res);
    const parsed = parsePublishableKey(presented);
    if (!parsed) {
      const reason = isSecretKeyFormat(presented) ? 'secret key presented' : 'malformed';
      debug({ key: redactKey(presented), reason }, 'embed gate: 401');
      return sendBareUnauthorized(res);
    }

    let key: ResolvedKey | null;
    try {
      key = await options.resolveKey(parsed.key);
    } catch (err) {
      return next(err);
    }
    if (!key) {
      debug({ key: redactKey(parsed.key), reason: 'unknown or not valid' }, 'embed gate: 401');
      return sendBareUnauthorized(res);
    }

    const origin = normalizeRequestOrigin(req.get('Origin'));
    if (!origin || !originAllowed(key, origin)) {
      debug({ keyId: key.keyId, origin: req.get('Origin') ?? null }, 'embed gate: 403 origin not allowed');
      return sendBareForbidden(res);
    }

    setCorsHeaders(res, origin);
    const limit = await consumeFailOpen(options, key.keyId);
    if (!limit.allowed) {
      res.setHeader('Retry-After', String(limit.retryAfterSec));
      return sendPlain(res, 429, 'Too Many Requests');
    }

    (req as AdmittedRequest)[EMBED_CONTEXT] = {
      keyId: key.keyId,
      operatorId: key.operatorId,
      mode: key.mode,
      origin,
      integrationTier: key.integrationTier,
    };
    notifyAdmitted(options, key);
    next();
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

/** Header first (trimmed); the query only where allowed. Blank counts as absent. Repeated `?pk` is not a key. */
function readPresentedKey(req: Request, allowQuery: boolean): string | null {
  const header = req.get('X-SVC-Publishable-Key')?.trim();
  if (header) return header;
  if (!allowQuery) return null;
  const pk: unknown = req.query['pk'];
  if (typeof pk !== 'string') return null;
  return pk.trim() || null;
}

/**
 * The limiter already degrades to memory when Redis fails; if a limiter still throws, the request is let through
 * (fail open, logged): the caller has passed key and origin checks, and failing closed would take every operator's
 * widget down with the limiter.
 */
async function consumeFailOpen(options: EmbedGateOptions, keyId: string) {
  try {
    return await options.rateLimiter.consume(keyId);
  } catch (err) {
    options.logger?.warn({ keyId, err }, 'embed gate: rate limiter failed, request allowed');
    return { allowed: true, retryAfterSec: 1, remaining: 0 };
  }
}

function notifyAdmitted(options: EmbedGateOptions, key: ResolvedKey): void {
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
