import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { closedPort } from '@expedition/platform/testing';
// The errors under test are the ones the real database stack throws, so this spec opens a Database the way the apps
// do (a test-only import: http-kit itself never depends on db).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createDatabase, type Database } from '@expedition/db';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { describeWithPostgres, testDatabaseUrl } from '@expedition/db/testing';
import { errorHandler } from '../src/index';

/**
 * A PostgreSQL outage answers 503 + Retry-After on every path, never 500: the errors here are produced for real by
 * pg 8 and Prisma 7 (@prisma/adapter-pg), then rendered by the error handler.
 */
const silent = pino({ level: 'silent' });

/** An app whose one route runs `work` and hands whatever it throws to the error handler. */
function appRunning(work: () => Promise<unknown>) {
  const app = express();
  app.get('/work', async (_req, res) => {
    await work();
    res.json({ done: true });
  });
  app.use(errorHandler(silent));
  return app;
}

async function expectRetryLater(work: () => Promise<unknown>) {
  const res = await request(appRunning(work)).get('/work');
  expect({ status: res.status, retryAfter: res.headers['retry-after'], code: res.body.code }).toEqual({
    status: 503,
    retryAfter: '5',
    code: 'internal_error',
  });
}

describe('a database where nothing listens', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createDatabase({ databaseUrl: `postgresql://postgres@127.0.0.1:${await closedPort()}/test` });
  });
  afterAll(() => db.close());

  it.each([
    ['a model query (Prisma P1001)', () => db.prisma.operator.findFirst()],
    ['a raw query (Prisma P2010, adapter kind DatabaseNotReachable)', () => db.prisma.$queryRaw`SELECT 1`],
    ['an interactive transaction', () => db.prisma.$transaction((tx) => tx.$queryRaw`SELECT 1`)],
    ['pg directly (ECONNREFUSED)', () => db.ping()],
  ])('%s answers 503 + Retry-After', async (_name, work) => {
    await expectRetryLater(work);
  });
});

describe('a database that accepts connections and never answers (frozen, or a network that drops its replies)', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  // With the default connect timeout (10 s), as deployed: an interactive transaction gives up first.
  let db: Database;
  // A short connect timeout, so the test need not wait 10 s for the pool to give up.
  let quick: Database;

  beforeAll(async () => {
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `postgresql://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/test`;
    db = await createDatabase({ databaseUrl: url });
    quick = await createDatabase({ databaseUrl: url, connectTimeoutMs: 500 });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await Promise.all([db.close(), quick.close()]);
  });

  it.each([
    // Prisma stops waiting for a connection after the transaction's maxWait (2 s): P2028 "Unable to start a transaction".
    ['an interactive transaction (Prisma P2028)', () => db.prisma.$transaction((tx) => tx.$queryRaw`SELECT 1`)],
    // The pool gives up after connectTimeoutMs ("timeout exceeded when trying to connect") instead of hanging.
    ['a model query', () => quick.prisma.operator.findFirst()],
    ['pg directly', () => quick.ping()],
  ])('%s answers 503 + Retry-After', async (_name, work) => {
    await expectRetryLater(work);
  });
});

describeWithPostgres()('PostgreSQL ending the connection of an open transaction', () => {
  let db: Database;
  let admin: Client;

  beforeAll(async () => {
    db = await createDatabase({ databaseUrl: testDatabaseUrl(), poolMax: 2 });
    admin = new Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await db.close();
  });

  /** What a fast shutdown or an operator does to one backend: it ends with 57P01 and closes the socket. */
  async function terminate(pid: number): Promise<void> {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  }

  type Tx = Parameters<Parameters<Database['prisma']['$transaction']>[0]>[0];
  async function backendPid(tx: Tx): Promise<number> {
    const rows = await tx.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
    return rows[0]!.pid;
  }

  it('the next query inside the transaction ("…connection error and is not queryable") answers 503 + Retry-After', async () => {
    await expectRetryLater(() =>
      db.prisma.$transaction(async (tx) => {
        await terminate(await backendPid(tx));
        await new Promise((resolve) => setTimeout(resolve, 100)); // let the client read the server's goodbye
        await tx.$queryRaw`SELECT 1`;
      }),
    );
  });

  it('a query running when the connection is terminated (57P01) answers 503 + Retry-After', async () => {
    await expectRetryLater(() =>
      db.prisma.$transaction(async (tx) => {
        const pid = await backendPid(tx);
        await Promise.all([tx.$queryRaw`SELECT pg_sleep(5)::text`, terminate(pid)]);
      }),
    );
  });

  it('the commit of a transaction whose connection was terminated answers 503 + Retry-After', async () => {
    await expectRetryLater(() =>
      db.prisma.$transaction(async (tx) => {
        await terminate(await backendPid(tx));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }),
    );
  });

  it('the pool recovers: the next request after the outage is served', async () => {
    const res = await request(appRunning(() => db.prisma.$queryRaw`SELECT 1`)).get('/work');
    expect(res.status).toBe(200);
  });
});
