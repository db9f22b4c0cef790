import fs from 'node:fs';
import { createDatabase, type Database } from '../src/index';
import { createTestDatabase } from '../src/testing';

/**
 * Prisma's errors are 'minimal' whatever NODE_ENV says (src/database.ts, prismaClient). Prisma's default outside
 * production reads the calling source file whole on every failed query, to quote the lines around the call: in a
 * bundled app that file is the 10 MB bundle, read on the event loop once per error. Here the caller is this file, so a
 * read of it shows the default is back.
 */
describe('a failed Prisma query does not read its caller’s source file', () => {
  const nodeEnv = process.env['NODE_ENV'];
  beforeAll(() => {
    process.env['NODE_ENV'] = 'development';
  });
  afterAll(() => {
    process.env['NODE_ENV'] = nodeEnv;
  });

  async function failure(db: Database, run: (db: Database) => Promise<unknown>) {
    const reads = jest.spyOn(fs, 'readFileSync');
    try {
      const error = await run(db).then(
        () => new Error('the query succeeded'),
        (err: unknown) => err as Error,
      );
      const callerReads = reads.mock.calls
        .map(([file]) => String(file))
        .filter((f) => f.includes('prisma-errors.spec'));
      return { message: error.message, callerReads };
    } finally {
      reads.mockRestore();
      await db.close();
    }
  }

  it('when the server is unreachable', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const db = await createDatabase({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/none', connectTimeoutMs: 2_000 });
    const { message, callerReads } = await failure(db, (d) => d.prisma.$queryRaw`SELECT 1`);
    expect(message).toMatch(/reach database server|ECONNREFUSED/);
    expect(callerReads).toEqual([]);
  });

  it('when the database refuses the statement (PostgreSQL when reachable, else PGlite)', async () => {
    const db = await createTestDatabase();
    const { message, callerReads } = await failure(db, (d) => d.prisma.$queryRawUnsafe('SELECT * FROM no_such_table'));
    expect(message).toContain('no_such_table');
    expect(callerReads).toEqual([]);
  });
});
