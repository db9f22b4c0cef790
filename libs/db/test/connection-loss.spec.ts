import { Client } from 'pg';
import type { Database } from '../src/index';
import { createTestDatabase, describeWithPostgres, testDatabaseUrl } from '../src/testing';

/**
 * A dedicated connection (`withConnection`: migrations at start, under an advisory lock) whose server side goes away
 * between two queries, as when PostgreSQL restarts mid-migration. pg emits an 'error' event on the checked-out client;
 * unheard, that event ends the whole process. The next query must fail instead, and the pool must go on serving.
 */
describeWithPostgres()('a dedicated connection that drops between two queries', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase({ kind: 'postgres' });
  });
  afterAll(() => db.close());

  it('fails the next query instead of ending the process, and the pool serves the next caller', async () => {
    const failure = await db.withConnection(async (sql) => {
      const [row] = await sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const killer = new Client({ connectionString: testDatabaseUrl() });
      await killer.connect();
      await killer.query('SELECT pg_terminate_backend($1)', [row!.pid]);
      await killer.end();
      // The server's goodbye arrives while no query is running: the 'error' event fires now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return sql.query('SELECT 1').then(
        () => null,
        (err: unknown) => err,
      );
    });

    expect(failure).toBeInstanceOf(Error);
    expect(await db.withConnection((sql) => sql.query('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
  });

  it('a Prisma transaction whose connection drops between two statements fails; the process goes on', async () => {
    const failure = await db.prisma
      .$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        const killer = new Client({ connectionString: testDatabaseUrl() });
        await killer.connect();
        await killer.query('SELECT pg_terminate_backend($1)', [row!.pid]);
        await killer.end();
        // As when PostgreSQL restarts while the transaction's code runs between two statements.
        await new Promise((resolve) => setTimeout(resolve, 300));
        return tx.$queryRaw`SELECT 1`;
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(await db.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });
});
