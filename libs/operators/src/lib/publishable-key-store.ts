import {
  createCachedKeyResolver,
  type CachedKeyResolver,
  type KeyRecord,
  type OperatorStatus,
  type PublishableKeyStore,
} from '@expedition/auth-publishable-key';
import type { PrismaClient } from '@expedition/db';
import { systemClock, type Clock, type Logger } from '@expedition/platform';
import { originsForMode } from './origin-rules';

interface KeyRow {
  key_id: string;
  operator_id: string;
  mode: string;
  revoked_at_ms: number | null;
  expires_at_ms: number | null;
  operator_status: string;
  operator_name: string;
  embedding_enabled: boolean;
  integration_tier: number;
  allowed_origins: string[] | null;
}

/**
 * The embed gate's key store over the database (used by embed-api and the widget server): ONE statement loads the
 * key, its operator's status, embedding flag, integration tier and name, and the operator's allowed origins. Instants
 * come back as epoch milliseconds computed in SQL, so no driver time-zone conversion of `timestamp without time zone`
 * can shift a revocation or rotation-grace instant.
 */
export function createPrismaKeyStore(prisma: PrismaClient): PublishableKeyStore {
  return {
    async loadKey(key: string): Promise<KeyRecord | null> {
      const rows = await prisma.$queryRaw<KeyRow[]>`
        SELECT k.id AS key_id,
               k.operator_id,
               k.mode::text AS mode,
               (extract(epoch FROM k.revoked_at) * 1000)::float8 AS revoked_at_ms,
               (extract(epoch FROM k.expires_at) * 1000)::float8 AS expires_at_ms,
               o.status::text AS operator_status,
               o.name AS operator_name,
               o.embedding_enabled,
               o.integration_tier,
               array_remove(array_agg(a.origin ORDER BY a.origin), NULL) AS allowed_origins
          FROM publishable_keys k
          JOIN operators o ON o.id = k.operator_id
          LEFT JOIN allowed_origins a ON a.operator_id = o.id
         WHERE k.key = ${key}
         GROUP BY k.id, o.id`;
      const row = rows[0];
      return row ? toKeyRecord(row) : null;
    },
  };
}

function toKeyRecord(row: KeyRow): KeyRecord | null {
  if (row.mode !== 'test' && row.mode !== 'live') return null;
  return {
    keyId: row.key_id,
    operatorId: row.operator_id,
    mode: row.mode,
    revokedAt: row.revoked_at_ms === null ? null : new Date(Number(row.revoked_at_ms)),
    expiresAt: row.expires_at_ms === null ? null : new Date(Number(row.expires_at_ms)),
    operator: {
      status: toStatus(row.operator_status),
      embeddingEnabled: row.embedding_enabled === true,
      integrationTier: Number(row.integration_tier),
      name: row.operator_name,
    },
    // Loopback origins (localhost, 127.0.0.1…) are accepted for test keys only: a live key never sees them, so the
    // embed gate and the widget's frame-ancestors both ignore them.
    allowedOrigins: originsForMode(row.allowed_origins ?? [], row.mode),
  };
}

function toStatus(status: string): OperatorStatus {
  return status === 'active' || status === 'pending' || status === 'suspended' ? status : 'suspended';
}

export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;

/**
 * The gate's key resolver: the store behind a per-process cache. REVOCATION BOUND: revoking a key, suspending its
 * operator, disabling embedding, changing its tier or removing an allowed origin takes effect on every replica within
 * `ttlMs` (EMBED_KEY_CACHE_TTL_MS, default 5 s) — a cached verdict is reused for at most that long; a rotation-grace
 * `expiresAt` is exact because validity is re-evaluated on every hit. ttlMs 0 disables caching.
 */
export function createKeyResolver(
  prisma: PrismaClient,
  options: { ttlMs?: number; clock?: Clock } = {},
): CachedKeyResolver {
  return createCachedKeyResolver(createPrismaKeyStore(prisma), {
    ttlMs: options.ttlMs ?? DEFAULT_KEY_CACHE_TTL_MS,
    clock: options.clock,
  });
}

/** How often one process writes `publishable_keys.last_used_at` for one key, at most. */
export const KEY_USAGE_WRITE_INTERVAL_MS = 60_000;

export interface KeyUsageRecorder {
  /** Notes a use of the key; writes `last_used_at` at most once per interval per key. Never throws, never awaits. */
  touch(keyId: string): void;
  /** Resolves when the writes started so far have settled (tests, graceful shutdown). */
  flush(): Promise<void>;
}

/**
 * Records when a publishable key was last used (the portal shows it), without a write per request: the first use of a
 * key in each interval starts one `UPDATE` in the background; later uses in the same interval only read a map.
 * A failed write is logged and forgotten (the next interval tries again). Bounded: the map is cleared past 50 000
 * keys, which at worst costs one extra write per key.
 */
export function createKeyUsageRecorder(
  prisma: PrismaClient,
  options: { clock?: Clock; intervalMs?: number; logger?: Pick<Logger, 'warn'> } = {},
): KeyUsageRecorder {
  const clock = options.clock ?? systemClock;
  const intervalMs = options.intervalMs ?? KEY_USAGE_WRITE_INTERVAL_MS;
  const lastWrite = new Map<string, number>();
  const pending = new Set<Promise<void>>();

  function touch(keyId: string): void {
    const now = clock.now();
    const previous = lastWrite.get(keyId);
    if (previous !== undefined && now.getTime() - previous < intervalMs) return;
    if (lastWrite.size >= 50_000) lastWrite.clear();
    lastWrite.set(keyId, now.getTime());
    const write = prisma.publishableKey
      .updateMany({ where: { id: keyId }, data: { lastUsedAt: now } })
      .then(
        () => undefined,
        (err: unknown) => {
          lastWrite.delete(keyId);
          options.logger?.warn({ keyId, err }, 'publishable key lastUsedAt write failed (ignored)');
        },
      )
      .finally(() => pending.delete(write));
    pending.add(write);
  }

  return {
    touch,
    flush: async () => {
      await Promise.all([...pending]);
    },
  };
}
