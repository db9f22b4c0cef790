import type { SimulatedPaymentRecord, SimulatedPaymentStore } from './simulated-store';

/** Runs one parameterised statement and answers its rows (Prisma's `$queryRawUnsafe`, or a `pg` pool). */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * The simulated processor's books on SQL storage: durable, shared by every process that simulates the same
 * "Stripe account", and apart from ours: a schema of its own (default `simulated_processor`) that our migrations,
 * retention and erasure never touch, so a crash or a restart of an app never erases a charge, as Stripe's never
 * would (docs/decisions.md, "One charge per quote through any crash"). Each method is one atomic statement.
 */
export function createSqlSimulatedPaymentStore(run: SqlRunner, schema = 'simulated_processor'): SimulatedPaymentStore {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`not a schema name: ${schema}`);
  const payments = `"${schema}"."payments"`;
  const tokens = `"${schema}"."spent_tokens"`;
  let ready: Promise<void> | null = null;

  const ensure = () =>
    (ready ??= (async () => {
      const ddl = [
        `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
        `CREATE TABLE IF NOT EXISTS ${payments} (
           payment_id text PRIMARY KEY,
           idempotency_key text NOT NULL UNIQUE,
           quote_id text,
           version integer NOT NULL,
           record jsonb NOT NULL,
           created_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE INDEX IF NOT EXISTS payments_quote_id_idx ON ${payments} (quote_id)`,
        `CREATE TABLE IF NOT EXISTS ${tokens} (token text PRIMARY KEY, payment_id text NOT NULL)`,
      ];
      for (const statement of ddl) {
        // Two processes creating the books at once: the loser's IF NOT EXISTS can still meet the winner's row.
        await run(statement, []).catch(async () => run(statement, []));
      }
    })().catch((err: unknown) => {
      ready = null;
      throw err;
    }));

  const recordOf = (row: Record<string, unknown> | undefined): SimulatedPaymentRecord | undefined => {
    if (!row) return undefined;
    const raw = row['record'];
    return (typeof raw === 'string' ? JSON.parse(raw) : raw) as SimulatedPaymentRecord;
  };

  return {
    async insert(record) {
      await ensure();
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
      await ensure();
      return recordOf((await run(`SELECT record FROM ${payments} WHERE payment_id = $1`, [paymentId]))[0]);
    },
    async update(next, expectedVersion) {
      await ensure();
      const updated = await run(
        `UPDATE ${payments} SET record = $2::jsonb, version = $3 WHERE payment_id = $1 AND version = $4
         RETURNING payment_id`,
        [next.intent.id, JSON.stringify(next), next.version, expectedVersion],
      );
      return updated.length === 1;
    },
    async claimToken(token, paymentId) {
      await ensure();
      const claimed = await run(
        `INSERT INTO ${tokens} (token, payment_id) VALUES ($1, $2) ON CONFLICT (token) DO NOTHING RETURNING token`,
        [token, paymentId],
      );
      return claimed.length === 1;
    },
    async findByQuote(quoteId) {
      await ensure();
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
