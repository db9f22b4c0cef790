import { ACP_AGENT_KEY_PREFIX, ModeSchema, type Mode } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import type { AgentKey } from '@expedition/db';
import { hashToken, isUuid, randomToken, systemClock, type Clock } from '@expedition/platform';
import { parseSigningPublicKey } from '@expedition/webhook-signature';
import {
  agentKeySecretContext,
  isOperatorError,
  optionalWebhookSecret,
  requireWebhookUrl,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_PREFIX,
  type SecretBox,
} from '@expedition/operators';
import { randomBytes } from 'node:crypto';

/** An agent platform's key for /acp/v1 as the CLI shows it: never the secret, which exists only at creation. */
export interface AgentKeyView {
  id: string;
  name: string;
  mode: Mode;
  prefix: string;
  state: 'active' | 'revoked';
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** The algorithm of the registered request-signing key (`ed25519`, `es256`), or null: requests are not signed. */
  signing: string | null;
  signingKeySetAt: Date | null;
  /** Where order events are POSTed (docs/acp.md, "Order webhooks"), or null: none are sent. */
  webhookUrl: string | null;
}

/** One order event as the delivery log shows it (never the payload's token, never the secret). */
export interface AcpOrderDeliveryView {
  eventId: string;
  type: string;
  checkoutSessionId: string;
  orderNumber: string | null;
  status: string;
  attempts: number;
  maxAttempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** A refusal the CLI reports as exit 1 with this code. */
export class AgentKeyError extends Error {
  override readonly name = 'AgentKeyError';
  constructor(
    readonly code: 'invalid_input' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Agent-platform API keys (`acpk_…`, Bearer on /acp/v1): minted by the provider, stored as sha256 only, revocable.
 * quote-api hashes what it is presented and looks the hash up (apps/quote-api/src/acp/agent-keys.ts).
 */
export function createAgentKeyService(deps: {
  prisma: PrismaClient;
  clock?: Clock;
  /** Seals webhook secrets (WEBHOOK_SECRET_KEYS); only the webhook command asks for it. */
  secretBox?: Pick<SecretBox, 'seal'>;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: a webhook URL may name a private or loopback host (development). */
  allowPrivateWebhookUrls?: boolean;
}) {
  const clock = deps.clock ?? systemClock;

  async function create(name: string, modeInput: string | undefined): Promise<{ key: string; agentKey: AgentKeyView }> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 100) throw new AgentKeyError('invalid_input', 'name must be 1 to 100 characters');
    const mode = ModeSchema.safeParse(modeInput ?? 'test');
    if (!mode.success) throw new AgentKeyError('invalid_input', '--mode must be test or live');
    const key = randomToken(`${ACP_AGENT_KEY_PREFIX}_${mode.data}`, 32);
    const row = await deps.prisma.agentKey.create({
      data: { name: trimmed, mode: mode.data, prefix: key.slice(0, 16), hash: hashToken(key), createdAt: clock.now() },
    });
    return { key, agentKey: view(row) };
  }

  async function list(): Promise<AgentKeyView[]> {
    return (await deps.prisma.agentKey.findMany({ orderBy: { createdAt: 'asc' } })).map(view);
  }

  async function find(id: string): Promise<AgentKey> {
    const row = isUuid(id) ? await deps.prisma.agentKey.findUnique({ where: { id } }) : null;
    if (!row) throw new AgentKeyError('not_found', `No agent key with id "${id}"`);
    return row;
  }

  async function revoke(id: string): Promise<AgentKeyView> {
    const row = await find(id);
    if (row.revokedAt) return view(row);
    return view(await deps.prisma.agentKey.update({ where: { id }, data: { revokedAt: clock.now() } }));
  }

