/**
 * `npm start` to healthy: the launcher (tools/launcher/main.ts, what `npm start` runs after its `prestart` bundle
 * step) on a fresh DATA_DIR (PGlite created and migrated, demo operator seeded), timed from spawn until every app's
 * /healthz answers 200. Ports 16001–16006 (this benchmark's range), loopback only; the process is stopped after.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { infoRow, notMeasured, type BenchRow } from './table';

const root = path.resolve(__dirname, '..', '..');
const PORTS = {
  QUOTE_API_PORT: 16001,
  EMBED_API_PORT: 16002,
  WIDGET_PORT: 16003,
  PORTAL_PORT: 16004,
  DISPATCHER_PORT: 16005,
  DEMO_PORT: 16006,
};
const DEADLINE_MS = 180_000;

export async function measureStartup(): Promise<{ seconds: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'expedition-bench-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_OPTIONS: '' };
  for (const [name, port] of Object.entries(PORTS)) env[name] = String(port);
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SIMULATED_PROCESSOR_WEBHOOK_URL', 'TSX_TSCONFIG_PATH'])
    delete env[name];
  let output = '';
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), '--tsconfig', 'tools/tsconfig.json', 'tools/launcher/main.ts'],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const pending = new Set(Object.values(PORTS));
    while (pending.size) {
      if (child.exitCode !== null || performance.now() - t0 > DEADLINE_MS)
        throw new Error(`the launcher did not become healthy:\n${output.slice(-2000)}`);
      await Promise.all(
        [...pending].map(async (port) => {
          const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => r.ok,
            () => false,
          );
          if (ok) pending.delete(port);
        }),
      );
      if (pending.size) await new Promise((r) => setTimeout(r, 50));
    }
    return { seconds: (performance.now() - t0) / 1000 };
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchStartup(): Promise<BenchRow[]> {
  const row = {
    id: 'start_to_healthy',
    figure: '`npm start` (launcher) to every app healthy, fresh DATA_DIR',
    unit: 's',
    baselineLabel: '',
  };
  try {
    const { seconds } = await measureStartup();
    return [
      infoRow({
        ...row,
        ours: seconds,
        baseline: null,
        note: 'excludes the `prestart` bundle step; includes creating and migrating PGlite',
      }),
    ];
  } catch (err) {
    return [notMeasured({ ...row, goal: '—' }, `failed: ${(err as Error).message.split('\n')[0]}`)];
  }
}
