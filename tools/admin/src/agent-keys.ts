import { ACP_AGENT_KEY_PREFIX, ModeSchema, type Mode } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import type { AgentKey } from '@expedition/db';
import { hashToken, isUuid, randomToken, systemClock, type Clock } from '@expedition/platform';
import { parseSigningPublicKey } from '@expedition/webhook-signature';

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
export function createAgentKeyService(deps: { prisma: PrismaClient; clock?: Clock }) {
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
      return view(await deps.prisma.agentKey.update({ where: { id }, data: { signingPublicKey: null, signingAlgorithm: null, signingKeySetAt: clock.now() } }));
    }
    const parsed = parseSigningPublicKey(publicKey);
    if ('error' in parsed) throw new AgentKeyError('invalid_input', `--public-key: ${parsed.error}`);
    return view(
      await deps.prisma.agentKey.update({ where: { id }, data: { signingPublicKey: parsed.pem, signingAlgorithm: parsed.algorithm, signingKeySetAt: clock.now() } }),
    );
  }

  return { create, list, revoke, setSigningKey };
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
  };
}
