import { createHash } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  ACP_SUPPORTED_VERSIONS,
  AcpCancelSessionRequestSchema,
  AcpCompleteSessionRequestSchema,
  AcpCreateSessionRequestSchema,
  AcpUpdateSessionRequestSchema,
  DAY_MS,
  QUOTE_API_LIMITS,
  type Mode,
} from '@expedition/contracts';
import type { AgentKey } from '@expedition/db';
import { jsonBody, parseOrThrow, refuseUnstorableJson, type FailureLog } from '@expedition/http-kit';
import type { Clock, RateLimiter } from '@expedition/platform';
import { canonicalJson, verifyRequestSignature } from '@expedition/webhook-signature';
import type { IdempotencyStore, StoredResponse } from '../purchase/idempotency.repository';
import { AcpHttpError, toAcpHttpError } from './acp-errors';
import type { OrderLinks } from './acp-order';
import type { AcpService } from './acp.service';
import type { AgentKeyAuth, SignedRequest } from './agent-keys';

/** Protocol §6.6: keys are kept at least 24 hours. */
const RETAIN_MS = DAY_MS;
/** A first request still "in flight" after this long died with its process: its key is taken over. */
const STALE_IN_FLIGHT_MS = 2 * 60 * 1000;

interface AcpRouterDeps {
  service: AcpService;
  auth: AgentKeyAuth;
  idempotency: IdempotencyStore;
  /** Counts per agent key (`acp:<keyId>`). */
  rateLimiter: RateLimiter;
  rateLimitPerMinute: number;
  clock: Clock;
  /** This deployment's payment mode (QUOTE_API_MODE): only agent keys of this mode are served. */
  mode: Mode;
  /** quote-api's failure log (shared with its other error handlers: one outage throttle). */
  logFailure: FailureLog;
  /** The serialized OpenAPI document of /acp/v1. */
  openapi: string;
  /** A kept answer's order is stored without the policy's token and replayed with it (acp-order.ts). */
  orderLinks: Pick<OrderLinks, 'storedBody' | 'handedOutBody'>;
}

type Answer = StoredResponse;

/**
 * /acp/v1: the Agentic Commerce Protocol's checkout sessions. In order: `Request-Id` echo, `API-Version`, the agent
 * key (401) and its rate limit (429), the JSON body; then each POST runs under its `Idempotency-Key`, scoped to the
 * key and the endpoint path. Every error is the protocol's flat object.
 */
