import { createTestClock } from '@expedition/platform/testing';
import { type KeyRecord, verifyKeyRecord } from '@expedition/auth-publishable-key';
import type { PrismaClient } from '@expedition/db';
import { type Keyring, createSecretBox } from '../src/lib/secret-box';

/** A clock tests can move. */
export const testClock = createTestClock;

/** A keyring of fixed test keys (never use these anywhere else); `keyring('b', 'a')` seals under b, opens both. */
export function testKeyring(...kids: string[]): Keyring {
  const ids = kids.length ? kids : ['a'];
  return ids.map((kid) => ({ kid, key: Buffer.alloc(32, kid.charCodeAt(0)) })) as unknown as Keyring;
}

export const testSecretBox = (...kids: string[]) => createSecretBox(testKeyring(...kids));

/** Deterministic randomness: a different, recognisable byte pattern on every call. */
export function countingRandomBytes() {
  let call = 0;
  return (size: number): Uint8Array => {
    call += 1;
    return Uint8Array.from({ length: size }, (_, i) => (call * 31 + i) % 256);
  };
}

/**
 * Whether the embed gate would accept this key at `now`: the stored rows run through the auth lib's own validity
 * rule (verifyKeyRecord), so these tests prove what the gate will see, not what this lib believes.
 */
export async function gateAccepts(prisma: PrismaClient, key: string, now: Date): Promise<boolean> {
  const row = await prisma.publishableKey.findUnique({
    where: { key },
    include: { operator: { include: { allowedOrigins: true } } },
  });
  if (!row) return false;
  const record: KeyRecord = {
    keyId: row.id,
    operatorId: row.operatorId,
    mode: row.mode,
    revokedAt: row.revokedAt,
    expiresAt: row.expiresAt,
    operator: { status: row.operator.status, embeddingEnabled: row.operator.embeddingEnabled },
    allowedOrigins: row.operator.allowedOrigins.map((o) => o.origin),
  };
  return verifyKeyRecord(record, now) !== null;
}
