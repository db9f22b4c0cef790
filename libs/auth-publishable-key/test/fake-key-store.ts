import type { KeyRecord, PublishableKeyStore } from '../src';

/** In-memory stand-in for the db-backed store the embed-api app implements; counts calls for cache tests. */
export interface FakeKeyStore extends PublishableKeyStore {
  records: Map<string, KeyRecord>;
  calls: string[];
  put(key: string, record: KeyRecord): void;
  update(key: string, patch: Partial<KeyRecord>): void;
}

export function createFakeKeyStore(): FakeKeyStore {
  const records = new Map<string, KeyRecord>();
  const calls: string[] = [];
  return {
    records,
    calls,
    async loadKey(key) {
      calls.push(key);
      return records.get(key) ?? null;
    },
    put: (key, record) => void records.set(key, record),
    update(key, patch) {
      const current = records.get(key);
      if (!current) throw new Error('no such key');
      records.set(key, { ...current, ...patch });
    },
  };
}

let seq = 0;

export function keyRecord(overrides: Partial<KeyRecord> = {}): KeyRecord {
  seq += 1;
  return {
    keyId: `key_${seq}`,
    operatorId: `op_${seq}`,
    mode: 'test',
    revokedAt: null,
    expiresAt: null,
    operator: { status: 'active', embeddingEnabled: true },
    allowedOrigins: ['https://shop.example.com'],
    ...overrides,
  };
}
