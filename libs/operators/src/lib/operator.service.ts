import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import {
  type RandomBytes,
  mintPublishableKey as mintPublishableKeyString,
  mintSecretKey as mintSecretKeyString,
  parsePublishableKey,
} from '@expedition/auth-publishable-key';
import { type PrismaClient, isUniqueViolation } from '@expedition/db';
import { systemClock, type Clock } from '@expedition/platform';
import { conflict, invalidInput, limitReached, notFound, suspended } from './operator-error';
import { type SecretBox, SecretBoxError, isSealed } from './secret-box';
import { type AuditActor, type AuditQuery, SYSTEM_ACTOR, listAudit, writeAudit } from './audit';
import { originModes } from './origin-rules';
import { createWebhookEventFunctions } from './webhook-events';
import { createDashboardFunctions } from './dashboard';
import type { Mode } from '@expedition/contracts';
import {
  type OperatorStatusValue,
  optionalEmail,
  optionalGraceSeconds,
  optionalLabel,
  optionalWebhookSecret,
  optionalWebsite,
  MAX_GRACE_SECONDS,
  requireBoolean,
  requireCommissionBps,
  requireId,
  requireIntegrationTier,
  requireMode,
  requireName,
  requireOrigin,
  requireStatus,
  requireWebhookUrl,
} from './inputs';
import {
  type OperatorView,
  type PublishableKeyView,
  type SecretKeyView,
  keyState,
  toKeyView,
  toOperatorView,
  toSecretKeyView,
} from './views';

export interface OperatorServiceDeps {
  prisma: PrismaClient;
  clock?: Clock;
  /** Randomness for keys and webhook secrets; node:crypto by default. */
  randomBytes?: RandomBytes;
  /** Seals webhook secrets before they are stored (keyring from WEBHOOK_SECRET_KEYS, see webhook-secret-keys.ts). */
  secretBox: SecretBox;
  /** Recorded as the actor of changes made without one (the admin CLI passes CLI_ACTOR); default SYSTEM_ACTOR. */
  defaultActor?: AuditActor;
  /**
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS: webhook URLs may name loopback and private hosts (development, the demo receiver
   * on localhost). Default false: production rules, public hosts only (inputs.ts, requireWebhookUrl).
   */
  allowPrivateWebhookUrls?: boolean;
}

