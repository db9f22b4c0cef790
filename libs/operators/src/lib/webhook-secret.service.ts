import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { type AuditActor, writeAudit } from './audit';
import { optionalWebhookSecret, requireWebhookUrl } from './inputs';
import { conflict, invalidInput } from './operator-error';
import { type SecretBox, SecretBoxError, isSealed } from './secret-box';
import { type KeyServiceDeps, serviceContext } from './service-context';
import { type OperatorView, toOperatorView } from './views';

export interface WebhookSecretServiceDeps extends KeyServiceDeps {
  /** Seals webhook secrets before they are stored (keyring from WEBHOOK_SECRET_KEYS, see webhook-secret-keys.ts). */
  secretBox: SecretBox;
  /**
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS: webhook URLs may name loopback and private hosts (development, the demo receiver
   * on localhost). Default false: production rules, public hosts only (inputs.ts, requireWebhookUrl).
   */
  allowPrivateWebhookUrls?: boolean;
}

export interface WebhookSettings {
  url: string;
  /** When omitted a `whsec_<64 hex>` secret is generated. */
  secret?: string;
}

export interface WebhookUpdate {
  operator: OperatorView;
  /** Shown once: it is not part of OperatorView and cannot be read back through this service. */
  webhookSecret: string;
  secretGenerated: boolean;
}

export interface RotatedSecret {
  operator: OperatorView;
  /** The new `whsec_…` secret, in plain once. */
  secret: string;
  previousSecretExpiresAt: Date | null;
}

export interface RevealedSecret {
  secret: string;
  current: boolean;
  expiresAt: Date | null;
}

/** What `rewrapWebhookSecrets` did; `failed` lists values the keyring cannot open (no secret or key material). */
export interface RewrapReport {
  keyId: string;
  /** Operators with a webhook secret. */
  total: number;
  /** Sealed under an older key, now under `keyId`. */
  rewrapped: number;
  /** Stored in plain before sealing existed, now sealed. */
  sealedLegacy: number;
  alreadyCurrent: number;
  /** Changed by someone else while we worked (a new secret is sealed under the sealer's key); run again to check. */
  changedMeanwhile: number;
  failed: { operatorId: string; reason: string }[];
}

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;
/** The longest a rotated webhook secret keeps signing next to the new one. */
export const MAX_SECRET_OVERLAP_HOURS = 168;

/**
 * An operator's webhook: its URL and signing secrets (current, and the previous one during a rotation overlap), sealed
 * at rest by the secret box (README, "Webhook secrets at rest"). URL and secret live together: setting both replaces
 * the secret outright, removing the URL removes the secrets too.
 */
