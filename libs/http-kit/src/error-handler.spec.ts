import express from 'express';
import request from 'supertest';
import pino from 'pino';
import {
  createFailureLog,
  errorHandler,
  isDependencyUnavailable,
  OUTAGE_LOG_EVERY_MS,
  toAppError,
} from './error-handler';
import { requestId } from './request-id';

/**
 * The shapes a lost, refused or exhausted PostgreSQL connection takes by the time it reaches the error handler,
 * as pg 8 and Prisma 7 with @prisma/adapter-pg produce them (reproduced for real in
 * test/database-outage.spec.ts; these cases pin each shape without a server).
 */
const adapterError = (cause: Record<string, unknown>) =>
  Object.assign(new Error(String(cause['kind'])), { name: 'DriverAdapterError', cause });
const prismaKnown = (code: string, message: string, cause: Record<string, unknown>) =>
  Object.assign(new Error(message), {
    name: 'PrismaClientKnownRequestError',
    code,
    clientVersion: '7.10.0',
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
  });
const socketError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, syscall: 'connect', errno: -111 });
const pgServerError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

const unavailable: Array<[string, unknown]> = [
  ['pg: connect ECONNREFUSED (nothing listens)', socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
  ['pg: read ECONNRESET', socketError('ECONNRESET', 'read ECONNRESET')],
  [
    'pg: getaddrinfo ENOTFOUND (the service name does not resolve yet)',
    socketError('ENOTFOUND', 'getaddrinfo ENOTFOUND db'),
  ],
  [
    'pg: Connection terminated unexpectedly (socket closed mid-query, no code)',
    new Error('Connection terminated unexpectedly'),
  ],
  ['pg: Connection terminated due to connection timeout', new Error('Connection terminated due to connection timeout')],
  [
    'pg: the next query of a transaction whose connection died (no code)',
    Object.assign(new Error('Client has encountered a connection error and is not queryable'), {
      clientVersion: '7.10.0',
    }),
  ],
  ['pg-pool: timeout exceeded when trying to connect', new Error('timeout exceeded when trying to connect')],
  [
    'PostgreSQL 57P01: terminating connection due to administrator command',
    pgServerError('57P01', 'terminating connection due to administrator command'),
  ],
  [
    'PostgreSQL 57P03: the database system is starting up',
    pgServerError('57P03', 'the database system is starting up'),
  ],
  ['PostgreSQL 53300: too many clients already', pgServerError('53300', 'sorry, too many clients already')],
  ['PostgreSQL 08006: connection failure', pgServerError('08006', 'connection failure')],
  [
    'Prisma P1001 (a model query, nothing listens)',
    prismaKnown('P1001', "Can't reach database server at 127.0.0.1:5432", {
      kind: 'DatabaseNotReachable',
      host: '127.0.0.1',
      port: 5432,
    }),
  ],
  [
    'Prisma P2010 raw query, server unreachable (code N/A; only the adapter kind says it)',
    prismaKnown('P2010', 'Raw query failed. Code: `N/A`. Message: `Unreachable`', { kind: 'DatabaseNotReachable' }),
  ],
  [
    'Prisma P2010 raw query, connection reset (kind ConnectionClosed)',
    prismaKnown('P2010', 'Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`', {
      kind: 'ConnectionClosed',
    }),
  ],
  [
    'Prisma P2010 raw query, terminated by the server (kind postgres, originalCode 57P01)',
    prismaKnown('P2010', 'Raw query failed', {
      kind: 'postgres',
      originalCode: '57P01',
      code: '57P01',
      severity: 'FATAL',
    }),
  ],
  ['Prisma P1008 socket timeout', prismaKnown('P1008', 'Operation has timed out', { kind: 'SocketTimeout' })],
  [
    'Prisma P1017 connection closed',
    prismaKnown('P1017', 'Server has closed the connection.', { kind: 'ConnectionClosed' }),
  ],
  [
    'Prisma P2037 too many connections',
    prismaKnown('P2037', 'Too many database connections opened', { kind: 'TooManyConnections', cause: 'sorry' }),
  ],
  ['a bare DriverAdapterError (COMMIT on a reset connection)', adapterError({ kind: 'ConnectionClosed' })],
  [
    'PrismaClientUnknownRequestError whose message carries the pg error',
    Object.assign(new Error('Invalid `prisma.quote.create()` invocation:\n\nConnection terminated unexpectedly'), {
      name: 'PrismaClientUnknownRequestError',
    }),
  ],
  [
    'Prisma P2028 "Unable to start a transaction" (no connection within maxWait: a database that never answers)',
    Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), {
      code: 'P2028',
    }),
  ],
  [
    'any of them wrapped in cause chains',
    new Error('payment failed', {
      cause: new Error('claim failed', { cause: adapterError({ kind: 'DatabaseNotReachable' }) }),
    }),
  ],
];

