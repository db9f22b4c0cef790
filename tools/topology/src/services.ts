import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/**
 * The topology's OWN PostgreSQL cluster and Redis server, in temp dirs on ports of their own: stopping, killing or
 * restarting them (the chaos checks do) never disturbs the machine's services or another suite.
 */
export interface PrivatePostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/topology` */
  url: string;
  port: number;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster (if running) and removes its data dir. */
  destroy(): Promise<void>;
}

export interface PrivateRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

const DATABASE = 'topology';

/** Runs a PostgreSQL binary as the `postgres` user when we are root (the server refuses to run as root). */
function pgCommand(pgBin: string, bin: string, args: string[]): [string, string[]] {
  const exe = path.join(pgBin, bin);
  if (process.getuid?.() === 0) return ['runuser', ['-u', 'postgres', '--', exe, ...args]];
  return [exe, args];
}

function runPg(pgBin: string, bin: string, args: string[]): string {
  const [cmd, argv] = pgCommand(pgBin, bin, args);
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

function postgresUid(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export async function startPrivatePostgres(options: { pgBin: string; port: number }): Promise<PrivatePostgres> {
  const { pgBin, port } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'expedition-topology-pg-'));
  const owner = postgresUid();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const dataDir = path.join(dir, 'data');
  runPg(pgBin, 'initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // Throwaway data: durability off keeps 500 payments fast on 2 cores; the sockets live in the data dir.
  const serverOptions = [
    `-p ${port}`,
    `-k ${dataDir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  let running = false;
  const pg: PrivatePostgres = {
    url: `postgresql://postgres@127.0.0.1:${port}/${DATABASE}`,
    port,
    async start() {
      runPg(pgBin, 'pg_ctl', [
        '-D',
        dataDir,
        '-o',
        serverOptions,
        '-l',
        path.join(dataDir, 'server.log'),
        '-w',
        '-t',
        '60',
        'start',
      ]);
      running = true;
    },
    async stop(mode = 'fast') {
      if (!running) return;
      runPg(pgBin, 'pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async destroy() {
      try {
        await pg.stop('immediate');
      } catch {
        // Already gone: nothing to stop.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await pg.start();
    const admin = new Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
  } catch (err) {
    await pg.destroy();
    throw err;
  }
  return pg;
}

export async function startPrivateRedis(options: { redisServer: string; port: number }): Promise<PrivateRedis> {
  const { redisServer, port } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'expedition-topology-redis-'));
  let child: ChildProcess | undefined;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child) return;
      // No persistence: a restart is an empty Redis, as after a failover to a fresh instance.
      child = spawn(
        redisServer,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        {
          stdio: 'ignore',
        },
      );
      await waitFor(() => redisPing(port), 10_000, `redis-server on ${port}`);
    },
    async stop() {
      const running = child;
      if (!running) return;
      child = undefined;
      const exited = new Promise<void>((resolve) =>
        running.exitCode !== null ? resolve() : running.once('exit', () => resolve()),
      );
      running.kill('SIGKILL');
      await exited;
    },
    async destroy() {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await redis.start();
  return redis;
}

export function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(String(data).startsWith('+PONG')));
  });
}

/** Polls `check` every 100 ms until it answers true; throws naming `what` after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
