import type { Pool, PoolClient } from 'pg';
import type { PGlite, Transaction } from '@electric-sql/pglite';

/** The smallest SQL surface the migration runner needs; implemented over `pg` and PGlite. */
export interface SqlExecutor {
  /** Runs a script (may hold several statements; no parameters). */
  exec(sql: string): Promise<void>;
  /** Runs one parameterized statement and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs fn in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

/** Hands out one dedicated connection for the callback (session state such as advisory locks lives on it). */
export type WithConnection = <T>(fn: (executor: SqlExecutor) => Promise<T>) => Promise<T>;

export function pgClientExecutor(client: Pick<PoolClient, 'query'>): SqlExecutor {
  const executor: SqlExecutor = {
    async exec(sql) {
      // No values: pg uses the simple protocol, which accepts multi-statement scripts.
      await client.query(sql);
    },
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await client.query(sql, params);
      return result.rows as Row[];
    },
    async transaction(fn) {
      await client.query('BEGIN');
      try {
        const result = await fn(executor);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
  };
  return executor;
}

export function pgPoolConnections(pool: Pool): WithConnection {
  return async (fn) => {
    const client = await pool.connect();
    // A checked-out client has no 'error' listener of the pool's: a connection that drops between two queries (the
    // server restarting mid-migration) would be an unhandled 'error' event, which ends the process. Kept instead:
    // the next query fails and says so, and the broken client is destroyed rather than returned to the pool.
    let lost: Error | undefined;
    const onError = (err: Error) => {
      lost = err;
    };
    client.on('error', onError);
    try {
      return await fn(pgClientExecutor(client));
    } finally {
      client.off('error', onError);
      client.release(lost);
    }
  };
}

function pgliteTransactionExecutor(tx: Transaction): SqlExecutor {
  const executor: SqlExecutor = {
    async exec(sql) {
      await tx.exec(sql);
    },
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await tx.query<Row>(sql, params)).rows;
    },
    // Already inside one; PGlite has no nested transactions to offer here.
    transaction: (fn) => fn(executor),
  };
  return executor;
}

export function pgliteExecutor(pglite: Pick<PGlite, 'exec' | 'query' | 'transaction'>): SqlExecutor {
  return {
    async exec(sql) {
      await pglite.exec(sql);
    },
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await pglite.query<Row>(sql, params)).rows;
    },
    // PGlite's own transaction() holds its lock, so queries from other callers (Prisma) wait instead of
    // landing inside this transaction on the single shared connection.
    transaction: (fn) => pglite.transaction((tx) => fn(pgliteTransactionExecutor(tx))),
  };
}

export function pgliteConnections(pglite: Pick<PGlite, 'exec' | 'query' | 'transaction'>): WithConnection {
  const executor = pgliteExecutor(pglite);
  return (fn) => fn(executor);
}
