import { systemClock, type Clock } from '@expedition/platform';
import { normalizeOrigins } from './origin';
import type { Mode } from '@expedition/contracts';
import { parsePublishableKey } from './publishable-key';

export type OperatorStatus = 'pending' | 'active' | 'suspended';

/** What the key store (the db, behind the embed-api app) returns for a publishable key. */
export interface KeyRecord {
  keyId: string;
  operatorId: string;
  mode: Mode;
  /** Any non-null value means revoked, effective immediately (scheduled retirement uses `expiresAt`). */
  revokedAt: Date | null;
  /** Rotation grace: the key works strictly before this instant. */
  expiresAt: Date | null;
  operator: {
    status: OperatorStatus;
    embeddingEnabled: boolean;
    /** The provider's cap on the widget tier (operators.integration_tier, 1..3); absent → 1. */
    integrationTier?: number;
    /** Display name (shown by the widget); absent → ''. */
    name?: string;
  };
  allowedOrigins: readonly string[];
}

/** The port the embed-api app implements over the database. */
export interface PublishableKeyStore {
  loadKey(key: string): Promise<KeyRecord | null>;
}

export interface ResolvedKey {
  keyId: string;
  operatorId: string;
  mode: Mode;
  /** Normalized `scheme://host[:port]` origins. */
  allowedOrigins: readonly string[];
  /** The provider's cap on the widget tier: 1 hosted link, 2 iframe + hosted checkout, 3 checkout in the iframe. */
  integrationTier: IntegrationTier;
  operatorName: string;
}

export type IntegrationTier = 1 | 2 | 3;

/** Clamps a stored tier to 1..3 (a missing or corrupt value is the most restrictive tier). */
export function toIntegrationTier(value: unknown): IntegrationTier {
  return value === 2 || value === 3 ? value : 1;
}

/**
 * A key's verdict: a value when it is answered from memory (the gate's hot path then waits for nothing), a promise
 * when the store is asked. A store failure is a rejected promise, never a throw.
 */
export type ResolveKey = (key: string) => ResolvedKey | null | Promise<ResolvedKey | null>;

/**
 * The spec's validity rule (§5.5): unrevoked, not past its rotation-grace expiry, operator active, and for live keys
 * embedding enabled. Test keys work before live approval. `pending` is NOT active: an operator still being onboarded
 * gets 401 for every key until the provider activates it.
 */
export function verifyKeyRecord(record: KeyRecord, now: number | Date): ResolvedKey | null {
  return isKeyRecordValid(record, typeof now === 'number' ? now : now.getTime()) ? toResolvedKey(record) : null;
}

function isKeyRecordValid(record: KeyRecord, nowMs: number): boolean {
  if (record.revokedAt !== null) return false;
  if (record.expiresAt !== null && nowMs >= record.expiresAt.getTime()) return false;
  if (record.operator.status !== 'active') return false;
  return record.mode === 'test' || record.operator.embeddingEnabled;
}

function toResolvedKey(record: KeyRecord): ResolvedKey {
  return Object.freeze({
    keyId: record.keyId,
    operatorId: record.operatorId,
    mode: record.mode,
    allowedOrigins: Object.freeze(normalizeOrigins(record.allowedOrigins)),
    integrationTier: toIntegrationTier(record.operator.integrationTier),
    operatorName: record.operator.name ?? '',
  });
}

export interface CachedKeyResolverOptions {
  /** How long a store answer (found or not found) is reused. Revocation takes effect within this bound. */
  ttlMs?: number;
  /** Bound on cached known keys (least recently used evicted first). */
  maxEntries?: number;
  /** Separate bound on cached unknown keys, so a flood of random keys cannot evict the real ones. */
  maxNegativeEntries?: number;
  clock?: Clock;
}

export interface CachedKeyResolver {
  /** Resolves a presented key to a valid key, or null (unknown, malformed, revoked, expired, inactive...). */
  resolve: ResolveKey;
  /** Drops one key from this process's cache (other replicas still honour their ttl). */
  invalidate(key: string): void;
  clear(): void;
  /** Number of cached verdicts (positive + negative). */
  size(): number;
}

interface CacheEntry {
  record: KeyRecord | null;
  /** Precomputed once per load so the hot path does no origin parsing. */
  resolved: ResolvedKey | null;
  expiresAtMs: number;
}

