import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RandomBytes } from '@expedition/auth-publishable-key';
import type { PrismaClient } from '@expedition/db';
import { requireOrigin, requireWebhookUrl } from './inputs';
import type { Clock } from '@expedition/platform';
import { type OperatorService, createOperatorService } from './operator.service';
import { type SecretBox, SecretBoxError } from './secret-box';

export const DEMO_OPERATOR_NAME = 'Polar Horizons Expeditions (demo)';
export const DEMO_OPERATOR_FILE = 'demo-operator.json';
export const DEMO_COMMISSION_BPS = 1000;
/** The demo operator may use every widget tier (3: checkout inside the iframe). */
export const DEMO_INTEGRATION_TIER = 3;
const DEMO_KEY_LABEL = 'demo site';

/** The contents of `DATA_DIR/demo-operator.json` (docs/integration-guide.md §1, docs/portal.md "Embedded mode"). */
export interface DemoOperatorInfo {
  operatorId: string;
  name: string;
  publishableKey: string;
  allowedOrigins: string[];
  webhookUrl: string;
  webhookSecret: string;
  /** No portal user exists yet; kept from an earlier file when a later step has filled them in. */
  portalEmail: string | null;
  portalPassword: string | null;
}

export interface EnsureDemoOperatorOptions {
  prisma: PrismaClient;
  dataDir: string;
  /** The demo site's origin, e.g. http://localhost:4200; its localhost/127.0.0.1 twin is allowed too. */
  demoOrigin: string;
  /** Where the demo site receives policy.issued webhooks. */
  webhookUrl: string;
  extraOrigins?: readonly string[];
  clock?: Clock;
  randomBytes?: RandomBytes;
  /** Seals the webhook secret in the database; the file keeps it in plain for the demo site's receiver. */
  secretBox: SecretBox;
  /**
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS. Default true: the demo operator is a development fixture whose receiver is the
   * demo site on localhost; the launcher and the admin CLI pass their configured value.
   */
  allowPrivateWebhookUrls?: boolean;
}

export function demoOperatorFilePath(dataDir: string): string {
  return path.join(path.resolve(dataDir), DEMO_OPERATOR_FILE);
}

/**
 * Idempotent seed of the embedded launcher's demo operator. Reuses the operator of an existing demo-operator.json (or,
 * when the file is gone, the operator with the demo name) and its test key while that key is still current; otherwise
 * creates what is missing. Origins and webhook URL are reconciled with the options on every run (the ports may have
 * changed); status, embedding and commission set by the platform team afterwards are left alone. The file is
 * rewritten from the database with mode 0600 because it holds the webhook secret.
 */
export async function ensureDemoOperator(options: EnsureDemoOperatorOptions): Promise<DemoOperatorInfo> {
  const origins = demoOrigins(options.demoOrigin, options.extraOrigins ?? []);
  const allowPrivate = options.allowPrivateWebhookUrls ?? true;
  const webhookUrl = requireWebhookUrl(options.webhookUrl, { allowPrivateNetworks: allowPrivate });
  const service = createOperatorService({ ...options, allowPrivateWebhookUrls: allowPrivate });
  const file = demoOperatorFilePath(options.dataDir);
  const previous = readDemoFile(file);

  const operatorId = await findOrCreateOperator(options.prisma, service, previous);
  // The demo page shows every integration tier, up to checkout inside the iframe (Tier 3).
  await options.prisma.operator.updateMany({
    where: { id: operatorId, integrationTier: { lt: DEMO_INTEGRATION_TIER } },
    data: { integrationTier: DEMO_INTEGRATION_TIER },
  });
  const publishableKey = await currentTestKey(service, operatorId, previous?.publishableKey);
  for (const origin of origins) await service.addAllowedOrigin(operatorId, origin);
  const webhookSecret = await reconcileWebhook(options, service, operatorId, webhookUrl);
  const operator = await service.getOperator(operatorId);
  const reused = previous?.operatorId === operatorId;

  const info: DemoOperatorInfo = {
    operatorId,
    name: operator.name,
    publishableKey,
    allowedOrigins: demoFirst(origins, await service.listAllowedOrigins(operatorId)),
    webhookUrl,
    webhookSecret,
    portalEmail: reused ? (previous.portalEmail ?? null) : null,
    portalPassword: reused ? (previous.portalPassword ?? null) : null,
  };
  writeDemoFile(file, info);
  return info;
}

