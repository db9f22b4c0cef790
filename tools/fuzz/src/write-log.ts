import type { Database } from '@expedition/db';

/**
 * Every row written to a watched table (insert, update, delete) is logged by a trigger into `fuzz_write_log`, so one
 * cheap `max(id)` per input tells whether the request wrote anything, and the log says what. The test database is a
 * throwaway schema (or PGlite), so the triggers never reach a real database.
 */
export async function installWriteLog(db: Database, tables: readonly string[]): Promise<void> {
  const statements = [
    'CREATE TABLE IF NOT EXISTS fuzz_write_log (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL)',
    `CREATE OR REPLACE FUNCTION fuzz_log_write() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN INSERT INTO fuzz_write_log (tbl, op) VALUES (TG_TABLE_NAME, TG_OP); RETURN NULL; END $$`,
    ...tables.map(
      (t) =>
        `DROP TRIGGER IF EXISTS fuzz_write_log ON "${t}"; CREATE TRIGGER fuzz_write_log AFTER INSERT OR UPDATE OR DELETE ON "${t}" FOR EACH ROW EXECUTE FUNCTION fuzz_log_write()`,
    ),
  ];
  await db.withConnection(async (executor) => {
    for (const sql of statements) await executor.exec(sql);
  });
}

/** Activity stamps a refused request may legitimately write (key `last_used_at`, session `last_seen_at`). */
export const IGNORED_WRITES = new Set(['publishable_keys:UPDATE', 'operator_sessions:UPDATE']);

export async function lastWrite(db: Database): Promise<number> {
  const [row] = await db.withConnection((executor) =>
    executor.query<{ id: string | number | null }>('SELECT max(id) AS id FROM fuzz_write_log'),
  );
  return Number(row?.id ?? 0);
}

export async function writesSince(db: Database, id: number): Promise<{ tbl: string; op: string; n: number }[]> {
  const rows = await db.withConnection((executor) =>
    executor.query<{ tbl: string; op: string; n: string | number }>(
      'SELECT tbl, op, count(*) AS n FROM fuzz_write_log WHERE id > $1 GROUP BY tbl, op',
      [id],
    ),
  );
  return rows.map((r) => ({ tbl: r.tbl, op: r.op, n: Number(r.n) }));
}
