import type { Mode } from '@expedition/contracts';
import type { Operator, PublishableKey, SecretKey } from '@expedition/db';
import type { OperatorStatusValue } from './inputs';

/** An operator as the platform team sees it. The webhook secret is never part of it: it is shown once, when set. */
export interface OperatorView {
  id: string;
  name: string;
  status: OperatorStatusValue;
  embeddingEnabled: boolean;
  commissionRateBps: number;
  webhookUrl: string | null;
  webhookSecretSet: boolean;
  /** During a webhook secret rotation overlap: until when the previous secret still signs; else null. */
  webhookSecretPreviousExpiresAt: Date | null;
  integrationTier: number;
  contactEmail: string | null;
  websiteUrl: string | null;
  /** Branding of the checkout-link pages (libs/operators branding.ts); null: the platform's look. */
  brandColor: string | null;
  logoUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * `active`: usable (subject to the operator's status and, for live keys, embedding); `expiring`: rotated, usable
 * until `expiresAt`; `expired`/`revoked`: refused by the embed gate.
 */
export type KeyState = 'active' | 'expiring' | 'expired' | 'revoked';

/** Publishable keys are public by design (spec §5.4), so the full key is part of the view. */
export interface PublishableKeyView {
  id: string;
  operatorId: string;
  key: string;
  mode: Mode;
  label: string | null;
  state: KeyState;
  createdAt: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

/** Only the display prefix of a secret key is ever readable after minting. */
export interface SecretKeyView {
  id: string;
  operatorId: string;
  mode: Mode;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** `now` decides whether a rotation overlap is still running (omitted: any stored expiry is shown). */
export function toOperatorView(row: Operator, now?: Date): OperatorView {
  const previousUntil = row.webhookSecretPrevious !== null ? row.webhookSecretPreviousExpiresAt : null;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    embeddingEnabled: row.embeddingEnabled,
    commissionRateBps: row.commissionRateBps,
    webhookUrl: row.webhookUrl,
    webhookSecretSet: row.webhookSecret !== null,
    webhookSecretPreviousExpiresAt: previousUntil && (!now || previousUntil > now) ? previousUntil : null,
    integrationTier: row.integrationTier,
    contactEmail: row.contactEmail,
    websiteUrl: row.websiteUrl,
    brandColor: row.brandColor,
    logoUrl: row.logoUrl,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function keyState(row: Pick<PublishableKey, 'revokedAt' | 'expiresAt'>, now: Date): KeyState {
  if (row.revokedAt !== null) return 'revoked';
  if (row.expiresAt === null) return 'active';
  return now.getTime() < row.expiresAt.getTime() ? 'expiring' : 'expired';
}

export function toKeyView(row: PublishableKey, now: Date): PublishableKeyView {
  return {
    id: row.id,
    operatorId: row.operatorId,
    key: row.key,
    mode: row.mode,
    label: row.label,
    state: keyState(row, now),
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
  };
}

export function toSecretKeyView(row: SecretKey): SecretKeyView {
  return {
    id: row.id,
    operatorId: row.operatorId,
    mode: row.mode,
    prefix: row.prefix,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}