/** Reads DATA_DIR/demo-operator.json; null when it is missing or unreadable (it is then rewritten). */
export function readDemoOperatorFile(dataDir: string): Partial<DemoOperatorInfo> | null {
  return readDemoFile(demoOperatorFilePath(dataDir));
}

function demoOrigins(demoOrigin: string, extra: readonly string[]): string[] {
  const primary = requireOrigin(demoOrigin);
  const twin = loopbackTwin(primary);
  return [...new Set([primary, ...(twin ? [twin] : []), ...extra.map(requireOrigin)])];
}

/** The launcher's own origins first, then any the platform team added by hand. */
function demoFirst(demo: readonly string[], stored: readonly string[]): string[] {
  return [...demo.filter((o) => stored.includes(o)), ...stored.filter((o) => !demo.includes(o))];
}

/** Browsers treat localhost and 127.0.0.1 as different origins; people open the demo under either. */
function loopbackTwin(origin: string): string | null {
  const url = new URL(origin);
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  else if (url.hostname === '127.0.0.1') url.hostname = 'localhost';
  else return null;
  return url.origin;
}

async function findOrCreateOperator(
  prisma: PrismaClient,
  service: OperatorService,
  previous: Partial<DemoOperatorInfo> | null,
): Promise<string> {
  if (typeof previous?.operatorId === 'string') {
    const known = await prisma.operator.findUnique({ where: { id: previous.operatorId }, select: { id: true } });
    if (known) return known.id;
  }
  const byName = await prisma.operator.findFirst({
    where: { name: DEMO_OPERATOR_NAME },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  if (byName) return byName.id;
  const created = await service.createOperator({
    name: DEMO_OPERATOR_NAME,
    status: 'active',
    commissionRateBps: DEMO_COMMISSION_BPS,
  });
  return created.id;
}

/** The file's key while it is current, else the newest current test key, else a new one. */
async function currentTestKey(service: OperatorService, operatorId: string, previousKey: unknown): Promise<string> {
  const current = (await service.listKeys(operatorId)).filter((k) => k.mode === 'test' && k.state === 'active');
  const kept = current.find((k) => k.key === previousKey) ?? current.at(-1);
  if (kept) return kept.key;
  return (await service.mintPublishableKey(operatorId, 'test', DEMO_KEY_LABEL)).key;
}

async function reconcileWebhook(
  options: Pick<EnsureDemoOperatorOptions, 'prisma' | 'secretBox'>,
  service: OperatorService,
  operatorId: string,
  webhookUrl: string,
): Promise<string> {
  const row = await options.prisma.operator.findUniqueOrThrow({
    where: { id: operatorId },
    select: { webhookUrl: true, webhookSecret: true },
  });
  const stored = row.webhookSecret;
  const current = stored === null ? null : openDemoSecret(options.secretBox, stored, operatorId);
  if (row.webhookUrl === webhookUrl && current !== null && options.secretBox.isCurrent(stored!)) return current;
  // Keep an existing secret when only the URL moved (or it is sealed again under the current key), so a receiver
  // configured from the old file keeps verifying.
  const update = await service.setWebhook(operatorId, { url: webhookUrl, secret: current ?? undefined });
  return update.webhookSecret;
}

/**
 * The stored secret in plain, or null when this keyring cannot open it (DATA_DIR/webhook-secret-keys was deleted but
 * the database kept): the demo then gets a fresh secret, harmless because its receiver reads it from the file.
 */
function openDemoSecret(box: SecretBox, stored: string, operatorId: string): string | null {
  try {
    return box.open(stored, operatorId);
  } catch (error) {
    if (error instanceof SecretBoxError) return null;
    throw error;
  }
}

function readDemoFile(file: string): Partial<DemoOperatorInfo> | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<DemoOperatorInfo>) : null;
  } catch {
    return null;
  }
}

// Written beside the target and renamed, so a crash never leaves a half-written file for the launcher to read.
function writeDemoFile(file: string, info: DemoOperatorInfo): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
}
