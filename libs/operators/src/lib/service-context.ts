import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import type { RandomBytes } from '@expedition/auth-publishable-key';
import { type PrismaClient, type Operator, isUniqueViolation } from '@expedition/db';
import { systemClock, type Clock } from '@expedition/platform';
import { type AuditActor, SYSTEM_ACTOR } from './audit';
import { requireId } from './inputs';
import { conflict, limitReached, notFound, suspended } from './operator-error';

/**
 * What every operator service is built from, and the few helpers they share. This module imports no service, so
 * services never import one another: the composition (operator.service.ts) is the only place that sees them all.
 */
export interface ServiceDeps {
  prisma: PrismaClient;
  clock?: Clock;
  /** Recorded as the actor of changes made without one (the admin CLI passes CLI_ACTOR); default SYSTEM_ACTOR. */
  defaultActor?: AuditActor;
}

/** The services that mint keys or secrets. */
export interface KeyServiceDeps extends ServiceDeps {
  /** Randomness for keys and webhook secrets; node:crypto by default. */
  randomBytes?: RandomBytes;
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

export interface ServiceContext {
  prisma: PrismaClient;
  clock: Clock;
  /** The actor to record: the one given, else the service's default actor, else SYSTEM_ACTOR. */
  actorOf(actor?: AuditActor): AuditActor;
  /** The operator's row; `not_found` for an unknown or malformed id. */
  requireOperatorRow(operatorId: unknown): Promise<Operator>;
}

export function serviceContext(deps: ServiceDeps): ServiceContext {
  const { prisma } = deps;
  return {
    prisma,
    clock: deps.clock ?? systemClock,
    actorOf: (actor) => actor ?? deps.defaultActor ?? SYSTEM_ACTOR,
    async requireOperatorRow(operatorId) {
      const id = requireId(operatorId, 'operator id');
      const row = await prisma.operator.findUnique({ where: { id } });
      if (!row) throw notFound(`operator ${id} not found`);
      return row;
    },
  };
}

/** A key-minting service's context: serviceContext plus its randomness (node:crypto unless the deps give one). */
export function keyServiceContext(deps: KeyServiceDeps): ServiceContext & { randomBytes: RandomBytes } {
  return { ...serviceContext(deps), randomBytes: deps.randomBytes ?? cryptoRandomBytes };
}

/** A suspended operator is read-only: no new keys. */
export function refuseIfSuspended(operator: { status: string }): void {
  if (operator.status === 'suspended') throw suspended();
}

/**
 * Refuses one more of a capped thing. Run inside the transaction that adds it: the operator's row is locked first,
 * so two concurrent additions are counted one after the other and the cap holds exactly.
 */
export async function enforceCap(
  tx: Pick<PrismaClient, '$queryRaw'>,
  operatorId: string,
  what: string,
  limit: number,
  count: () => Promise<number>,
): Promise<void> {
  await tx.$queryRaw`SELECT id FROM operators WHERE id = ${operatorId} FOR UPDATE`;
  if ((await count()) >= limit) {
    throw limitReached(`An operator can have at most ${limit} ${what}; revoke or remove one first`);
  }
}

/** A freshly minted key colliding with an existing one means broken randomness: say so rather than retry. */
export async function insertKey<T>(insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('a freshly minted key collided with an existing one (check randomBytes)');
    throw error;
  }
}

/** Ids of keys, secret keys and events are uuids; anything else is an unknown id, never a database error. */
export const isUuidShaped = (id: string): boolean => /^[0-9a-f-]{36}$/i.test(id);
