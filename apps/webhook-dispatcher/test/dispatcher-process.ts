import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { withoutEndpoints } from '@expedition/platform/testing';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * The real dispatcher (src/main.ts) in its own process on `databaseUrl` (a shared schema: PGlite cannot be shared like
 * this), with `env` over the settings every such test uses; its stderr is passed on, marked with its pid.
 */
export function startDispatcherProcess(databaseUrl: string, env: Record<string, string>): ChildProcess {
  // node --import tsx (not the tsx CLI, which forks a grandchild that SIGKILL would orphan).
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/webhook-dispatcher/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...withoutEndpoints(process.env),
      NODE_OPTIONS: '',
      TSX_TSCONFIG_PATH: 'tools/tsconfig.json',
      DATABASE_URL: databaseUrl,
      DISPATCHER_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[dispatcher ${child.pid}] ${chunk.toString()}`));
  return child;
}

/** Resolves once `child` has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGKILLs every child and waits for each to exit. */
export async function killAll(children: ChildProcess[]): Promise<void> {
  for (const child of children) {
    child.kill('SIGKILL');
    await exited(child);
  }
}
