import { EventEmitter } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { Client } from 'pg';
import { closedPort } from '@expedition/platform/testing';
import type { Redis } from 'ioredis';
import { ConfigError } from '@expedition/platform';
import {
  DependencyUnreachableError,
  diagnoseConnectionFailure,
  logRedisOutages,
  postgresAt,
  reachAtStart,
  redisAt,
  startFailureOutput,
  targetOf,
  unreachableLine,
} from './start';

const quietLogger = () => ({ debug: jest.fn(), info: jest.fn(), warn: jest.fn() });

/** What pg really throws when nothing listens at `url`. */
async function pgConnectError(url: string): Promise<unknown> {
  const client = new Client({ connectionString: url });
  return client.connect().then(
    () => client.end().then(() => new Error('expected the connection to fail')),
    (err: unknown) => err,
  );
}

describe('targetOf', () => {
  it('names host:port only, never the user, password or database', () => {
    expect(targetOf(postgresAt('postgresql://app:s3cret@db.internal:6543/expedition?sslmode=require'))).toBe(
      'db.internal:6543',
    );
  });

  it('fills in the default port and a socket host', () => {
    expect(targetOf(postgresAt('postgresql://app@db/expedition'))).toBe('db:5432');
    expect(targetOf(postgresAt('postgresql:///expedition?host=/var/run/postgresql'))).toBe('/var/run/postgresql:5432');
    expect(targetOf(redisAt('redis://:pw@cache'))).toBe('cache:6379');
  });
});

describe('diagnoseConnectionFailure', () => {
  const pgError = (code: string) => Object.assign(new Error('server said no'), { code, severity: 'FATAL' });
  it.each([
    [
      'ECONNREFUSED',
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }),
      'connection refused',
    ],
    ['ENOTFOUND', Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND' }), 'host name not found'],
    ['28P01 (password)', pgError('28P01'), 'it refused the credentials'],
    ['3D000 (no database)', pgError('3D000'), 'the database does not exist'],
    ['57P03 (starting up)', pgError('57P03'), 'it is starting up or shutting down'],
    [
      'Prisma P1001 with the adapter kind',
      Object.assign(new Error("Can't reach database server"), { code: 'P1001' }),
      'connection refused',
    ],
    [
      'a pg error without a code',
      new Error('Connection terminated unexpectedly'),
      'Connection terminated unexpectedly',
    ],
  ])('%s', (_name, err, reason) => {
    expect(diagnoseConnectionFailure(new Error('migration step failed', { cause: err }))?.reason).toBe(reason);
  });

  it('is undefined for anything else (a failed migration, a bug)', () => {
    expect(
      diagnoseConnectionFailure(Object.assign(new Error('syntax error at or near "CREAT"'), { code: '42601' })),
    ).toBeUndefined();
    expect(diagnoseConnectionFailure(new TypeError('x is not a function'))).toBeUndefined();
  });
});

describe('reachAtStart', () => {
  it('turns a refused PostgreSQL connection into one line (what, where, why, what to check); the full error goes to debug', async () => {
    const url = `postgresql://app:s3cret@127.0.0.1:${await closedPort()}/expedition`;
    const real = await pgConnectError(url);
    const logger = quietLogger();

    const thrown = await reachAtStart(postgresAt(url), logger, () => Promise.reject(real)).catch((err: unknown) => err);

    expect(thrown).toBeInstanceOf(DependencyUnreachableError);
    const line = (thrown as Error).message;
    expect(line).toMatch(
      /^Cannot reach PostgreSQL at 127\.0\.0\.1:\d+ \(DATABASE_URL\): connection refused\. Check that PostgreSQL is running/,
    );
    expect(line).not.toMatch(/s3cret|app@|expedition|\n/);
    expect((thrown as Error).cause).toBe(real);
    expect(logger.debug).toHaveBeenCalledWith({ err: real, dependency: 'PostgreSQL' }, expect.any(String));
  });

  it('passes other failures through untouched, and everything when there is nothing to reach (PGlite)', async () => {
    const bug = new TypeError('x is not a function');
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    await expect(reachAtStart(postgresAt('postgresql://db/x'), quietLogger(), () => Promise.reject(bug))).rejects.toBe(
      bug,
    );
    await expect(reachAtStart(postgresAt(undefined), quietLogger(), () => Promise.reject(refused))).rejects.toBe(
      refused,
    );
    await expect(reachAtStart(postgresAt('postgresql://db/x'), quietLogger(), async () => 42)).resolves.toBe(42);
  });
});

describe('startFailureOutput', () => {
  it('prints the one line of a configuration error or an unreachable dependency, and a bug in full', () => {
    const config = new ConfigError(['DATABASE_URL: required']);
    const unreachable = new DependencyUnreachableError(
      postgresAt('postgresql://db/x'),
      'Cannot reach PostgreSQL at db:5432',
      { cause: new Error('x') },
    );
    const bug = new TypeError('x is not a function');
    expect(startFailureOutput(config, [ConfigError])).toBe('Invalid configuration: DATABASE_URL: required');
    expect(startFailureOutput(unreachable, [ConfigError])).toBe('Cannot reach PostgreSQL at db:5432');
    expect(startFailureOutput(bug, [ConfigError])).toBe(bug);
  });

  it('prints one line, without a stack, when the port is taken', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    const second = createServer();
    const err = await new Promise<unknown>((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    await new Promise((resolve) => holder.close(resolve));
    const output = startFailureOutput(err, [ConfigError]);
    expect(output).toBe(
      `Cannot listen on 127.0.0.1:${port}: the address is already in use. Stop the process that holds the port, or give this app another port (its port variable, or METRICS_PORT).`,
    );
  });
});

describe('logRedisOutages', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED' });

  it('one warning line per outage instead of a stack per reconnect attempt, and one line when Redis is back', () => {
    const client = new EventEmitter();
    const logger = quietLogger();
    logRedisOutages(client as unknown as Redis, 'redis://:pw@127.0.0.1:6390', logger);

    client.emit('ready');
    for (let attempt = 0; attempt < 5; attempt++) client.emit('error', refused());
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toBe(
      unreachableLine(redisAt('redis://127.0.0.1:6390'), {
        reason: 'connection refused',
        check: 'Check that {name} is running and listening there, and that {var} names the right host and port',
      }) + ' Until it is back, limits are counted per replica.',
    );
    expect(logger.info).not.toHaveBeenCalled();

    client.emit('ready');
    expect(logger.info).toHaveBeenCalledWith('Redis at 127.0.0.1:6390 is reachable again: limits are shared again');
    client.emit('error', refused());
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('tells the metrics when the fallback starts and ends, once each', () => {
    const client = new EventEmitter();
    const fallback: boolean[] = [];
    logRedisOutages(client as unknown as Redis, 'redis://127.0.0.1:6390', quietLogger(), (active) =>
      fallback.push(active),
    );
    client.emit('ready');
    client.emit('error', refused());
    client.emit('error', refused());
    client.emit('ready');
    expect(fallback).toEqual([true, false]);
  });
});