export interface NewOperator {
  name: string;
  contactEmail?: string | null;
  websiteUrl?: string | null;
  /** Default `pending`: keys of a pending operator are refused until the provider activates it. */
  status?: OperatorStatusValue;
  /** Default 1000 (10 %), the schema default. */
  commissionRateBps?: number;
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

export interface AllowedOriginView {
  origin: string;
  loopback: boolean;
  appliesTo: Mode[];
  createdAt: Date;
}

/** Rotation grace: seconds from now, or the instant the old key stops (in the future, within MAX_GRACE_SECONDS). */
export interface RotateOptions {
  graceSeconds?: number;
  expiresAt?: Date;
}

export interface RotatedKey {
  newKey: PublishableKeyView;
  oldKey: PublishableKeyView;
}

export interface MintedSecret {
  secretKey: SecretKeyView;
  /** The full `sk_op_…` key: returned once, only its sha256 is stored. */
  key: string;
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

/**
 * Caps per operator (docs/portal-api.md). Counted are the keys that still work (neither revoked nor expired) and every
 * listed origin; a rotation is not capped (it retires the key it replaces).
 */
export const OPERATOR_LIMITS = {
  publishableKeys: 20,
  secretKeys: 10,
  allowedOrigins: 50,
} as const;

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;
/** The longest a rotated webhook secret keeps signing next to the new one. */
export const MAX_SECRET_OVERLAP_HOURS = 168;

type OperatorRow = Awaited<ReturnType<PrismaClient['operator']['findUniqueOrThrow']>>;

export function createOperatorService(deps: OperatorServiceDeps) {
  const { prisma } = deps;
  const clock = deps.clock ?? systemClock;
  const randomBytes = deps.randomBytes ?? cryptoRandomBytes;
  const webhookTargets = { allowPrivateNetworks: deps.allowPrivateWebhookUrls ?? false };

  async function requireOperatorRow(operatorId: unknown) {
    const id = requireId(operatorId, 'operator id');
    const row = await prisma.operator.findUnique({ where: { id } });
    if (!row) throw notFound(`operator ${id} not found`);
    return row;
  }

  const actorOf = (actor?: AuditActor): AuditActor => actor ?? deps.defaultActor ?? SYSTEM_ACTOR;

  function refuseIfSuspended(operator: { status: string }): void {
    if (operator.status === 'suspended') throw suspended();
  }

  /**
   * Refuses one more of a capped thing. Run inside the transaction that adds it: the operator's row is locked first,
   * so two concurrent additions are counted one after the other and the cap holds exactly.
   */
  async function enforceCap(
    tx: Pick<PrismaClient, '$queryRaw'>,
    operatorId: string,
    what: string,
    limit: number,
    count: () => Promise<number>,
  ) {
    await tx.$queryRaw`SELECT id FROM operators WHERE id = ${operatorId} FOR UPDATE`;
    if ((await count()) >= limit) {
      throw limitReached(`An operator can have at most ${limit} ${what}; revoke or remove one first`);
    }
  }

  const liveKeyFilter = (operatorId: string, now: Date) => ({
    operatorId,
    revokedAt: null,
    OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
  });

  /** One field change of an operator and its audit entry, in one transaction; a no-op change is still recorded. */
  async function changeOperator<K extends keyof OperatorRow>(
    operatorId: unknown,
    field: K,
    value: OperatorRow[K],
    action: string,
    actor?: AuditActor,
  ): Promise<OperatorView> {
    const row = await requireOperatorRow(operatorId);
    const now = clock.now();
    return prisma.$transaction(async (tx) => {
      const updated = await tx.operator.update({ where: { id: row.id }, data: { [field]: value } });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: row.id,
          action,
          targetType: 'operator',
          targetId: row.id,
          before: { [field]: row[field] as never },
          after: { [field]: updated[field] as never },
        },
        now,
      );
      return toOperatorView(updated, now);
    });
  }

  async function requireKeyRow(keyIdOrKey: unknown) {
    const ref = requireId(keyIdOrKey, 'key or key id');
    const row = parsePublishableKey(ref)
      ? await prisma.publishableKey.findUnique({ where: { key: ref } })
      : await findKeyById(ref);
    if (!row) throw notFound(`publishable key ${ref} not found`);
    return row;
  }

  async function findKeyById(ref: string) {
    if (ref.startsWith('pk_') || ref.startsWith('sk_')) {
      throw invalidInput(`"${ref.slice(0, 12)}…" is not a well-formed publishable key (pk_op_test_… or pk_op_…)`);
    }
    return prisma.publishableKey.findUnique({ where: { id: ref } });
  }

  async function createOperator(input: NewOperator, actor?: AuditActor): Promise<OperatorView> {
    if (typeof input !== 'object' || input === null) throw invalidInput('operator details are required');
    const data = {
      name: requireName(input.name),
      contactEmail: optionalEmail(input.contactEmail),
      websiteUrl: optionalWebsite(input.websiteUrl),
      status: input.status === undefined ? 'pending' : requireStatus(input.status),
      ...(input.commissionRateBps === undefined
        ? {}
        : { commissionRateBps: requireCommissionBps(input.commissionRateBps) }),
      createdAt: clock.now(),
    } as const;
    return prisma.$transaction(async (tx) => {
      const row = await tx.operator.create({ data });
      const after = {
        name: row.name,
        status: row.status,
        commissionRateBps: row.commissionRateBps,
        embeddingEnabled: row.embeddingEnabled,
      };
      await writeAudit(
        tx,
        actorOf(actor),
        { operatorId: row.id, action: 'operator.created', targetType: 'operator', targetId: row.id, after },
        data.createdAt,
      );
      return toOperatorView(row, data.createdAt);
    });
  }

