import { isUniqueViolation, Prisma, prepared, queryRows, type Database } from '../src/index';
import { createTestDatabase, describeWithPostgres } from '../src/testing';

/** One statement of every column kind queryRows promises to read as `$queryRaw` does. */
const probe = (day: Date, instant: Date) =>
  prepared(Prisma.sql`
    SELECT ${day}::date AS day, ${instant}::timestamp(3) AS instant, ${'x'}::text AS text, 7::int AS n,
      9007199254740993::int8 AS big, true AS flag, ${['a', 'b']}::text[] AS texts, ${[1, 2]}::int[] AS ints,
      '{"k":1}'::jsonb AS doc, gen_random_uuid() IS NOT NULL AS has_uuid, NULL::date AS no_day`);

const day = new Date('2027-01-10T00:00:00Z');
const instant = new Date('2026-11-28T23:30:00.123Z');

describeWithPostgres()('queryRows on PostgreSQL (past the ORM, on the pool)', () => {
  let db: Database;
  const seen: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ kind: 'postgres', poolMax: 1, onQuery: (sql) => seen.push(sql) });
    await db.prisma.$executeRawUnsafe(
      'CREATE TABLE direct_rows_probe (code text CONSTRAINT direct_rows_probe_code_key UNIQUE)',
    );
  });

  afterAll(async () => {
    await db?.close();
  });

  const prismaRows = (query: Prisma.Sql) => db.prisma.$queryRaw<Record<string, unknown>[]>(query);

  it('gives the rows $queryRaw gives, with dates and timestamps as UTC instants', async () => {
    // This project's tests run at UTC+12:45 or +13:45 (jest.config.cjs): a date or time taken through local time moves.
    expect(new Date(0).getTimezoneOffset()).toBeLessThan(-720);
    const direct = await queryRows<Record<string, unknown>>(db.prisma, probe(day, instant));
    expect(direct).toEqual(await prismaRows(probe(day, instant)));
    expect(direct).toEqual([
      {
        day,
        instant,
        text: 'x',
        n: 7,
        big: 9007199254740993n,
        flag: true,
        texts: ['a', 'b'],
        ints: [1, 2],
        doc: { k: 1 },
        has_uuid: true,
        no_day: null,
      },
    ]);
  });

  it('goes to the pool, prepared once, and reports its text to onQuery', async () => {
    seen.length = 0;
    const marked = prepared(Prisma.sql`SELECT ${3}::int AS direct_probe`);
    expect(await queryRows(db.prisma, marked)).toEqual([{ direct_probe: 3 }]);
    expect(await queryRows(db.prisma, marked)).toEqual([{ direct_probe: 3 }]);
    expect(seen.filter((s) => s.includes('direct_probe'))).toHaveLength(2);
    const statements = await prismaRows(Prisma.sql`SELECT statement FROM pg_prepared_statements`);
    expect(statements.filter((s) => String(s['statement']).includes('direct_probe'))).toHaveLength(1);
  });

  it('runs a transaction client on its transaction', async () => {
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO direct_rows_probe (code) VALUES ('in-tx')`;
        // On the pool this would not see the uncommitted row (and with one connection it would wait forever).
        expect(await queryRows(tx, Prisma.sql`SELECT code FROM direct_rows_probe`)).toEqual([{ code: 'in-tx' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await queryRows(db.prisma, Prisma.sql`SELECT code FROM direct_rows_probe`)).toEqual([]);
  });

  it("throws pg's error, which isUniqueViolation reads by its constraint", async () => {
    const insert = (code: string) =>
      queryRows(db.prisma, Prisma.sql`INSERT INTO direct_rows_probe (code) VALUES (${code}) RETURNING code`);
    const backend = async () =>
      (await queryRows<{ pid: number }>(db.prisma, Prisma.sql`SELECT pg_backend_pid() AS pid`))[0]!.pid;
    const before = await backend();
    await insert('code-1');
    const err = await insert('code-1').catch((e: unknown) => e);
    // The refused statement left the connection in the pool (of one): not closed and opened again.
    expect(await backend()).toBe(before);
    expect(err).toMatchObject({ code: '23505', constraint: 'direct_rows_probe_code_key' });
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, 'code')).toBe(true);
    expect(isUniqueViolation(err, 'quoteNumber')).toBe(false);
    // The value is never read as the constraint's name.
    await insert('quote_number');
    expect(isUniqueViolation(await insert('quote_number').catch((e: unknown) => e), 'quoteNumber')).toBe(false);
  });

  it('closes a connection whose session the server ended, and the next statement runs on a new one', async () => {
    const pid = (await queryRows<{ pid: number }>(db.prisma, Prisma.sql`SELECT pg_backend_pid() AS pid`))[0]!.pid;
    await expect(queryRows(db.prisma, Prisma.sql`SELECT pg_terminate_backend(pg_backend_pid())`)).rejects.toMatchObject(
      { code: '57P01', severity: 'FATAL' },
    );
    const next = await queryRows<{ pid: number }>(db.prisma, Prisma.sql`SELECT pg_backend_pid() AS pid`);
    expect(next[0]!.pid).not.toBe(pid);
  });
});

describe('queryRows elsewhere', () => {
  it('uses $queryRaw for a client createDatabase did not make over a pool (PGlite, a transaction, a stub)', async () => {
    const rows = [{ one: 1 }];
    const stub = { $queryRaw: jest.fn(async () => rows) };
    const query = Prisma.sql`SELECT 1 AS one`;
    expect(await queryRows(stub as unknown as Parameters<typeof queryRows>[0], query)).toBe(rows);
    expect(stub.$queryRaw).toHaveBeenCalledWith(query);
  });
});
