import { Router, type Request } from 'express';
import {
  AuditListQuerySchema,
  CreatePublishableKeyRequestSchema,
  CreateSecretKeyRequestSchema,
  DashboardQuerySchema,
  OriginQuerySchema,
  OriginRequestSchema,
  RotateKeyRequestSchema,
  UpdateBrandingRequestSchema,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WebhookEventListQuerySchema,
  type Mode,
  type OriginTestResponse,
} from '@expedition/contracts';
import { normalizeOrigin } from '@expedition/auth-publishable-key';
import {
  describeOriginProblem,
  isLoopbackOrigin,
  type OperatorView,
  type PublishableKeyView,
} from '@expedition/operators';
import { PortalError } from '../http/errors';
import { actorOf, getOperatorId } from '../http/principal';
import type { PortalRouteDeps } from '../http/route-deps';
import { buildIntegration } from './integration';
import { param, parse, toPortalKey, toPortalOperator, toPortalOrigin } from './shared';

const GRACE_SECONDS = { now: 0, '24h': 24 * 3600, '7d': 7 * 24 * 3600 } as const;

/**
 * `/operator/**` of the portal API: everything an operator's users see and do. Every handler scopes by the caller's
 * own operator (from the session), so another operator's key, origin or event is a 404 like an unknown id.
 */
export function operatorRouter(deps: PortalRouteDeps): Router {
  const { operators, guards } = deps;
  const router = Router();
  const member = guards.requireOperatorUser;
  const owner = guards.requireOwner;

  const operatorOf = (req: Request): Promise<OperatorView> => operators.getOperator(getOperatorId(req));

  router.get('/operator', member, async (req, res) => {
    res.json({ operator: toPortalOperator(await operatorOf(req)) });
  });

  // The checkout pages' brand colour and logo (libs/operators branding.ts checks them; nothing is written on a 400).
  router.put('/operator/branding', owner, async (req, res) => {
    const body = parse(UpdateBrandingRequestSchema, req.body);
    res.json({ operator: toPortalOperator(await operators.setBranding(getOperatorId(req), body, actorOf(req))) });
  });

  // ---- publishable keys -------------------------------------------------------------------------------------
  router.get('/operator/keys', member, async (req, res) => {
    const operator = await operatorOf(req);
    const keys = await operators.listKeys(operator.id);
    res.json({ keys: keys.map((k) => toPortalKey(k, operator)) });
  });

  router.post('/operator/keys', member, async (req, res) => {
    const body = parse(CreatePublishableKeyRequestSchema, req.body);
    const operator = await operatorOf(req);
    const key = await operators.mintPublishableKey(operator.id, body.mode, body.label, actorOf(req));
    res.status(201).json({ key: toPortalKey(key, operator) });
  });

  router.post('/operator/keys/:id/rotate', member, async (req, res) => {
    const operator = await operatorOf(req);
    const key = await operators.getKeyOfOperator(operator.id, param(req, 'id'));
    const body = parse(RotateKeyRequestSchema, req.body);
    const options =
      'grace' in body ? { graceSeconds: GRACE_SECONDS[body.grace] } : { expiresAt: new Date(body.expiresAt) };
    const rotated = await operators.rotateKey(key.id, options, actorOf(req));
    res.json({ newKey: toPortalKey(rotated.newKey, operator), oldKey: toPortalKey(rotated.oldKey, operator) });
  });

  router.post('/operator/keys/:id/revoke', member, async (req, res) => {
    const operator = await operatorOf(req);
    const key = await operators.getKeyOfOperator(operator.id, param(req, 'id'));
    res.json({ key: toPortalKey(await operators.revokeKey(key.id, actorOf(req)), operator) });
  });

  // ---- secret keys ------------------------------------------------------------------------------------------
  router.get('/operator/secret-keys', member, async (req, res) => {
    res.json({ secretKeys: (await operators.listSecretKeys(getOperatorId(req))).map(toSecretKey) });
  });

  router.post('/operator/secret-keys', owner, async (req, res) => {
    const body = parse(CreateSecretKeyRequestSchema, req.body);
    const minted = await operators.mintSecretKey(getOperatorId(req), body.mode, actorOf(req));
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ secretKey: minted.key, key: toSecretKey(minted.secretKey) });
  });

  router.post('/operator/secret-keys/:id/revoke', owner, async (req, res) => {
    res.json({ key: toSecretKey(await operators.revokeSecretKey(getOperatorId(req), param(req, 'id'), actorOf(req))) });
  });

  // ---- allowed origins --------------------------------------------------------------------------------------
  router.get('/operator/origins', member, async (req, res) => {
    res.json({ origins: (await operators.listAllowedOriginViews(getOperatorId(req))).map(toPortalOrigin) });
  });

  router.post('/operator/origins', member, async (req, res) => {
    const body = parse(OriginRequestSchema, req.body);
    const problem = describeOriginProblem(body.origin);
    if (problem) throw PortalError.badRequest(problem, [{ path: 'origin', message: problem }], 'origin_invalid');
    const operatorId = getOperatorId(req);
    const result = await operators.addAllowedOrigin(operatorId, body.origin, actorOf(req));
    const view = (await operators.listAllowedOriginViews(operatorId)).find((o) => o.origin === result.origin);
    if (!view) throw PortalError.conflict('The origin was removed meanwhile');
    res.status(result.added ? 201 : 200).json({ origin: toPortalOrigin(view), added: result.added });
  });

  router.delete('/operator/origins', member, async (req, res) => {
    const query = parse(OriginQuerySchema, req.query);
    const problem = describeOriginProblem(query.origin);
    if (problem) throw PortalError.badRequest(problem, [{ path: 'origin', message: problem }], 'origin_invalid');
    const result = await operators.removeAllowedOrigin(getOperatorId(req), query.origin, actorOf(req));
    if (!result.removed) throw PortalError.notFound(`${result.origin} is not in your allowed origins`);
    res.status(204).end();
  });

  router.post('/operator/origins/test', member, async (req, res) => {
    const body = parse(OriginRequestSchema, req.body);
    const operator = await operatorOf(req);
    const [keys, origins] = await Promise.all([
      operators.listKeys(operator.id),
      operators.listAllowedOrigins(operator.id),
    ]);
    res.json(testOrigin(body.origin, operator, keys, origins));
  });

  // ---- integration ------------------------------------------------------------------------------------------
  router.get('/operator/integration', member, async (req, res) => {
    const operator = await operatorOf(req);
    const keys = await operators.listKeys(operator.id);
    const usable = (mode: Mode) => keys.filter((k) => k.mode === mode && k.state === 'active').at(-1);
    const key =
      (operator.status === 'active' && operator.embeddingEnabled ? usable('live') : undefined) ??
      usable('test') ??
      null;
    res.json(
      buildIntegration({
        widgetUrl: deps.urls.widget,
        publishableKey: key?.key ?? null,
        mode: key?.mode ?? null,
        allowedTier: toTier(operator.integrationTier),
      }),
    );
  });

  // ---- webhook ----------------------------------------------------------------------------------------------
  router.get('/operator/webhook', member, async (req, res) => {
    const operator = await operatorOf(req);
    res.json({
      url: operator.webhookUrl,
      commissionRateBps: operator.commissionRateBps,
      secretSet: operator.webhookSecretSet,
      previousSecretExpiresAt: operator.webhookSecretPreviousExpiresAt?.toISOString() ?? null,
      maxAttempts: WEBHOOK_MAX_ATTEMPTS,
      // The dispatcher's default pauses between attempts, in seconds.
      retryScheduleSeconds: WEBHOOK_RETRY_DELAYS_MS.map((ms) => ms / 1000),
    });
  });

  router.post('/operator/webhook/secret/reveal', owner, async (req, res) => {
    const secrets = await operators.revealWebhookSecrets(getOperatorId(req), actorOf(req));
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      secrets: secrets.map((s) => ({
        secret: s.secret,
        current: s.current,
        expiresAt: s.expiresAt?.toISOString() ?? null,
      })),
    });
  });

  router.get('/operator/webhook-events', member, async (req, res) => {
    const query = parse(WebhookEventListQuerySchema, req.query);
    res.json(await operators.listWebhookEvents(getOperatorId(req), query, 'operator'));
  });

  router.post('/operator/webhook-events/test', member, async (req, res) => {
    res.status(201).json({ event: await operators.sendTestWebhookEvent(getOperatorId(req), actorOf(req)) });
  });

  router.get('/operator/webhook-events/:id', member, async (req, res) => {
    res.json(await operators.getWebhookEvent(getOperatorId(req), param(req, 'id'), 'operator'));
  });

  router.post('/operator/webhook-events/:id/resend', member, async (req, res) => {
    res.status(202).json({
      event: await operators.resendWebhookEvent(getOperatorId(req), param(req, 'id'), actorOf(req), 'operator'),
    });
  });

  // ---- dashboard and audit ----------------------------------------------------------------------------------
  router.get('/operator/dashboard', member, async (req, res) => {
    const query = parse(DashboardQuerySchema, req.query);
    res.json(await operators.dashboard(getOperatorId(req), { days: query.days }));
  });

  router.get('/operator/audit', member, async (req, res) => {
    const query = parse(AuditListQuerySchema, req.query);
    res.json(await operators.listAuditEntries({ ...query, operatorId: getOperatorId(req) }));
  });

  return router;
}

