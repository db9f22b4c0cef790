import { isDependencyUnavailable, toAppError } from './error-handler';

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
