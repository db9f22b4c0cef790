import type { Request } from 'express';
import type { z } from 'zod';
import type { PortalAllowedOrigin, PortalPublishableKey } from '@expedition/contracts';
import type { AllowedOriginView, OperatorView, PublishableKeyView } from '@expedition/operators';
import { PortalError } from '../http/errors';

/**
 * Helpers shared by the operator and admin routers: zod parsing into the portal's 400, and the views the portal API
 * shows (see libs/contracts/src/portal/operator.schema.ts).
 */

/** Parses a body or query with a contract schema; a failure is 400 `invalid_request` with per-field details. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
  throw PortalError.badRequest(`Invalid request: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}

/** Path parameter as a string (express 5 types them loosely). */
export function param(req: Request, name: string): string {
  const value = (req.params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/** Whether the embed gate accepts keys of this mode for this operator, and why not (docs/contract.md, the gate). */
export function keyRefusal(
  key: Pick<PublishableKeyView, 'state' | 'mode'>,
  operator: Pick<OperatorView, 'status' | 'embeddingEnabled'>,
): PortalPublishableKey['refusal'] {
  if (key.state === 'revoked') return 'revoked';
  if (key.state === 'expired') return 'expired';
  if (operator.status !== 'active') return 'operator_inactive';
  if (key.mode === 'live' && !operator.embeddingEnabled) return 'embedding_disabled';
  return null;
}

export function toPortalKey(
  key: PublishableKeyView,
  operator: Pick<OperatorView, 'status' | 'embeddingEnabled'>,
): PortalPublishableKey {
  const refusal = keyRefusal(key, operator);
  return {
    id: key.id,
    key: key.key,
    mode: key.mode,
    label: key.label,
    state: key.state,
    accepted: refusal === null,
    refusal,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

export function toPortalOrigin(origin: AllowedOriginView): PortalAllowedOrigin {
  return {
    origin: origin.origin,
    loopback: origin.loopback,
    appliesTo: origin.appliesTo,
    createdAt: origin.createdAt.toISOString(),
  };
}

export function toPortalOperator(op: OperatorView) {
  return {
    id: op.id,
    name: op.name,
    status: op.status,
    embeddingEnabled: op.embeddingEnabled,
    integrationTier: op.integrationTier,
    commissionRateBps: op.commissionRateBps,
    webhookUrl: op.webhookUrl,
    webhookSecretSet: op.webhookSecretSet,
    liveApproved: op.status === 'active' && op.embeddingEnabled,
    contactEmail: op.contactEmail,
    websiteUrl: op.websiteUrl,
    brandColor: op.brandColor,
    logoUrl: op.logoUrl,
    createdAt: op.createdAt.toISOString(),
  };
}

export function toAdminOperator(op: OperatorView) {
  return {
    ...toPortalOperator(op),
    updatedAt: op.updatedAt.toISOString(),
    previousSecretExpiresAt: op.webhookSecretPreviousExpiresAt?.toISOString() ?? null,
  };
}
