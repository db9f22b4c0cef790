// Test helpers of @expedition/platform (import from '@expedition/platform/testing', never from production code).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { connect as connectTo, createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { epochSeconds, type Clock } from './clock';
import { ConfigError } from './env';

export interface TestClock extends Clock {
  /** `now()` in whole epoch seconds (signature timestamps). */
  nowSec(): number;
  /** Moves time forward (or back, with a negative value). */
  advance(ms: number): void;
}

/** A clock tests can move (every service takes time as a dependency). */
export function createTestClock(start = '2026-11-21T10:00:00Z'): TestClock {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    nowSec: () => epochSeconds(new Date(now)),
    advance(ms: number) {
      now += ms;
    },
  };
}

// ---- services: suites that need PostgreSQL, Redis or Chromium skip loudly, or fail with REQUIRE_SERVICES=1 ----

/** REQUIRE_SERVICES=1 (CI): a missing service fails the suite instead of skipping it. */
export function servicesRequired(): boolean {
  return process.env['REQUIRE_SERVICES'] === '1';
}

/**
 * Says why a suite of the running test file is skipped, so that no skip is silent: the workspace's jest reporter
 * (tools/jest/skipped-suites-reporter.cjs, set in jest.preset.js) prints one `SKIPPED  <file> › <suite>: <reason>`
 * line per skipped suite after the run. Call it wherever a suite is skipped for want of a service.
 */
export function noteSkippedSuite(reason: string): void {
  const dir = process.env['EXPEDITION_SKIP_NOTES_DIR'];
  const testPath = expect.getState().testPath;
  if (!dir || !testPath || !existsSync(dir)) return;
  const note = path.join(dir, `${process.pid}-${randomBytes(6).toString('hex')}.json`);
  writeFileSync(note, JSON.stringify({ testPath, reason }));
}

/** A service URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Redis of the Redis suites: TEST_REDIS_URL, never an app's REDIS_URL. */
export function testRedisUrl(): string {
  return process.env['TEST_REDIS_URL'] || 'redis://127.0.0.1:6379';
}

const redisReachability = new Map<string, boolean>();

/** Synchronous probe (PING from a child process), so a suite is chosen at collection time; cached per process. */
export function isRedisReachableSync(url: string = testRedisUrl()): boolean {
  const cached = redisReachability.get(url);
  if (cached !== undefined) return cached;
  const { hostname, port } = new URL(url);
  const script = `
    const s = require('node:net').connect(${Number(port) || 6379}, ${JSON.stringify(hostname || '127.0.0.1')});
    s.setTimeout(1000, () => process.exit(1));
    s.on('error', () => process.exit(1));
    s.on('connect', () => s.write('PING\\r\\n'));
    s.on('data', (d) => process.exit(String(d).startsWith('+PONG') ? 0 : 1));`;
  const reachable = spawnSync(process.execPath, ['-e', script], { timeout: 3000 }).status === 0;
  redisReachability.set(url, reachable);
  return reachable;
}

/** `describe` when Redis is reachable, else a noted `describe.skip`; throws when REQUIRE_SERVICES=1 and it is not. */
export function describeWithRedis(url: string = testRedisUrl()): jest.Describe {
  if (isRedisReachableSync(url)) return describe;
  if (servicesRequired()) throw new Error(`REQUIRE_SERVICES=1 but Redis is unreachable at ${redactUrl(url)}`);
  noteSkippedSuite(`Redis unreachable at ${redactUrl(url)} (set TEST_REDIS_URL)`);
  return describe.skip;
}

/**
 * The ONE line a composition root prints when `load(env)` refuses a configuration (a ConfigError's message, no
 * stack); fails the test when `load` accepts it or throws anything else.
 */
export function configRefusal(load: (env: Record<string, string>) => unknown, env: Record<string, string>): string {
  try {
    load(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    expect(err.message).not.toContain('\n');
    return err.message;
  }
  throw new Error(`the configuration was accepted: ${JSON.stringify(Object.keys(env))}`);
}

/** A loopback port where nothing listens (taken from the OS, then released): a dependency that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Every port this process has handed out: a suite that asks twice never gets one port for two servers. */
const handedOut = new Set<number>();

/**
 * `n` different TCP ports that nothing listens on, chosen by the OS: one server per port listens on port 0 (every
 * address) until all `n` are picked, so they differ, then all close and the caller binds them. A port this process
 * handed out before is skipped. Two test runs on one machine therefore never share a port, except in the moment
 * between this closing a port and the caller binding it.
 */
export async function freePorts(n: number): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < n) {
      const server = createServer();
      held.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port: 0 }, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      if (!handedOut.has(port)) ports.push(port);
    }
  } finally {
    await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  }
  for (const p of ports) handedOut.add(p);
  return ports;
}

/** One port as {@link freePorts} picks it. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/**
 * The environment without what locates a service: PORT_BASE, every `*_PORT` and `*_URL` (DATABASE_URL and REDIS_URL
 * included), so a process the tests start takes only the ports and addresses the suite gives them.
 */
export function withoutEndpoints(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'PORT_BASE' && !/_(PORT|URL)$/.test(name)));
}

/** One raw HTTP/1.1 request: its request line and headers (without Host and Connection), and a body. */
export interface RawRequest {
  head: string;
  body?: string | Buffer;
}

/**
 * Requests written as raw bytes (so nothing rewrites the target or the headers) back to back on one keep-alive
 * connection, the last one closing it, and everything answered on it as latin1 text, each Date header replaced by
 * `Date: <date>`. For comparing two servers' answers byte for byte.
 */
export function rawExchange(port: number, requests: readonly RawRequest[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectTo(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/^Date: [^\r]*\r$/gm, 'Date: <date>\r'),
      ),
    );
    socket.on('error', reject);
    const last = requests.length - 1;
    socket.write(
      Buffer.concat(
        requests.flatMap(({ head, body }, i) => [
          Buffer.from(`${head}\r\nHost: 127.0.0.1\r\nConnection: ${i === last ? 'close' : 'keep-alive'}\r\n\r\n`),
          typeof body === 'string' ? Buffer.from(body) : (body ?? Buffer.alloc(0)),
        ]),
      ),
    );
  });
}
