import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** One replica of a built app: `node dist/apps/<app>/main.js` (run from its own folder), configured by env only. */
export interface AppProcess {
  app: string;
  name: string;
  port: number;
  url: string;
  env: NodeJS.ProcessEnv;
  readonly pid: number | undefined;
  /** Its stdout + stderr so far (for failure messages). */
  output(): string;
  alive(): boolean;
  start(): Promise<void>;
  /** `kill -9`: no shutdown hook runs, in-flight work is abandoned. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

export const MAX_OUTPUT_CHARS = 200_000;

export function appProcess(options: {
  distDir: string;
  app: string;
  name: string;
  port: number;
  env: NodeJS.ProcessEnv;
}): AppProcess {
  const { distDir, app, name, port, env } = options;
  const main = path.join(distDir, app, 'main.js');
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > MAX_OUTPUT_CHARS) output = output.slice(-MAX_OUTPUT_CHARS / 2);
  };

  const proc: AppProcess = {
    app,
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    env,
    get pid() {
      return child?.pid;
    },
    output: () => output,
    alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async start() {
      if (proc.alive()) return;
      // A clean environment: only what a container would get (plus PATH), never this test process's settings.
      child = spawn(process.execPath, [main], {
        cwd: path.dirname(main),
        env: { PATH: process.env['PATH'], ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', append);
      child.stderr?.on('data', append);
      const current = child;
      exited = new Promise((resolve) => current.once('exit', () => resolve()));
      await waitReady(proc, 90_000);
    },
    async kill9() {
      if (!child || !proc.alive()) return;
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!child || !proc.alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return proc;
}

/** GET /readyz: 200 when the app's database answers, 503 when it does not; undefined when nothing answers. */
export async function readyzStatus(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return undefined;
  }
}

async function waitReady(proc: AppProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!proc.alive()) throw new Error(`${proc.name} exited during start:\n${proc.output()}`);
    if ((await readyzStatus(proc.url)) === 200) return;
    if (Date.now() > deadline) throw new Error(`${proc.name} not ready within ${timeoutMs} ms:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