function toSecretKey(key: {
  id: string;
  mode: Mode;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}) {
  return {
    id: key.id,
    mode: key.mode,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

export function toTier(value: number): 1 | 2 | 3 {
  return value === 2 || value === 3 ? value : 1;
}

/**
 * "Would a page at this origin be accepted, and for which keys?" — the gate's rule (docs/contract.md, "Publishable
 * keys and the gate") applied to every key of the operator, plus our loopback rule (localhost only for test keys).
 */
export function testOrigin(
  input: string,
  operator: OperatorView,
  keys: PublishableKeyView[],
  origins: string[],
): OriginTestResponse {
  // "Page address or origin": a page's address tests the origin it is served from (the browser sends only that).
  const origin = originOfPage(input) ?? input;
  const normalized = normalizeOrigin(origin);
  const listed = normalized !== null && origins.includes(normalized);
  const results = keys.map((key) => {
    const reason = ((): OriginTestResponse['results'][number]['reason'] => {
      if (key.state === 'revoked') return 'key_revoked';
      if (key.state === 'expired') return 'key_expired';
      if (operator.status !== 'active') return 'operator_inactive';
      if (key.mode === 'live' && !operator.embeddingEnabled) return 'embedding_disabled';
      if (!listed) return 'not_listed';
      if (key.mode === 'live' && normalized !== null && isLoopbackOrigin(normalized)) return 'loopback_test_only';
      return 'accepted';
    })();
    return { keyId: key.id, key: key.key, mode: key.mode, accepted: reason === 'accepted', reason };
  });
  return { normalized, valid: normalized !== null, problem: describeOriginProblem(origin), listed, results };
}

/** The origin of an http(s) page address (`https://x.example/tours?a=1` → `https://x.example`); null for anything else. */
function originOfPage(input: string): string | null {
  try {
    const url = new URL(input.trim());
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}