export function acpRouter(deps: AcpRouterDeps): Router {
  const router = Router();

  router.get('/openapi.json', (_req, res) => {
    res
      .type('application/json')
      .setHeader('Cache-Control', 'public, max-age=300')
      .setHeader('Access-Control-Allow-Origin', '*')
      .send(deps.openapi);
  });

  router.use((req, res, next) => {
    const requestId = req.get('request-id');
    if (requestId !== undefined && /^[\x21-\x7e]{1,200}$/.test(requestId)) res.setHeader('Request-Id', requestId);
    res.setHeader('Cache-Control', 'no-store');
    const version = req.get('api-version');
    if (!version) return next(versionError('missing_api_version', 'The API-Version header is required'));
    if (!ACP_SUPPORTED_VERSIONS.includes(version))
      return next(versionError('unsupported_api_version', `API-Version ${version.slice(0, 40)} is not supported`));
    next();
  });

  router.use(async (req, res, next) => {
    try {
      const key = await deps.auth.authenticate(req.get('authorization'));
      if (!key) {
        res.setHeader('WWW-Authenticate', 'Bearer');
        return next(
          new AcpHttpError(401, {
            type: 'invalid_request',
            code: 'unauthorized',
            message: 'A valid agent key is required: Authorization: Bearer acpk_…',
          }),
        );
      }
      // The deployment's mode wins: a live key never buys test cover here, a test key never moves real money.
      if (key.mode !== deps.mode) {
        return next(
          new AcpHttpError(403, {
            type: 'invalid_request',
            code: 'key_mode_mismatch',
            message: `This is a ${key.mode} agent key; this deployment serves ${deps.mode} mode only. Use a ${deps.mode} key (acpk_${deps.mode}_…) against it.`,
          }),
        );
      }
      const verdict = await deps.rateLimiter.consume(`acp:${key.id}`);
      res.setHeader('RateLimit-Limit', String(deps.rateLimitPerMinute));
      res.setHeader('RateLimit-Remaining', String(Math.max(0, verdict.remaining)));
      if (!verdict.allowed) {
        return next(
          new AcpHttpError(
            429,
            {
              type: 'invalid_request',
              code: 'rate_limited',
              message: `Too many requests for this key; retry in ${verdict.retryAfterSec} s`,
            },
            { 'Retry-After': String(verdict.retryAfterSec) },
          ),
        );
      }
      res.locals['agentKey'] = key;
      next();
    } catch (err) {
      next(err);
    }
  });

  router.use(jsonBody({ limit: QUOTE_API_LIMITS.maxJsonBodyBytes }));
  router.use(refuseUnstorableJson());

  // A platform whose signing key is registered signs every request (libs/webhook-signature acp-request-signature.ts); checked before anything
  // is read or written, so a refused request leaves no trace, not even its Idempotency-Key.
  router.use((req, res, next) => {
    const key = agentKey(res);
    if (!key.signingPublicKey || !key.signingAlgorithm) return next();
    const verdict = verifyRequestSignature(
      { pem: key.signingPublicKey, algorithm: key.signingAlgorithm },
      {
        signature: req.get('signature'),
        timestamp: req.get('timestamp'),
        method: req.method,
        path: req.originalUrl,
        body: req.body,
        now: deps.clock.now(),
      },
    );
    if (!verdict.ok) return next(signatureError(verdict.message));
    const signed: SignedRequest = { digest: verdict.digest, expiresAt: verdict.expiresAt };
    res.locals['signedRequest'] = signed;
    next();
  });

  router.get('/checkout_sessions/:id', async (req, res) => {
    send(res, { status: 200, headers: {}, body: await deps.service.get(agentKey(res), String(req.params['id'])) });
  });

  post('/checkout_sessions', AcpCreateSessionRequestSchema, async (key, body, _id, req) => ({
    status: 201,
    headers: {},
    body: await deps.service.create(key, body, { acceptLanguage: req.get('accept-language') }),
  }));
  post('/checkout_sessions/:id', AcpUpdateSessionRequestSchema, async (key, body, id) => ({
    status: 200,
    headers: {},
    body: await deps.service.update(key, id, body),
  }));
  post('/checkout_sessions/:id/cancel', AcpCancelSessionRequestSchema, async (key, _body, id) => ({
    status: 200,
    headers: {},
    body: await deps.service.cancel(key, id),
  }));
  post('/checkout_sessions/:id/complete', AcpCompleteSessionRequestSchema, async (key, body, id): Promise<Answer> => {
    const result = await deps.service.complete(key, id, body);
    switch (result.kind) {
      case 'session':
        return { status: 200, headers: {}, body: result.session };
      case 'busy':
        return {
          status: 409,
          headers: { 'Retry-After': String(result.retryAfterSec) },
          body: {
            type: 'invalid_request',
            code: 'payment_in_progress',
            message:
              'A payment for this trip is in progress; retry after Retry-After seconds (nothing was charged by this request)',
          },
        };
      case 'unavailable':
        return {
          status: 503,
          headers: { 'Retry-After': '5' },
          body: {
            type: 'service_unavailable',
            code: 'processor_unavailable',
            message: 'The payment processor is unavailable; nothing was charged; retry shortly',
          },
        };
    }
  });

  router.use((req, _res, next) =>
    next(
      new AcpHttpError(404, {
        type: 'invalid_request',
        code: 'not_found',
        message: `No route for ${req.method} ${req.path}`,
      }),
    ),
  );
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const acp = toAcpHttpError(err);
    if (acp.status >= 500) deps.logFailure(err, { reqId: req.id }, 'acp request failed');
    if (res.headersSent) return void res.end();
    send(res, { status: acp.status, headers: acp.headers, body: acp.body });
  });
  return router;

  function post<S extends z.ZodType>(
    path: string,
    schema: S,
    handle: (key: AgentKey, body: z.infer<S>, id: string, req: Request) => Promise<Answer>,
  ) {
    router.post(path, async (req, res) => {
      const key = agentKey(res);
      const idempotencyKey = req.get('idempotency-key');
      if (!idempotencyKey)
        throw AcpHttpError.invalid(
          'idempotency_key_required',
          'Idempotency-Key header is required on all POST requests',
        );
      if (idempotencyKey.length > 255)
        throw AcpHttpError.invalid('invalid', 'Idempotency-Key must be at most 255 characters');
      res.setHeader('Idempotency-Key', idempotencyKey);
      const raw: unknown = req.body ?? {};
      // Validated before the key is taken: a malformed request writes nothing at all.
      const body = parseOrThrow(schema, raw);
      const id = String(req.params['id'] ?? '');
      // Idempotency-Key is not in the signed bytes: a signed POST is served under the key it first came with only.
      const signed = res.locals['signedRequest'] as SignedRequest | undefined;
      if (signed && !(await deps.auth.useSignedRequest(key.id, signed, idempotencyKey))) throw signatureError(REPLAYED);
      const scope = `acp:${key.id}:POST ${req.path}`;
      const begun = await deps.idempotency.begin(scope, idempotencyKey, requestHash(raw), {
        retainMs: RETAIN_MS,
        staleInFlightMs: STALE_IN_FLIGHT_MS,
      });
      if (begun.kind === 'conflict') {
        throw new AcpHttpError(422, {
          type: 'invalid_request',
          code: 'idempotency_conflict',
          message: 'Idempotency-Key has already been used with a different request body',
        });
      }
      if (begun.kind === 'in_flight') {
        throw new AcpHttpError(
          409,
          {
            type: 'invalid_request',
            code: 'idempotency_in_flight',
            message: 'A request with this Idempotency-Key is currently being processed',
          },
          { 'Retry-After': '1' },
        );
      }
      if (begun.kind === 'replay') {
        const { body: kept, headers } = begun.response;
        return send(res, {
          ...begun.response,
          headers: { ...headers, 'Idempotent-Replayed': 'true' },
          body: deps.orderLinks.handedOutBody(kept),
        });
      }
      let answer: Answer;
      try {
        answer = await handle(key, body, id, req);
      } catch (err) {
        const acp = toAcpHttpError(err);
        if (acp.status >= 500) {
          await deps.idempotency.release(scope, idempotencyKey);
          throw err;
        }
        answer = { status: acp.status, headers: acp.headers, body: acp.body };
      }
      // 5xx is never kept (§6.5); a 409 "payment in progress" is a moment, not an answer: both run afresh on retry.
      if (answer.status >= 500 || answer.status === 409) await deps.idempotency.release(scope, idempotencyKey);
      else
        await deps.idempotency.finish(scope, idempotencyKey, {
          ...answer,
          body: deps.orderLinks.storedBody(answer.body),
        });
      send(res, answer);
    });
  }
}

function agentKey(res: Response): AgentKey {
  return res.locals['agentKey'] as AgentKey;
}

function send(res: Response, answer: Answer): void {
  res.status(answer.status).set(answer.headers).json(answer.body);
}

const REPLAYED =
  'This signed request was already sent with another Idempotency-Key: sign each request anew (a retry keeps its Idempotency-Key)';

function signatureError(message: string): AcpHttpError {
  return new AcpHttpError(401, { type: 'invalid_request', code: 'invalid_signature', message });
}

function versionError(code: string, message: string): AcpHttpError {
  return new AcpHttpError(400, {
    type: 'invalid_request',
    code,
    message,
    supported_versions: [...ACP_SUPPORTED_VERSIONS],
  });
}

/** §6.2: semantic JSON equality: key order does not matter, array order and null-vs-absent do. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
