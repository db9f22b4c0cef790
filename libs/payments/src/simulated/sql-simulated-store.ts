import type { SimulatedPaymentRecord, SimulatedPaymentStore } from './simulated-store';

/** Runs one parameterised statement and answers its rows (Prisma's `$queryRawUnsafe`, or a `pg` pool). */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * The simulated processor's books on SQL storage: durable, shared by every process that simulates the same
 * "Stripe account", and apart from ours: a schema of their own that our migrations, retention and erasure never
 * touch, so a crash or a restart of an app never erases a charge, as Stripe's never would (docs/decisions.md, "One
 * charge per quote through any crash"). The schema is `simulated_processor` beside a database in `public`, and
 * `<schema>_simulated_processor` beside one in another schema (`?schema=` of DATABASE_URL: a test's own database
 * gets books of its own). Each method is one atomic statement.
 */
export function createSqlSimulatedPaymentStore(run: SqlRunner, schema?: string): SimulatedPaymentStore {
  let tables: Promise<{ payments: string; tokens: string; events: string }> | null = null;

  const ensure = () =>
    (tables ??= (async () => {
      const books = schema ?? booksSchemaBeside(String((await run('SELECT current_schema() AS s', []))[0]?.['s']));
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(books)) throw new Error(`not a schema name: ${books}`);
      const payments = `"${books}"."payments"`;
      const tokens = `"${books}"."spent_tokens"`;
      const events = `"${books}"."events"`;
      const ddl = [
        `CREATE SCHEMA IF NOT EXISTS "${books}"`,
        `CREATE TABLE IF NOT EXISTS ${payments} (
           payment_id text PRIMARY KEY,
           idempotency_key text NOT NULL UNIQUE,
           quote_id text,
           version integer NOT NULL,
           record jsonb NOT NULL,
           created_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE INDEX IF NOT EXISTS payments_quote_id_idx ON ${payments} (quote_id)`,
        `CREATE TABLE IF NOT EXISTS ${tokens} (token text PRIMARY KEY, payment_id text NOT NULL)`,
        `CREATE TABLE IF NOT EXISTS ${events} (
           event_id text PRIMARY KEY,
           body text NOT NULL,
           attempts integer NOT NULL DEFAULT 0,
           queued_at timestamptz NOT NULL DEFAULT now(),
           next_attempt_at timestamptz)`,
        `CREATE INDEX IF NOT EXISTS events_due_idx ON ${events} (next_attempt_at)`,
      ];
      for (const statement of ddl) {
        // Two processes creating the books at once: the loser's IF NOT EXISTS can still meet the winner's row.
        await run(statement, []).catch(async () => run(statement, []));
      }
      return { payments, tokens, events };
    })().catch((err: unknown) => {
      tables = null;
      throw err;
    }));

  const recordOf = (row: Record<string, unknown> | undefined): SimulatedPaymentRecord | undefined => {
    if (!row) return undefined;
    const raw = row['record'];
    return (typeof raw === 'string' ? JSON.parse(raw) : raw) as SimulatedPaymentRecord;
  };

  return {
    async insert(record) {
      const { payments } = await ensure();
      const inserted = await run(
        `INSERT INTO ${payments} (payment_id, idempotency_key, quote_id, version, record)
         VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT (idempotency_key) DO NOTHING RETURNING payment_id`,
        [
          record.intent.id,
          record.idempotencyKey,
          record.intent.metadata['quoteId'] ?? null,
          record.version,
          JSON.stringify(record),
        ],
      );
      if (inserted.length === 1) return { record, inserted: true };
      const existing = await run(`SELECT record FROM ${payments} WHERE idempotency_key = $1`, [record.idempotencyKey]);
      return { record: recordOf(existing[0]) ?? record, inserted: false };
    },
    async get(paymentId) {
      const { payments } = await ensure();
      return recordOf((await run(`SELECT record FROM ${payments} WHERE payment_id = $1`, [paymentId]))[0]);
    },
    async update(next, expectedVersion) {
      const { payments } = await ensure();
      const updated = await run(
        `UPDATE ${payments} SET record = $2::jsonb, version = $3 WHERE payment_id = $1 AND version = $4
         RETURNING payment_id`,
        [next.intent.id, JSON.stringify(next), next.version, expectedVersion],
      );
      return updated.length === 1;
    },
    async claimToken(token, owner) {
      const { tokens } = await ensure();
      const claimed = await run(
        `INSERT INTO ${tokens} (token, payment_id) VALUES ($1, $2)
         ON CONFLICT (token) DO UPDATE SET payment_id = excluded.payment_id WHERE ${tokens}.payment_id = excluded.payment_id
         RETURNING token`,
        [token, owner],
      );
      return claimed.length === 1;
    },
    async queueEvent(eventId, body, at, dueAt) {
      const { events } = await ensure();
      await run(
        `INSERT INTO ${events} (event_id, body, queued_at, next_attempt_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (event_id) DO NOTHING`,
        [eventId, body, at, dueAt],
      );
    },
    async claimDueEvents(now, limit, leaseMs) {
      const { events } = await ensure();
      const rows = await run(
        `UPDATE ${events} SET next_attempt_at = $2 WHERE event_id IN (
           SELECT event_id FROM ${events} WHERE next_attempt_at <= $1
           ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING event_id, body, attempts, queued_at`,
        [now, new Date(now.getTime() + leaseMs), limit],
      );
      return rows.map((row) => ({
        eventId: String(row['event_id']),
        body: String(row['body']),
        attempts: Number(row['attempts']),
        queuedAt: new Date(row['queued_at'] as string | Date),
      }));
    },
    async recordEventAttempt(eventId, attempt) {
      const { events } = await ensure();
      if (attempt.delivered) {
        // Nothing more to do with it: the books keep only what is still to be delivered.
        await run(`DELETE FROM ${events} WHERE event_id = $1`, [eventId]);
        return;
      }
      await run(`UPDATE ${events} SET attempts = attempts + 1, next_attempt_at = $2 WHERE event_id = $1`, [
        eventId,
        attempt.nextAt,
      ]);
    },
    async findByQuote(quoteId) {
      const { payments } = await ensure();
      const rows = await run(`SELECT record FROM ${payments} WHERE quote_id = $1 ORDER BY created_at`, [quoteId]);
      return rows.map((row) => recordOf(row)!);
    },
  };
}

/** The simulated processor's books in the app's database (under their own schema), through its Prisma client. */
export function simulatedBooks(db: {
  prisma: { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T> };
}): SimulatedPaymentStore {
  return createSqlSimulatedPaymentStore(async (sql, params) =>
    db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params),
  );
}

/** Where the books live beside a database whose tables are in `schema` (see createSqlSimulatedPaymentStore). */
export function booksSchemaBeside(schema: string): string {
  return schema === 'public' ? 'simulated_processor' : `${schema.slice(0, 42)}_simulated_processor`;
}