export function createWebhookSecretService(deps: WebhookSecretServiceDeps) {
  const { prisma, clock, actorOf, requireOperatorRow } = serviceContext(deps);
  const randomBytes = deps.randomBytes ?? cryptoRandomBytes;
  const box = deps.secretBox;
  const webhookTargets = { allowPrivateNetworks: deps.allowPrivateWebhookUrls ?? false };

  function generateWebhookSecret(): string {
    const bytes = randomBytes(WEBHOOK_SECRET_BYTES);
    if (bytes.length !== WEBHOOK_SECRET_BYTES) throw new Error('randomBytes returned the wrong number of bytes');
    return WEBHOOK_SECRET_PREFIX + Buffer.from(bytes).toString('hex');
  }

  /** URL and a new secret at once (the CLI's set-webhook): replaces any secret outright, without overlap. */
  async function setWebhook(operatorId: string, settings: WebhookSettings, actor?: AuditActor): Promise<WebhookUpdate> {
    if (typeof settings !== 'object' || settings === null) throw invalidInput('webhook settings are required');
    const url = requireWebhookUrl(settings.url, webhookTargets);
    const given = optionalWebhookSecret(settings.secret);
    const webhookSecret = given ?? generateWebhookSecret();
    const row = await requireOperatorRow(operatorId);
    const id = row.id;
    // Sealed for this operator only: the plain secret leaves this function once, in the return value.
    const sealed = box.seal(webhookSecret, id);
    const now = clock.now();
    const operator = await prisma.$transaction(async (tx) => {
      const updated = await tx.operator.update({
        where: { id },
        data: {
          webhookUrl: url,
          webhookSecret: sealed,
          webhookSecretPrevious: null,
          webhookSecretPreviousExpiresAt: null,
        },
      });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: id,
          action: 'operator.webhook_url_changed',
          targetType: 'operator',
          targetId: id,
          before: { webhookUrl: row.webhookUrl, secretSet: row.webhookSecret !== null },
          after: { webhookUrl: url, secretSet: true, secretReplaced: true },
        },
        now,
      );
      return toOperatorView(updated, now);
    });
    return { operator, webhookSecret, secretGenerated: given === null };
  }

  /** The URL only (the portal admin); the secret is left alone. `null` removes the webhook: URL and secrets. */
  async function setWebhookUrl(operatorId: string, url: string | null, actor?: AuditActor): Promise<OperatorView> {
    const next = url === null ? null : requireWebhookUrl(url, webhookTargets);
    const row = await requireOperatorRow(operatorId);
    const now = clock.now();
    const data =
      next === null
        ? { webhookUrl: null, webhookSecret: null, webhookSecretPrevious: null, webhookSecretPreviousExpiresAt: null }
        : { webhookUrl: next };
    return prisma.$transaction(async (tx) => {
      const updated = await tx.operator.update({ where: { id: row.id }, data });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: row.id,
          action: 'operator.webhook_url_changed',
          targetType: 'operator',
          targetId: row.id,
          before: { webhookUrl: row.webhookUrl, secretSet: row.webhookSecret !== null },
          after: { webhookUrl: updated.webhookUrl, secretSet: updated.webhookSecret !== null },
        },
        now,
      );
      return toOperatorView(updated, now);
    });
  }

  async function clearWebhook(operatorId: string, actor?: AuditActor): Promise<OperatorView> {
    return setWebhookUrl(operatorId, null, actor);
  }

  /**
   * Generates a new signing secret. With `overlapHours` > 0 the current secret becomes the previous one and keeps
   * signing (a second `v1=`) until now + overlap; 0 drops it at once. Both are sealed for this operator.
   */
  async function rotateWebhookSecret(
    operatorId: string,
    options: { overlapHours: number },
    actor?: AuditActor,
  ): Promise<RotatedSecret> {
    const overlapHours = options?.overlapHours;
    if (
      typeof overlapHours !== 'number' ||
      !Number.isInteger(overlapHours) ||
      overlapHours < 0 ||
      overlapHours > MAX_SECRET_OVERLAP_HOURS
    ) {
      throw invalidInput(`overlapHours must be an integer from 0 to ${MAX_SECRET_OVERLAP_HOURS}`);
    }
    const row = await requireOperatorRow(operatorId);
    const now = clock.now();
    const secret = generateWebhookSecret();
    const sealed = box.seal(secret, row.id);
    const keepPrevious = overlapHours > 0 && row.webhookSecret !== null;
    const previousSecretExpiresAt = keepPrevious ? new Date(now.getTime() + overlapHours * 3_600_000) : null;
    const operator = await prisma.$transaction(async (tx) => {
      // Conditional on the secret we read: two concurrent rotations cannot both keep "the previous" secret.
      const { count } = await tx.operator.updateMany({
        where: { id: row.id, webhookSecret: row.webhookSecret },
        data: {
          webhookSecret: sealed,
          webhookSecretPrevious: keepPrevious ? row.webhookSecret : null,
          webhookSecretPreviousExpiresAt: previousSecretExpiresAt,
        },
      });
      if (count !== 1) throw conflict('the webhook secret was changed meanwhile; reload and try again');
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: row.id,
          action: 'operator.webhook_secret_rotated',
          targetType: 'operator',
          targetId: row.id,
          before: { secretSet: row.webhookSecret !== null },
          after: {
            secretSet: true,
            overlapHours,
            previousSecretExpiresAt: previousSecretExpiresAt?.toISOString() ?? null,
          },
        },
        now,
      );
      return toOperatorView(await tx.operator.findUniqueOrThrow({ where: { id: row.id } }), now);
    });
    return { operator, secret, previousSecretExpiresAt };
  }

  /** The active secrets in plain (current, then the previous one while its overlap lasts). Audited: who looked, when. */
  async function revealWebhookSecrets(operatorId: string, actor?: AuditActor): Promise<RevealedSecret[]> {
    const row = await requireOperatorRow(operatorId);
    const now = clock.now();
    const secrets: RevealedSecret[] = [];
    if (row.webhookSecret !== null)
      secrets.push({ secret: box.open(row.webhookSecret, row.id), current: true, expiresAt: null });
    if (
      row.webhookSecretPrevious !== null &&
      row.webhookSecretPreviousExpiresAt !== null &&
      row.webhookSecretPreviousExpiresAt > now
    ) {
      secrets.push({
        secret: box.open(row.webhookSecretPrevious, row.id),
        current: false,
        expiresAt: row.webhookSecretPreviousExpiresAt,
      });
    }
    await writeAudit(
      prisma,
      actorOf(actor),
      {
        operatorId: row.id,
        action: 'operator.webhook_secret_revealed',
        targetType: 'operator',
        targetId: row.id,
        after: { count: secrets.length },
      },
      now,
    );
    return secrets;
  }

  /**
   * Puts every stored webhook secret under the keyring's current key: data keys sealed under an older key are
   * re-wrapped (the secrets' ciphertexts stay), legacy plain values are sealed. Each row is updated only if it still
   * holds the value we read, so a concurrent setWebhook is never overwritten.
   */
  async function rewrapWebhookSecrets(): Promise<RewrapReport> {
    const rows = await prisma.operator.findMany({
      where: { webhookSecret: { not: null } },
      select: { id: true, webhookSecret: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const report: RewrapReport = {
      keyId: box.currentKeyId,
      total: rows.length,
      rewrapped: 0,
      sealedLegacy: 0,
      alreadyCurrent: 0,
      changedMeanwhile: 0,
      failed: [],
    };
    for (const { id, webhookSecret: stored } of rows) {
      if (stored === null) continue;
      if (box.isCurrent(stored)) {
        report.alreadyCurrent += 1;
        continue;
      }
      let next: string;
      try {
        next = box.rewrap(stored, id);
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        report.failed.push({ operatorId: id, reason: error.message });
        continue;
      }
      const { count } = await prisma.operator.updateMany({
        where: { id, webhookSecret: stored },
        data: { webhookSecret: next },
      });
      if (count !== 1) report.changedMeanwhile += 1;
      else if (isSealed(stored)) report.rewrapped += 1;
      else report.sealedLegacy += 1;
    }
    return report;
  }

  return {
    setWebhook,
    setWebhookUrl,
    clearWebhook,
    rotateWebhookSecret,
    revealWebhookSecrets,
    rewrapWebhookSecrets,
  };
}

export type WebhookSecretService = ReturnType<typeof createWebhookSecretService>;
