import { Router } from 'express';
import {
  AdminAuditQuerySchema,
  AdminOperatorPatchSchema,
  AdminOperatorSearchQuerySchema,
  AdminRotateSecretRequestSchema,
  AdminWebhookUrlRequestSchema,
  WebhookEventListQuerySchema,
} from '@expedition/contracts';
import type { AuditActor, OperatorView } from '@expedition/operators';
import { PortalError } from '../http/errors';
import type { PortalRouteDeps } from '../http/route-deps';
import { actorOf } from '../http/principal';
import { param, parse, toAdminOperator, toPortalKey, toPortalOrigin } from '../operator/shared';

/**
 * `/admin/**`: the provider's own staff (provider_admin). Onboarding of an operator: approve live embedding, the
 * allowed tier, webhook URL and signing secret (rotation with overlap), commission rate, suspension; any operator's
 * delivery log with resend; the audit log. Every change goes through the operators service, which writes the audit
 * entry in the same transaction.
 */
export function adminRouter(deps: PortalRouteDeps): Router {
  const { operators, prisma } = deps;
  const router = Router();
  router.use('/admin', deps.guards.requireProviderAdmin);

  router.get('/admin/operators', async (req, res) => {
    const query = parse(AdminOperatorSearchQuerySchema, req.query);
    const found = await operators.searchOperators({ q: query.q, status: query.status });
    res.json({ operators: found.operators.map(toAdminOperator), truncated: found.truncated });
  });

  router.get('/admin/operators/:id', async (req, res) => {
    const operator = await operators.getOperator(operatorParam(req));
    const [keys, secretKeys, origins, users, lookAlikes] = await Promise.all([
      operators.listKeys(operator.id),
      operators.listSecretKeys(operator.id),
      operators.listAllowedOriginViews(operator.id),
      prisma.operatorUser.findMany({
        where: { operatorId: operator.id },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
      operators.findLookAlikes(operator.id),
    ]);
    res.json({
      operator: toAdminOperator(operator),
      keys: keys.map((k) => toPortalKey(k, operator)),
      secretKeys: secretKeys.map((k) => ({
        id: k.id,
        mode: k.mode,
        prefix: k.prefix,
        createdAt: k.createdAt.toISOString(),
        revokedAt: k.revokedAt?.toISOString() ?? null,
        lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      })),
      origins: origins.map(toPortalOrigin),
      // Other operators whose name reads like this one's: shown beside "Enable live embedding" (docs/portal.md).
      lookAlikes,
      users: users.map((u) => ({
        id: u.id,
        email: u.email,
        name: u.name,
        role: u.role === 'owner' ? 'owner' : 'member',
        emailVerified: u.emailVerifiedAt !== null,
        disabled: u.disabledAt !== null,
        createdAt: u.createdAt.toISOString(),
        lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
      })),
    });
  });

  router.patch('/admin/operators/:id', async (req, res) => {
    const patch = parse(AdminOperatorPatchSchema, req.body);
    const id = operatorParam(req);
    const actor = actorOf(req);
    await operators.getOperator(id);
    // One audit entry per field changed, each with its before → after.
    let operator: OperatorView | null = null;
    if (patch.status !== undefined) operator = await operators.setStatus(id, patch.status, actor);
    if (patch.embeddingEnabled !== undefined)
      operator = await operators.setEmbeddingEnabled(id, patch.embeddingEnabled, actor);
    if (patch.integrationTier !== undefined)
      operator = await operators.setIntegrationTier(id, patch.integrationTier, actor);
    if (patch.commissionRateBps !== undefined)
      operator = await operators.setCommissionRate(id, patch.commissionRateBps, actor);
    const body = { operator: toAdminOperator(operator ?? (await operators.getOperator(id))) };
    // Turning live embedding on names the look-alikes once more, in the answer the provider's action gets.
    if (patch.embeddingEnabled === true) Object.assign(body, { lookAlikes: await operators.findLookAlikes(id) });
    res.json(body);
  });

  router.put('/admin/operators/:id/webhook', async (req, res) => {
    const body = parse(AdminWebhookUrlRequestSchema, req.body);
    const operator = await operators.setWebhookUrl(operatorParam(req), body.url, actorOf(req));
    res.json({ operator: toAdminOperator(operator) });
  });

  router.post('/admin/operators/:id/webhook/secret', async (req, res) => {
    const body = parse(AdminRotateSecretRequestSchema, req.body);
    const rotated = await operators.rotateWebhookSecret(
      operatorParam(req),
      { overlapHours: body.overlapHours },
      actorOf(req),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({
      secret: rotated.secret,
      previousSecretExpiresAt: rotated.previousSecretExpiresAt?.toISOString() ?? null,
      operator: toAdminOperator(rotated.operator),
    });
  });

  router.get('/admin/operators/:id/webhook-events', async (req, res) => {
    const query = parse(WebhookEventListQuerySchema, req.query);
    res.json(await operators.listWebhookEvents(operatorParam(req), query, 'provider'));
  });

  router.get('/admin/operators/:id/webhook-events/:eventId', async (req, res) => {
    res.json(await operators.getWebhookEvent(operatorParam(req), param(req, 'eventId'), 'provider'));
  });

  router.post('/admin/operators/:id/webhook-events/:eventId/resend', async (req, res) => {
    const actor: AuditActor = actorOf(req);
    res.status(202).json({
      event: await operators.resendWebhookEvent(operatorParam(req), param(req, 'eventId'), actor, 'provider'),
    });
  });

  router.get('/admin/audit', async (req, res) => {
    const query = parse(AdminAuditQuerySchema, req.query);
    res.json(await operators.listAuditEntries(query));
  });

  return router;
}

/** A malformed id is the same 404 as an unknown one. */
function operatorParam(req: Parameters<typeof param>[0]): string {
  const id = param(req, 'id');
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw PortalError.notFound('operator not found');
  return id;
}