/**
 * Key lookups for the hot path. Store answers are cached for `ttlMs`, found and not-found alike; the validity rule
 * itself is re-evaluated on every hit, so a rotation-grace expiry is exact while revocation, suspension and
 * embedding changes in the store become visible within `ttlMs`. Concurrent lookups of one key share one store call.
 * Store errors are never cached and propagate to the caller.
 */
export function createCachedKeyResolver(
  store: PublishableKeyStore,
  options: CachedKeyResolverOptions = {},
): CachedKeyResolver {
  const ttlMs = options.ttlMs ?? 5000;
  const clock = options.clock ?? systemClock;
  const positive = createLru<CacheEntry>(options.maxEntries ?? 10_000);
  const negative = createLru<CacheEntry>(options.maxNegativeEntries ?? 10_000);
  const inFlight = new Map<string, Promise<CacheEntry>>();

  function cached(key: string, now: number): CacheEntry | undefined {
    const entry = positive.get(key) ?? negative.get(key);
    if (entry && entry.expiresAtMs > now) return entry;
    if (entry) invalidate(key);
    return undefined;
  }

  /** The store's answer as a promise: a store that throws synchronously rejects it (resolve never throws). */
  function askStore(key: string): Promise<KeyRecord | null> {
    try {
      return store.loadKey(key);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  function load(key: string): Promise<CacheEntry> {
    const pending = inFlight.get(key);
    if (pending) return pending;
    const promise = askStore(key)
      .then((record) => {
        const entry: CacheEntry = {
          record,
          resolved: record ? toResolvedKey(record) : null,
          expiresAtMs: clock.now().getTime() + ttlMs,
        };
        if (inFlight.get(key) === promise) remember(key, entry);
        return entry;
      })
      .finally(() => {
        if (inFlight.get(key) === promise) inFlight.delete(key);
      });
    inFlight.set(key, promise);
    return promise;
  }

  function remember(key: string, entry: CacheEntry): void {
    if (entry.record) positive.set(key, entry);
    else negative.set(key, entry);
  }

  function invalidate(key: string): void {
    positive.delete(key);
    negative.delete(key);
    inFlight.delete(key);
  }

  function resolve(key: string): ResolvedKey | null | Promise<ResolvedKey | null> {
    const parsed = parsePublishableKey(key);
    if (!parsed) return null;
    const now = clock.now().getTime();
    const hit = cached(key, now);
    if (hit) return verdict(hit, parsed.mode, now);
    // After a store round trip, validity is judged at the time it answered (a rotation-grace expiry is exact).
    return load(key).then((entry) => verdict(entry, parsed.mode, clock.now().getTime()));
  }

  function verdict({ record, resolved }: CacheEntry, mode: Mode, nowMs: number): ResolvedKey | null {
    // A store row whose mode disagrees with the key's own prefix is corrupt data, never a valid key.
    if (!record || record.mode !== mode) return null;
    return isKeyRecordValid(record, nowMs) ? resolved : null;
  }

  return {
    resolve,
    invalidate,
    clear: () => {
      positive.clear();
      negative.clear();
      inFlight.clear();
    },
    size: () => positive.size() + negative.size(),
  };
}

interface Lru<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  clear(): void;
  size(): number;
}

/** Map iteration order is insertion order, so re-inserting on read makes the first key the least recently used. */
function createLru<V>(maxEntries: number): Lru<V> {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error('maxEntries must be a positive integer');
  const map = new Map<string, V>();
  // The most recently used key, already last in the map: reading it again moves nothing (the widget's hot path reads
  // the same few keys over and over, and each move is a delete and an insert).
  let newest: string | undefined;
  return {
    get(key) {
      const value = map.get(key);
      if (value === undefined || key === newest) return value;
      map.delete(key);
      map.set(key, value);
      newest = key;
      return value;
    },
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      newest = key;
      while (map.size > maxEntries) {
        const oldest = map.keys().next();
        if (oldest.done) break;
        map.delete(oldest.value);
      }
    },
    delete: (key) => {
      map.delete(key);
      if (key === newest) newest = undefined;
    },
    clear: () => {
      map.clear();
      newest = undefined;
    },
    size: () => map.size,
  };
}
