import { DatabaseError, types as pgTypes, type Pool } from 'pg';
import type { Prisma } from './generated/prisma/client';
import { preparedStatementName } from './prepared';

/** Runs one raw statement and gives its rows. */
type RunRows = (query: Prisma.Sql) => Promise<unknown[]>;

/** Any Prisma client or transaction client; only ours (made by createDatabase over a pool) have a direct runner. */
type RawClient = Pick<Prisma.TransactionClient, '$queryRaw'>;

const directRunners = new WeakMap<object, RunRows>();

/**
 * The rows of one raw statement, as `prisma.$queryRaw(query)` gives them, for the hottest paths (the quote insert, the
 * delivery worker's claim and record).
 * On PostgreSQL, with a client createDatabase made, the statement goes straight to the client's own pool: Prisma's
 * request pipeline around a raw statement (parameter and result conversion, its query interpreter) cost about half of
 * the CPU of a quote creation (docs/decisions.md, "Raw statements past the ORM"). A transaction client, PGlite's
 * client and any other one use `$queryRaw`, so a statement inside a transaction stays on its transaction.
 *
 * Same rows as `$queryRaw` for text, uuid, enum, integer, boolean, json, date and timestamp columns and arrays of
 * text, integers and enums (test/direct-rows.spec.ts and quote-insert.spec.ts compare the two). A statement whose columns are numeric, bigint
 * arrays or arrays of dates keeps `$queryRaw`. Errors are pg's own (a unique violation is `code` 23505 with its
 * `constraint`; isUniqueViolation reads both shapes).
 */
export function queryRows<Row>(client: RawClient, query: Prisma.Sql): Promise<Row[]> {
  const direct = directRunners.get(client);
  return (direct ? direct(query) : client.$queryRaw(query)) as Promise<Row[]>;
}

/** Gives `prisma` its direct runner over `pool` (createDatabase, PostgreSQL only). */
export function runRowsOnPool(prisma: object, pool: Pool, onQuery?: (sql: string) => void): void {
  directRunners.set(prisma, async (query) => {
    const text = query.text;
    onQuery?.(text);
    const name = preparedStatementName({ sql: text });
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const result = await client.query({
        ...(name ? { name } : {}),
        text,
        values: query.values.map(toParameter),
        types: AS_PRISMA_READS,
      });
      return result.rows;
    } catch (err) {
      // A statement PostgreSQL refused (a unique violation, say) leaves the connection as good as it was, and its
      // prepared statements with it: it goes back to the pool. `pool.query` would close it on any error, so a burst
      // of refused statements became a burst of new connections. A FATAL one (the server shutting the session) or
      // anything else (the socket) may have broken it: it is closed.
      if (!(err instanceof DatabaseError) || err.severity === 'FATAL' || err.severity === 'PANIC')
        broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      client.release(broken);
    }
  });
}

/**
 * A Date as Prisma sends it: its UTC instant. pg's own conversion writes local time with an offset, and PostgreSQL
 * drops the offset when the parameter is cast to `date` or `timestamp` (without time zone), the types Prisma's
 * DateTime columns have: away from UTC, the stored day or time would move.
 */
function toParameter(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

const INT8 = 20;
const DATE = 1082;
const TIMESTAMP = 1114;

/** Column values as Prisma reads them: a date or timestamp (without time zone) is a UTC instant, an int8 a bigint. */
const AS_PRISMA_READS = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP) return (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
    if (oid === DATE) return (text: string) => new Date(`${text}T00:00:00Z`);
    if (oid === INT8) return (text: string) => BigInt(text);
    return pgTypes.getTypeParser(oid, format);
  },
};
