import {
  createCachedKeyResolver,
  type CachedKeyResolver,
  type KeyRecord,
  type OperatorStatus,
  type PublishableKeyStore,
} from '@expedition/auth-publishable-key';
import type { PrismaClient } from '@expedition/db';
import type { Clock } from '@expedition/platform';

interface KeyRow {
  key_id: string;
  operator_id: string;
  mode: string;
  revoked_at_ms: number | null;
  expires_at_ms: number | null;
  operator_status: string;
  embedding_enabled: boolean;
  allowed_origins: string[] | null;
}

/**
 * The gate's key store over the database: ONE statement loads the key, its operator's status and embedding flag, and
 * the operator's allowed origins. Instants come back as epoch milliseconds computed in SQL, so no driver time-zone
 * conversion of `timestamp without time zone` can shift a revocation or rotation-grace instant.
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
               o.embedding_enabled,
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
    operator: { status: toStatus(row.operator_status), embeddingEnabled: row.embedding_enabled === true },
    allowedOrigins: row.allowed_origins ?? [],
  };
}

function toStatus(status: string): OperatorStatus {
  return status === 'active' || status === 'pending' || status === 'suspended' ? status : 'suspended';
}

export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;

/**
 * The gate's key resolver: the store behind a per-process cache. REVOCATION BOUND: revoking a key, suspending its
 * operator, disabling embedding or removing an allowed origin takes effect on every replica within `ttlMs`
 * (EMBED_KEY_CACHE_TTL_MS, default 5 s) — a cached verdict is reused for at most that long; a rotation-grace
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
