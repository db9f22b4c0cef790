import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The apps `nx build` ships, the variable of each one's port, and the port this project's tests use (16300–16349). */
export const APPS = [
  { app: 'quote-api', portVar: 'QUOTE_API_PORT', testPort: 16301 },
  { app: 'embed-api', portVar: 'EMBED_API_PORT', testPort: 16302 },
  { app: 'widget-iframe', portVar: 'WIDGET_PORT', testPort: 16303 },
  { app: 'operator-portal', portVar: 'PORTAL_PORT', testPort: 16304 },
  { app: 'webhook-dispatcher', portVar: 'DISPATCHER_PORT', testPort: 16305 },
] as const;

export type AppName = (typeof APPS)[number]['app'];

export function distDir(app: string): string {
  return path.join(ROOT, 'dist', 'apps', app);
}

/** Copies dist/apps/<app> into a fresh empty folder (nothing of the repository around it). */
export function copyArtifact(app: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `deploy-${app}-`));
  cpSync(distDir(app), dir, { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** `npm ci --omit=dev` of the artifact's own pruned manifest, exactly as its Dockerfile runs it. */
export function npmCi(dir: string): { status: number | null; output: string } {
  const result = spawnSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 170_000,
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'] ?? os.homedir(),
      npm_config_cache: process.env['npm_config_cache'],
    },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

export interface Running {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/** Starts `node <script>` in `dir` with ONLY `env` (plus PATH): no variable of the test process leaks in. */
export function startNode(dir: string, script: string, env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--enable-source-maps', script], {
    cwd: dir,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
  };
}

/** Runs `node <script>` to its end with ONLY `env` (plus PATH). */
export function runNode(
  dir: string,
  script: string,
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [script], {
    cwd: dir,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Polls `url` until it answers `status` (or the process dies / time runs out); returns the last status seen. */
export async function waitForStatus(
  url: string,
  status: number,
  running: Running,
  timeoutMs = 60_000,
): Promise<number | string> {
  const deadline = Date.now() + timeoutMs;
  let last: number | string = 'no answer';
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) return `exited with ${running.child.exitCode}`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      last = res.status;
      if (res.status === status) return status;
    } catch {
      last = 'no answer';
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last;
}

export function builtArtifactsMissing(): string[] {
  return APPS.filter(({ app }) => !existsSync(path.join(distDir(app), 'package.json'))).map(({ app }) => app);
}

/** The build's own scripts (tools/build, CommonJS, not a library): the Dockerfile template and the lockfile pruner. */
export function buildScripts(): {
  renderDockerfile(options: { app: string; portVar: string; port: number }): string;
  pruneLockfile(rootLock: unknown, names: string[], manifest: unknown): unknown;
} {
  const { renderDockerfile } = require(path.join(ROOT, 'tools', 'build', 'dockerfile.cjs'));
  const { pruneLockfile } = require(path.join(ROOT, 'tools', 'build', 'package-app.cjs'));
  return { renderDockerfile, pruneLockfile };
}
