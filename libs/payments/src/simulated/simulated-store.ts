import type { Mode } from '@expedition/contracts/rules';
import type { TestOutcome } from '../magic-test-values';
import type { StripeIntentLike } from '../stripe-format';

export interface SimulatedPaymentRecord {
  intent: StripeIntentLike;
  mode: Mode;
  idempotencyKey: string;
  /** Hash of the creating request: reusing a key with other parameters is an error, as at Stripe. */
  requestFingerprint: string;
  /** Optimistic-lock counter, incremented by every update. */
  version: number;
  refunds?: SimulatedRefund[];
  /**
   * A settlement still being applied (status `processing`): its outcome and the hash of its single-use token. A real
   * processor finishes what it started even when its caller dies; the simulated one runs in the caller's process, so
   * whoever reads an abandoned one finishes it (simulated-processor.ts, `finishAbandoned`).
   */
  pending?: { outcome: TestOutcome; tokenHash: string };
}

export interface SimulatedRefund {
  id: string;
  amount: number;
  reason: string;
  idempotencyKey: string;
}

/**
 * Where the simulated processor keeps its payment intents. One process: the in-memory default. Several
 * processes sharing one simulated "Stripe" (quote-api + embed-api as separate deployments): implement this
 * port on shared storage (a table or Redis keys) and hand the same implementation to each process.
 * Every method must be atomic on its own; the processor needs nothing more.
 */
export interface SimulatedPaymentStore {
  /** Stores the record unless its idempotencyKey is taken; then returns the record stored under that key. */
  insert(record: SimulatedPaymentRecord): Promise<{ record: SimulatedPaymentRecord; inserted: boolean }>;
  get(paymentId: string): Promise<SimulatedPaymentRecord | undefined>;
  /** Replaces the record only if the stored version is still `expectedVersion`; false otherwise. */
  update(next: SimulatedPaymentRecord, expectedVersion: number): Promise<boolean>;
  /**
   * Marks a single-use token (an SPT, by its hash) as spent by `owner` (the payment that uses it); true when it is
   * now, or already was, this owner's: a settlement finished again after a crash keeps its token.
   */
  claimToken(token: string, owner: string): Promise<boolean>;
  /** Every record whose metadata names this quote, oldest first (the processor's search). */
  findByQuote(quoteId: string): Promise<SimulatedPaymentRecord[]>;
  /** Keeps an event (its JSON), made `at`, until it is delivered; due for a re-send at `dueAt`. */
  queueEvent(eventId: string, body: string, at: Date, dueAt: Date): Promise<void>;
  /** Up to `limit` undelivered events due at `now`, each held from other callers for `leaseMs`. */
  claimDueEvents(now: Date, limit: number, leaseMs: number): Promise<QueuedEvent[]>;
  /** An attempt's end: delivered (the event is forgotten), or due again at `nextAt` (null: given up). */
  recordEventAttempt(
    eventId: string,
    attempt: { delivered: true; at: Date } | { delivered: false; at: Date; nextAt: Date | null },
  ): Promise<void>;
}

export interface QueuedEvent {
  eventId: string;
  body: string;
  /** Re-sends made so far. */
  attempts: number;
  queuedAt: Date;
}

/** The in-memory store also lists what it holds, so tests can count charges and refunds "at the processor". */
export interface InMemorySimulatedPaymentStore extends SimulatedPaymentStore {
  all(): SimulatedPaymentRecord[];
}

export function createInMemorySimulatedPaymentStore(): InMemorySimulatedPaymentStore {
  const byId = new Map<string, SimulatedPaymentRecord>();
  const idByKey = new Map<string, string>();
  const tokens = new Map<string, string>();
  const events = new Map<string, QueuedEvent & { dueAt: Date | null }>();
  // Copies in and out so callers cannot mutate stored state behind the store's back, as with a real database.
  const copy = (record: SimulatedPaymentRecord) => structuredClone(record);

  return {
    async insert(record) {
      const existingId = idByKey.get(record.idempotencyKey);
      const existing = existingId === undefined ? undefined : byId.get(existingId);
      if (existing) return { record: copy(existing), inserted: false };
      byId.set(record.intent.id, copy(record));
      idByKey.set(record.idempotencyKey, record.intent.id);
      return { record: copy(record), inserted: true };
    },
    async get(paymentId) {
      const found = byId.get(paymentId);
      return found ? copy(found) : undefined;
    },
    async update(next, expectedVersion) {
      const current = byId.get(next.intent.id);
      if (!current || current.version !== expectedVersion) return false;
      byId.set(next.intent.id, copy(next));
      return true;
    },
    all() {
      return [...byId.values()].map(copy);
    },
    async queueEvent(eventId, body, at, dueAt) {
      if (!events.has(eventId)) events.set(eventId, { eventId, body, attempts: 0, queuedAt: at, dueAt });
    },
    async claimDueEvents(now, limit, leaseMs) {
      const due = [...events.values()]
        .filter((e) => e.dueAt && e.dueAt <= now)
        .sort((a, b) => a.dueAt!.getTime() - b.dueAt!.getTime())
        .slice(0, limit);
      for (const e of due) e.dueAt = new Date(now.getTime() + leaseMs);
      return due.map(({ eventId, body, attempts, queuedAt }) => ({ eventId, body, attempts, queuedAt }));
    },
    async recordEventAttempt(eventId, attempt) {
      const e = events.get(eventId);
      if (!e) return;
      if (attempt.delivered) events.delete(eventId);
      else Object.assign(e, { attempts: e.attempts + 1, dueAt: attempt.nextAt });
    },
    async findByQuote(quoteId) {
      return [...byId.values()].filter((record) => record.intent.metadata['quoteId'] === quoteId).map(copy);
    },
    async claimToken(token, owner) {
      const spentBy = tokens.get(token);
      if (spentBy !== undefined) return spentBy === owner;
      tokens.set(token, owner);
      return true;
    },
  };
}