const notUnavailable: Array<[string, unknown]> = [
  ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  [
    'Prisma P2002 unique violation',
    prismaKnown('P2002', 'Unique constraint failed', { kind: 'UniqueConstraintViolation', originalCode: '23505' }),
  ],
  [
    'Prisma P2021 missing table',
    prismaKnown('P2021', 'The table does not exist', { kind: 'TableDoesNotExist', originalCode: '42P01' }),
  ],
  ['Prisma P2028 transaction API error', Object.assign(new Error('Transaction already closed'), { code: 'P2028' })],
  ['a thrown string', 'boom'],
  [
    'a cause cycle',
    (() => {
      const e = new Error('loop') as Error & { cause?: unknown };
      e.cause = e;
      return e;
    })(),
  ],
];

describe('isDependencyUnavailable', () => {
  it.each(unavailable)('recognises %s', (_name, err) => {
    expect(isDependencyUnavailable(err)).toBe(true);
    expect(toAppError(err).status).toBe(503);
  });

  it.each(notUnavailable)('leaves %s to the 500 path', (_name, err) => {
    expect(isDependencyUnavailable(err)).toBe(false);
    expect(toAppError(err).status).toBe(500);
  });
});

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  const clock = { t: Date.UTC(2026, 10, 28), now: () => new Date(clock.t) };
  return { lines, logger, clock };
}

describe('createFailureLog', () => {
  it('logs a real fault in full every time', () => {
    const { lines, logger, clock } = capture();
    const log = createFailureLog(logger, clock);
    for (let i = 0; i < 3; i++) log(new Error(`bug ${i}`), { reqId: `req-${i}` });
    expect(lines.map((l) => [l['msg'], (l['err'] as { message: string }).message, l['reqId']])).toEqual([
      ['request failed', 'bug 0', 'req-0'],
      ['request failed', 'bug 1', 'req-1'],
      ['request failed', 'bug 2', 'req-2'],
    ]);
    expect(lines.every((l) => !('dependencyUnavailable' in l))).toBe(true);
  });

  it('logs an outage at most once per interval, with the count of the failures it did not log', () => {
    const { lines, logger, clock } = capture();
    const log = createFailureLog(logger, clock);
    log(refused(), { reqId: 'a' }, 'acp request failed');
    for (let i = 0; i < 5; i++) {
      clock.t += 1000;
      log(refused(), { reqId: `b${i}` }, 'acp request failed');
    }
    clock.t += OUTAGE_LOG_EVERY_MS - 5000 - 1;
    log(refused(), { reqId: 'c' }, 'acp request failed'); // 1 ms short of the interval: counted
    clock.t += 1;
    log(refused(), { reqId: 'd' }, 'acp request failed');
    expect(lines.map((l) => [l['msg'], l['reqId'], l['dependencyUnavailable'], l['unloggedSinceLastLine']])).toEqual([
      ['acp request failed', 'a', true, 0],
      ['acp request failed', 'd', true, 6],
    ]);
    expect((lines[1]!['err'] as { code: string }).code).toBe('ECONNREFUSED');
  });

  it('does not let an outage hide a real fault', () => {
    const { lines, logger, clock } = capture();
    const log = createFailureLog(logger, clock);
    log(refused(), { reqId: 'outage' });
    log(refused(), { reqId: 'outage again' });
    log(new Error('a bug during the outage'), { reqId: 'fault' });
    expect(lines.map((l) => l['reqId'])).toEqual(['outage', 'fault']);
  });
});

describe('errorHandler during a database outage', () => {
  it('answers every request 503 with Retry-After, and logs the error once', async () => {
    const { lines, logger, clock } = capture();
    const app = express();
    app.use(requestId());
    app.get('/x', () => {
      throw refused();
    });
    app.use(errorHandler(logger, { clock }));
    for (let i = 0; i < 4; i++) {
      const res = await request(app).get('/x');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
    }
    const failed = lines.filter((l) => l['msg'] === 'request failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ dependencyUnavailable: true, unloggedSinceLastLine: 0 });
  });
});
