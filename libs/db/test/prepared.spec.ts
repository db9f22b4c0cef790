import { Prisma, prepared, type Database } from '../src/index';
import { createTestDatabase, describeWithPostgres } from '../src/testing';

// One connection, so every statement below runs on the session whose prepared statements we read.
describeWithPostgres()('prepared statements on PostgreSQL', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDatabase({ kind: 'postgres', poolMax: 1 });
  });

  afterAll(async () => {
    await db?.close();
  });

  const named = () =>
    db.prisma.$queryRaw<{ name: string; statement: string }[]>`
      SELECT name, statement FROM pg_prepared_statements ORDER BY prepare_time`;

  it('prepares a marked statement once per connection and reuses it', async () => {
    const marked = (n: number) => prepared(Prisma.sql`SELECT ${n}::int + 1 AS next`);
    expect(await db.prisma.$queryRaw(marked(1))).toEqual([{ next: 2 }]);
    expect(await db.prisma.$queryRaw(marked(41))).toEqual([{ next: 42 }]);
    const mine = (await named()).filter((s) => s.statement.includes('AS next'));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.name).toMatch(/^p[A-Za-z0-9_-]{27}$/);
  });

  it('names every distinct text apart, and leaves unmarked statements unnamed', async () => {
    await db.prisma.$queryRaw(prepared(Prisma.sql`SELECT ${1}::int AS other`));
    await db.prisma.$queryRaw`SELECT ${1}::int AS unmarked`;
    await db.prisma.operator.count();
    const statements = (await named()).map((s) => s.statement);
    expect(statements.filter((s) => s.includes('AS other'))).toHaveLength(1);
    expect(statements.some((s) => s.includes('AS unmarked'))).toBe(false);
    expect(statements.some((s) => s.includes('operators'))).toBe(false);
  });

  it('keeps a statement prepared after it failed inside a rolled-back transaction', async () => {
    const failing = (n: number) => prepared(Prisma.sql`SELECT 1 / ${n}::int AS ratio`);
    await expect(db.prisma.$transaction((tx) => tx.$queryRaw(failing(0)))).rejects.toThrow(/division by zero/);
    expect(await db.prisma.$queryRaw(failing(1))).toEqual([{ ratio: 1 }]);
  });
});