  /**
   * Registers (or replaces: rotation takes effect at once) the platform's request-signing public key, PEM or JWK;
   * `null` removes it, and the platform's requests are no longer checked for a signature.
   */
  async function setSigningKey(id: string, publicKey: string | null): Promise<AgentKeyView> {
    await find(id);
    if (publicKey === null) {
      return view(
        await deps.prisma.agentKey.update({
          where: { id },
          data: { signingPublicKey: null, signingAlgorithm: null, signingKeySetAt: clock.now() },
        }),
      );
    }
    const parsed = parseSigningPublicKey(publicKey);
    if ('error' in parsed) throw new AgentKeyError('invalid_input', `--public-key: ${parsed.error}`);
    return view(
      await deps.prisma.agentKey.update({
        where: { id },
        data: { signingPublicKey: parsed.pem, signingAlgorithm: parsed.algorithm, signingKeySetAt: clock.now() },
      }),
    );
  }

  /**
   * Sets where the platform's order events go, and the secret they are signed with: `--secret` as given, `--generate`
   * a new one, neither keeps the current one (a new one when there is none). The secret is returned only when
   * generated (shown once); it is stored sealed. The URL passes the outbound address rules here, and again at each send.
   */
  async function setWebhook(
    id: string,
    input: { url: string; secret?: string; generate?: boolean },
  ): Promise<{ agentKey: AgentKeyView; generatedSecret: string | null }> {
    const row = await find(id);
    let url: string;
    let given: string | null;
    try {
      url = requireWebhookUrl(input.url, { allowPrivateNetworks: deps.allowPrivateWebhookUrls ?? false });
      given = optionalWebhookSecret(input.secret);
    } catch (err) {
      if (isOperatorError(err)) throw new AgentKeyError('invalid_input', err.message);
      throw err;
    }
    if (given && input.generate) throw new AgentKeyError('invalid_input', 'give --secret or --generate, not both');
    const generatedSecret =
      given || (row.webhookSecret && !input.generate)
        ? null
        : WEBHOOK_SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('hex');
    const plain = given ?? generatedSecret;
    if (plain && !deps.secretBox)
      throw new Error('no secret box: WEBHOOK_SECRET_KEYS is needed to store a webhook secret');
    const sealed = plain ? deps.secretBox!.seal(plain, agentKeySecretContext(id)) : row.webhookSecret;
    const updated = await deps.prisma.agentKey.update({
      where: { id },
      data: { webhookUrl: url, webhookSecret: sealed },
    });
    return { agentKey: view(updated), generatedSecret };
  }

  /** Stops order events: URL and secret removed. Events still queued fail their attempts ("no webhook URL"). */
  async function removeWebhook(id: string): Promise<AgentKeyView> {
    await find(id);
    return view(await deps.prisma.agentKey.update({ where: { id }, data: { webhookUrl: null, webhookSecret: null } }));
  }

  /** The order events of this key, newest first: the delivery log. */
  async function deliveries(id: string, limit = 50): Promise<AcpOrderDeliveryView[]> {
    await find(id);
    const rows = await deps.prisma.acpOrderEvent.findMany({
      where: { agentKeyId: id },
      orderBy: { createdAt: 'desc' },
      take: limit,
    });
    return rows.map((r) => ({
      eventId: r.eventId,
      type: r.type,
      checkoutSessionId: r.checkoutSessionId,
      orderNumber: (r.payload as { data?: { order_number?: string } } | null)?.data?.order_number ?? null,
      status: r.status,
      attempts: r.attempts,
      maxAttempts: r.maxAttempts,
      lastStatusCode: r.lastStatusCode,
      lastError: r.lastError,
      nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt : null,
      createdAt: r.createdAt,
      deliveredAt: r.deliveredAt,
    }));
  }

  return { create, list, revoke, setSigningKey, setWebhook, removeWebhook, deliveries };
}

export type AgentKeyService = ReturnType<typeof createAgentKeyService>;

function view(row: AgentKey): AgentKeyView {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    prefix: row.prefix,
    state: row.revokedAt ? 'revoked' : 'active',
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    signing: row.signingAlgorithm,
    signingKeySetAt: row.signingKeySetAt,
    webhookUrl: row.webhookUrl,
  };
}