  async function getOperator(operatorId: string): Promise<OperatorView> {
    return toOperatorView(await requireOperatorRow(operatorId), clock.now());
  }

  async function listOperators(): Promise<OperatorView[]> {
    const rows = await prisma.operator.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    const now = clock.now();
    return rows.map((row) => toOperatorView(row, now));
  }

  /**
   * Provider search: part of the name, contact e-mail or a user's e-mail (case-insensitive), or the exact id; newest
   * first, at most `limit`.
   */
  async function searchOperators(
    query: { q?: string; status?: OperatorStatusValue; limit?: number } = {},
  ): Promise<{ operators: OperatorView[]; truncated: boolean }> {
    const q = query.q?.trim() ?? '';
    const limit = query.limit ?? 100;
    const isId = /^[0-9a-f-]{36}$/i.test(q);
    const rows = await prisma.operator.findMany({
      where: {
        ...(query.status ? { status: requireStatus(query.status) } : {}),
        ...(q === ''
          ? {}
          : {
              OR: [
                ...(isId ? [{ id: q.toLowerCase() }] : []),
                { name: { contains: q, mode: 'insensitive' as const } },
                { contactEmail: { contains: q, mode: 'insensitive' as const } },
                { users: { some: { email: { contains: q.toLowerCase() } } } },
              ],
            }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const now = clock.now();
    return { operators: rows.slice(0, limit).map((row) => toOperatorView(row, now)), truncated: rows.length > limit };
  }

  async function setStatus(operatorId: string, status: OperatorStatusValue, actor?: AuditActor): Promise<OperatorView> {
    return changeOperator(operatorId, 'status', requireStatus(status), 'operator.status_changed', actor);
  }

  async function setEmbeddingEnabled(operatorId: string, enabled: boolean, actor?: AuditActor): Promise<OperatorView> {
    return changeOperator(
      operatorId,
      'embeddingEnabled',
      requireBoolean(enabled, 'embeddingEnabled'),
      'operator.embedding_changed',
      actor,
    );
  }

  /** Applies to sales after the change: each commission row keeps the rate it was computed with. */
  async function setCommissionRate(operatorId: string, bps: number, actor?: AuditActor): Promise<OperatorView> {
    return changeOperator(
      operatorId,
      'commissionRateBps',
      requireCommissionBps(bps),
      'operator.commission_changed',
      actor,
    );
  }

  async function setIntegrationTier(operatorId: string, tier: number, actor?: AuditActor): Promise<OperatorView> {
    return changeOperator(operatorId, 'integrationTier', requireIntegrationTier(tier), 'operator.tier_changed', actor);
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
    const sealed = deps.secretBox.seal(webhookSecret, id);
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
    const sealed = deps.secretBox.seal(secret, row.id);
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
      secrets.push({ secret: deps.secretBox.open(row.webhookSecret, row.id), current: true, expiresAt: null });
    if (
      row.webhookSecretPrevious !== null &&
      row.webhookSecretPreviousExpiresAt !== null &&
      row.webhookSecretPreviousExpiresAt > now
    ) {
      secrets.push({
        secret: deps.secretBox.open(row.webhookSecretPrevious, row.id),
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
    const box = deps.secretBox;
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

  async function clearWebhook(operatorId: string, actor?: AuditActor): Promise<OperatorView> {
    return setWebhookUrl(operatorId, null, actor);
  }

  function generateWebhookSecret(): string {
    const bytes = randomBytes(WEBHOOK_SECRET_BYTES);
    if (bytes.length !== WEBHOOK_SECRET_BYTES) throw new Error('randomBytes returned the wrong number of bytes');
    return WEBHOOK_SECRET_PREFIX + Buffer.from(bytes).toString('hex');
  }

  async function mintPublishableKey(
    operatorId: string,
    mode: Mode,
    label?: string,
    actor?: AuditActor,
  ): Promise<PublishableKeyView> {
    const keyMode = requireMode(mode);
    const keyLabel = optionalLabel(label);
    const operator = await requireOperatorRow(operatorId);
    refuseIfSuspended(operator);
    const now = clock.now();
    const row = await insertKey(() =>
      prisma.$transaction(async (tx) => {
        await enforceCap(tx, operator.id, 'publishable keys', OPERATOR_LIMITS.publishableKeys, () =>
          tx.publishableKey.count({ where: liveKeyFilter(operator.id, now) }),
        );
        const created = await tx.publishableKey.create({
          data: {
            operatorId: operator.id,
            key: mintPublishableKeyString(keyMode, randomBytes),
            mode: keyMode,
            label: keyLabel,
            createdAt: now,
          },
        });
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: operator.id,
            action: 'publishable_key.created',
            targetType: 'publishable_key',
            targetId: created.id,
            after: { key: created.key, mode: keyMode, label: keyLabel },
          },
          now,
        );
        return created;
      }),
    );
    return toKeyView(row, now);
  }

  async function listKeys(operatorId: string): Promise<PublishableKeyView[]> {
    const operator = await requireOperatorRow(operatorId);
    const rows = await prisma.publishableKey.findMany({
      where: { operatorId: operator.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const now = clock.now();
    return rows.map((row) => toKeyView(row, now));
  }

  /** A key of this operator by id; another operator's key is `not_found`, exactly like an unknown id. */
  async function getKeyOfOperator(operatorId: string, keyId: string): Promise<PublishableKeyView> {
    const id = requireId(keyId, 'key id');
    const row = /^[0-9a-f-]{36}$/i.test(id)
      ? await prisma.publishableKey.findFirst({ where: { id, operatorId } })
      : null;
    if (!row) throw notFound(`publishable key ${id} not found`);
    return toKeyView(row, clock.now());
  }

  /** Immediate and final. Revoking a revoked key is a no-op that keeps the first revocation time (and is not audited). */
  async function revokeKey(keyIdOrKey: string, actor?: AuditActor): Promise<PublishableKeyView> {
    const row = await requireKeyRow(keyIdOrKey);
    const now = clock.now();
    if (row.revokedAt !== null) return toKeyView(row, now);
    return prisma.$transaction(async (tx) => {
      const { count } = await tx.publishableKey.updateMany({
        where: { id: row.id, revokedAt: null },
        data: { revokedAt: now },
      });
      const updated = await tx.publishableKey.findUniqueOrThrow({ where: { id: row.id } });
      if (count === 1) {
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: row.operatorId,
            action: 'publishable_key.revoked',
            targetType: 'publishable_key',
            targetId: row.id,
            before: { key: row.key, state: keyState(row, now) },
            after: { key: row.key, state: 'revoked' },
          },
          now,
        );
      }
      return toKeyView(updated, now);
    });
  }

  /**
   * Mints a replacement of the same mode and label. With a grace (seconds, or an `expiresAt` instant) the old key
   * keeps working strictly before its expiry (the resolver re-checks expiresAt on every cached hit), so pages can be
   * redeployed; without one it is revoked now. Only a current key can be rotated: rotating an already-expiring key
   * would mint a second replacement.
   */
  async function rotateKey(keyIdOrKey: string, options: RotateOptions = {}, actor?: AuditActor): Promise<RotatedKey> {
    const now = clock.now();
    let expiresAt: Date | null;
    if (options?.expiresAt !== undefined) {
      const at = options.expiresAt;
      if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw invalidInput('expiresAt must be a valid instant');
      if (at.getTime() <= now.getTime())
        throw invalidInput('expiresAt must be in the future (use grace "now" to stop the old key at once)');
      if (at.getTime() > now.getTime() + MAX_GRACE_SECONDS * 1000)
        throw invalidInput(`expiresAt must be at most ${MAX_GRACE_SECONDS / 86_400} days ahead`);
      expiresAt = at;
    } else {
      const graceSeconds = optionalGraceSeconds(options?.graceSeconds);
      expiresAt = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
    }
    const old = await requireKeyRow(keyIdOrKey);
    refuseIfSuspended(await requireOperatorRow(old.operatorId));
    const retire = expiresAt ? { expiresAt } : { revokedAt: now };
    return prisma.$transaction(async (tx) => {
      // Conditional update: of two concurrent rotations of one key, exactly one wins.
      const retired = await tx.publishableKey.updateMany({
        where: { id: old.id, revokedAt: null, expiresAt: null },
        data: retire,
      });
      if (retired.count !== 1) {
        throw conflict(`publishable key ${old.id} is already revoked or rotated; rotate its replacement instead`);
      }
      const created = await tx.publishableKey.create({
        data: {
          operatorId: old.operatorId,
          key: mintPublishableKeyString(old.mode, randomBytes),
          mode: old.mode,
          label: old.label,
          createdAt: now,
        },
      });
      const oldRow = await tx.publishableKey.findUniqueOrThrow({ where: { id: old.id } });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: old.operatorId,
          action: 'publishable_key.rotated',
          targetType: 'publishable_key',
          targetId: old.id,
          before: { key: old.key, state: 'active' },
          after: {
            key: old.key,
            state: keyState(oldRow, now),
            expiresAt: oldRow.expiresAt?.toISOString() ?? null,
            newKeyId: created.id,
            newKey: created.key,
          },
        },
        now,
      );
      return { newKey: toKeyView(created, now), oldKey: toKeyView(oldRow, now) };
    });
  }

  async function mintSecretKey(operatorId: string, mode: Mode, actor?: AuditActor): Promise<MintedSecret> {
    const keyMode = requireMode(mode);
    const operator = await requireOperatorRow(operatorId);
    refuseIfSuspended(operator);
    const minted = mintSecretKeyString(keyMode, randomBytes);
    const now = clock.now();
    const row = await insertKey(() =>
      prisma.$transaction(async (tx) => {
        await enforceCap(tx, operator.id, 'secret keys', OPERATOR_LIMITS.secretKeys, () =>
          tx.secretKey.count({ where: { operatorId: operator.id, revokedAt: null } }),
        );
        const created = await tx.secretKey.create({
          data: { operatorId: operator.id, mode: keyMode, prefix: minted.prefix, hash: minted.hash, createdAt: now },
        });
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: operator.id,
            action: 'secret_key.created',
            targetType: 'secret_key',
            targetId: created.id,
            after: { prefix: created.prefix, mode: keyMode },
          },
          now,
        );
        return created;
      }),
    );
    return { secretKey: toSecretKeyView(row), key: minted.key };
  }

  async function listSecretKeys(operatorId: string): Promise<SecretKeyView[]> {
    const operator = await requireOperatorRow(operatorId);
    const rows = await prisma.secretKey.findMany({
      where: { operatorId: operator.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toSecretKeyView);
  }

  /** Revokes one secret key of this operator (another operator's id is `not_found`); idempotent. */
  async function revokeSecretKey(operatorId: string, secretKeyId: string, actor?: AuditActor): Promise<SecretKeyView> {
    const id = requireId(secretKeyId, 'secret key id');
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await prisma.secretKey.findFirst({ where: { id, operatorId } }) : null;
    if (!row) throw notFound(`secret key ${id} not found`);
    if (row.revokedAt !== null) return toSecretKeyView(row);
    const now = clock.now();
    return prisma.$transaction(async (tx) => {
      await tx.secretKey.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId,
          action: 'secret_key.revoked',
          targetType: 'secret_key',
          targetId: row.id,
          before: { prefix: row.prefix, revoked: false },
          after: { prefix: row.prefix, revoked: true },
        },
        now,
      );
      return toSecretKeyView(await tx.secretKey.findUniqueOrThrow({ where: { id: row.id } }));
    });
  }

  /** Idempotent: adding an origin that is already listed (in any spelling that normalizes to it) changes nothing. */
  async function addAllowedOrigin(
    operatorId: string,
    origin: string,
    actor?: AuditActor,
  ): Promise<{ origin: string; added: boolean }> {
    const normalized = requireOrigin(origin);
    const operator = await requireOperatorRow(operatorId);
    const where = { operatorId_origin: { operatorId: operator.id, origin: normalized } };
    if (await prisma.allowedOrigin.findUnique({ where })) return { origin: normalized, added: false };
    const now = clock.now();
    try {
      await prisma.$transaction(async (tx) => {
        await enforceCap(tx, operator.id, 'allowed origins', OPERATOR_LIMITS.allowedOrigins, () =>
          tx.allowedOrigin.count({ where: { operatorId: operator.id } }),
        );
        await tx.allowedOrigin.create({ data: { operatorId: operator.id, origin: normalized, createdAt: now } });
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: operator.id,
            action: 'origin.added',
            targetType: 'origin',
            targetId: normalized,
            after: { origin: normalized, appliesTo: originModes(normalized) },
          },
          now,
        );
      });
      return { origin: normalized, added: true };
    } catch (error) {
      // Lost a race with a concurrent add of the same origin: the end state is the one asked for.
      if (isUniqueViolation(error)) return { origin: normalized, added: false };
      throw error;
    }
  }

  /** Idempotent: removing an origin that is not listed reports `removed: false`. */
  async function removeAllowedOrigin(
    operatorId: string,
    origin: string,
    actor?: AuditActor,
  ): Promise<{ origin: string; removed: boolean }> {
    const normalized = requireOrigin(origin);
    const operator = await requireOperatorRow(operatorId);
    const now = clock.now();
    return prisma.$transaction(async (tx) => {
      const { count } = await tx.allowedOrigin.deleteMany({ where: { operatorId: operator.id, origin: normalized } });
      if (count > 0) {
        await writeAudit(
          tx,
          actorOf(actor),
          {
            operatorId: operator.id,
            action: 'origin.removed',
            targetType: 'origin',
            targetId: normalized,
            before: { origin: normalized },
          },
          now,
        );
      }
      return { origin: normalized, removed: count > 0 };
    });
  }

  async function listAllowedOrigins(operatorId: string): Promise<string[]> {
    return (await listAllowedOriginViews(operatorId)).map((o) => o.origin);
  }

  async function listAllowedOriginViews(operatorId: string): Promise<AllowedOriginView[]> {
    const operator = await requireOperatorRow(operatorId);
    const rows = await prisma.allowedOrigin.findMany({
      where: { operatorId: operator.id },
      orderBy: [{ createdAt: 'asc' }, { origin: 'asc' }],
    });
    return rows.map((row) => {
      const appliesTo = originModes(row.origin);
      return { origin: row.origin, loopback: appliesTo.length === 1, appliesTo, createdAt: row.createdAt };
    });
  }

  async function listAuditEntries(query: AuditQuery) {
    return listAudit(prisma, query);
  }

  const context = { prisma, clock, randomBytes, actorOf, requireOperatorRow };

  return {
    createOperator,
    getOperator,
    listOperators,
    searchOperators,
    setStatus,
    setEmbeddingEnabled,
    setCommissionRate,
    setIntegrationTier,
    setWebhook,
    setWebhookUrl,
    rotateWebhookSecret,
    revealWebhookSecrets,
    clearWebhook,
    rewrapWebhookSecrets,
    mintPublishableKey,
    listKeys,
    getKeyOfOperator,
    revokeKey,
    rotateKey,
    mintSecretKey,
    listSecretKeys,
    revokeSecretKey,
    addAllowedOrigin,
    removeAllowedOrigin,
    listAllowedOrigins,
    listAllowedOriginViews,
    listAuditEntries,
    ...createWebhookEventFunctions(context),
    ...createDashboardFunctions(context),
  };
}

export interface ServiceContext {
  prisma: PrismaClient;
  clock: Clock;
  randomBytes: RandomBytes;
  actorOf(actor?: AuditActor): AuditActor;
  requireOperatorRow(operatorId: unknown): Promise<OperatorRow>;
}

export type OperatorService = ReturnType<typeof createOperatorService>;

/** A freshly minted key colliding with an existing one means broken randomness: say so rather than retry. */
async function insertKey<T>(insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('a freshly minted key collided with an existing one (check randomBytes)');
    throw error;
  }
}
