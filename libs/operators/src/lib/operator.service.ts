import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import {
  type RandomBytes,
  mintPublishableKey as mintPublishableKeyString,
  mintSecretKey as mintSecretKeyString,
  parsePublishableKey,
} from '@expedition/auth-publishable-key';
import { type PrismaClient, isUniqueViolation } from '@expedition/db';
import { systemClock, type Clock } from '@expedition/platform';
import { conflict, invalidInput, notFound } from './operator-error';
import { type SecretBox, SecretBoxError, isSealed } from './secret-box';
import type { Mode } from '@expedition/contracts';
import {
  type OperatorStatusValue,
  optionalEmail,
  optionalGraceSeconds,
  optionalLabel,
  optionalWebhookSecret,
  optionalWebsite,
  requireBoolean,
  requireCommissionBps,
  requireId,
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

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;

export function createOperatorService(deps: OperatorServiceDeps) {
  const { prisma } = deps;
  const clock = deps.clock ?? systemClock;
  const randomBytes = deps.randomBytes ?? cryptoRandomBytes;

  async function requireOperatorRow(operatorId: unknown) {
    const id = requireId(operatorId, 'operator id');
    const row = await prisma.operator.findUnique({ where: { id } });
    if (!row) throw notFound(`operator ${id} not found`);
    return row;
  }

  async function updateOperator(operatorId: unknown, data: Parameters<typeof prisma.operator.update>[0]['data']) {
    const { id } = await requireOperatorRow(operatorId);
    return toOperatorView(await prisma.operator.update({ where: { id }, data }));
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

  async function createOperator(input: NewOperator): Promise<OperatorView> {
    if (typeof input !== 'object' || input === null) throw invalidInput('operator details are required');
    const data = {
      name: requireName(input.name),
      contactEmail: optionalEmail(input.contactEmail),
      websiteUrl: optionalWebsite(input.websiteUrl),
      status: input.status === undefined ? 'pending' : requireStatus(input.status),
      ...(input.commissionRateBps === undefined ? {} : { commissionRateBps: requireCommissionBps(input.commissionRateBps) }),
      createdAt: clock.now(),
    } as const;
    return toOperatorView(await prisma.operator.create({ data }));
  }

  async function getOperator(operatorId: string): Promise<OperatorView> {
    return toOperatorView(await requireOperatorRow(operatorId));
  }

  async function listOperators(): Promise<OperatorView[]> {
    const rows = await prisma.operator.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(toOperatorView);
  }

  async function setStatus(operatorId: string, status: OperatorStatusValue): Promise<OperatorView> {
    return updateOperator(operatorId, { status: requireStatus(status) });
  }

  async function setEmbeddingEnabled(operatorId: string, enabled: boolean): Promise<OperatorView> {
    return updateOperator(operatorId, { embeddingEnabled: requireBoolean(enabled, 'embeddingEnabled') });
  }

  async function setCommissionRate(operatorId: string, bps: number): Promise<OperatorView> {
    return updateOperator(operatorId, { commissionRateBps: requireCommissionBps(bps) });
  }

  async function setWebhook(operatorId: string, settings: WebhookSettings): Promise<WebhookUpdate> {
    if (typeof settings !== 'object' || settings === null) throw invalidInput('webhook settings are required');
    const url = requireWebhookUrl(settings.url);
    const given = optionalWebhookSecret(settings.secret);
    const webhookSecret = given ?? generateWebhookSecret();
    const { id } = await requireOperatorRow(operatorId);
    // Sealed for this operator only: the plain secret leaves this function once, in the return value.
    const sealed = deps.secretBox.seal(webhookSecret, id);
    const operator = toOperatorView(await prisma.operator.update({ where: { id }, data: { webhookUrl: url, webhookSecret: sealed } }));
    return { operator, webhookSecret, secretGenerated: given === null };
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
    const report: RewrapReport = { keyId: box.currentKeyId, total: rows.length, rewrapped: 0, sealedLegacy: 0, alreadyCurrent: 0, changedMeanwhile: 0, failed: [] };
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
      const { count } = await prisma.operator.updateMany({ where: { id, webhookSecret: stored }, data: { webhookSecret: next } });
      if (count !== 1) report.changedMeanwhile += 1;
      else if (isSealed(stored)) report.rewrapped += 1;
      else report.sealedLegacy += 1;
    }
    return report;
  }

  async function clearWebhook(operatorId: string): Promise<OperatorView> {
    return updateOperator(operatorId, { webhookUrl: null, webhookSecret: null });
  }

  function generateWebhookSecret(): string {
    const bytes = randomBytes(WEBHOOK_SECRET_BYTES);
    if (bytes.length !== WEBHOOK_SECRET_BYTES) throw new Error('randomBytes returned the wrong number of bytes');
    return WEBHOOK_SECRET_PREFIX + Buffer.from(bytes).toString('hex');
  }

  async function mintPublishableKey(operatorId: string, mode: Mode, label?: string): Promise<PublishableKeyView> {
    const keyMode = requireMode(mode);
    const keyLabel = optionalLabel(label);
    const operator = await requireOperatorRow(operatorId);
    const now = clock.now();
    const row = await insertKey(() =>
      prisma.publishableKey.create({
        data: {
          operatorId: operator.id,
          key: mintPublishableKeyString(keyMode, randomBytes),
          mode: keyMode,
          label: keyLabel,
          createdAt: now,
        },
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

  /** Immediate and final. Revoking a revoked key is a no-op that keeps the first revocation time. */
  async function revokeKey(keyIdOrKey: string): Promise<PublishableKeyView> {
    const row = await requireKeyRow(keyIdOrKey);
    const now = clock.now();
    if (row.revokedAt !== null) return toKeyView(row, now);
    await prisma.publishableKey.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
    return toKeyView(await prisma.publishableKey.findUniqueOrThrow({ where: { id: row.id } }), now);
  }

  /**
   * Mints a replacement of the same mode and label. With a grace the old key keeps working strictly before
   * `now + grace` (the resolver re-checks expiresAt on every cached hit), so pages can be redeployed; without one it is
   * revoked now. Only a current key can be rotated: rotating an already-expiring key would mint a second replacement.
   */
  async function rotateKey(keyIdOrKey: string, options: { graceSeconds?: number } = {}): Promise<RotatedKey> {
    const graceSeconds = optionalGraceSeconds(options?.graceSeconds);
    const old = await requireKeyRow(keyIdOrKey);
    const now = clock.now();
    const retire = graceSeconds > 0 ? { expiresAt: new Date(now.getTime() + graceSeconds * 1000) } : { revokedAt: now };
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
      return { newKey: toKeyView(created, now), oldKey: toKeyView(oldRow, now) };
    });
  }

  async function mintSecretKey(operatorId: string, mode: Mode): Promise<MintedSecret> {
    const keyMode = requireMode(mode);
    const operator = await requireOperatorRow(operatorId);
    const minted = mintSecretKeyString(keyMode, randomBytes);
    const row = await insertKey(() =>
      prisma.secretKey.create({
        data: { operatorId: operator.id, mode: keyMode, prefix: minted.prefix, hash: minted.hash, createdAt: clock.now() },
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

  /** Idempotent: adding an origin that is already listed (in any spelling that normalizes to it) changes nothing. */
  async function addAllowedOrigin(operatorId: string, origin: string): Promise<{ origin: string; added: boolean }> {
    const normalized = requireOrigin(origin);
    const operator = await requireOperatorRow(operatorId);
    const where = { operatorId_origin: { operatorId: operator.id, origin: normalized } };
    if (await prisma.allowedOrigin.findUnique({ where })) return { origin: normalized, added: false };
    try {
      await prisma.allowedOrigin.create({ data: { operatorId: operator.id, origin: normalized, createdAt: clock.now() } });
      return { origin: normalized, added: true };
    } catch (error) {
      // Lost a race with a concurrent add of the same origin: the end state is the one asked for.
      if (isUniqueViolation(error)) return { origin: normalized, added: false };
      throw error;
    }
  }

  /** Idempotent: removing an origin that is not listed reports `removed: false`. */
  async function removeAllowedOrigin(operatorId: string, origin: string): Promise<{ origin: string; removed: boolean }> {
    const normalized = requireOrigin(origin);
    const operator = await requireOperatorRow(operatorId);
    const { count } = await prisma.allowedOrigin.deleteMany({ where: { operatorId: operator.id, origin: normalized } });
    return { origin: normalized, removed: count > 0 };
  }

  async function listAllowedOrigins(operatorId: string): Promise<string[]> {
    const operator = await requireOperatorRow(operatorId);
    const rows = await prisma.allowedOrigin.findMany({
      where: { operatorId: operator.id },
      orderBy: [{ createdAt: 'asc' }, { origin: 'asc' }],
    });
    return rows.map((row) => row.origin);
  }

  return {
    createOperator,
    getOperator,
    listOperators,
    setStatus,
    setEmbeddingEnabled,
    setCommissionRate,
    setWebhook,
    clearWebhook,
    rewrapWebhookSecrets,
    mintPublishableKey,
    listKeys,
    revokeKey,
    rotateKey,
    mintSecretKey,
    listSecretKeys,
    addAllowedOrigin,
    removeAllowedOrigin,
    listAllowedOrigins,
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;

/** A freshly minted key colliding with an existing one means broken randomness: say so rather than retry. */
async function insertKey<T>(insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('a freshly minted key collided with an existing one (check randomBytes)');
    throw error;
  }
}
