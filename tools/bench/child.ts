import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

export interface ServerChild<T> {
  targets: T;
  stop(): Promise<void>;
}

/**
 * Starts a benchmark's servers in a child process (so the load generator and the parent never share their event
 * loop), waits for the one JSON line describing its targets, and stops it on stop() — or when this process ends,
 * since the child exits when its stdin closes. `env` is the environment with TSX_TSCONFIG_PATH for the aliases.
 */
export async function startServerChild<T>(
  script: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ServerChild<T>> {
  const root = path.resolve(__dirname, '..', '..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, script)], {
    cwd: root,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const targets = await readFirstLine<T>(child);
    return {
      targets,
      async stop() {
        child.stdin?.end();
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

function readFirstLine<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    if (!child.stdout) return reject(new Error('server process has no stdout'));
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as T);
      } catch (err) {
        reject(new Error(`unexpected output from the server process: ${line}`, { cause: err }));
      }
    });
    child.once('exit', (code) => reject(new Error(`server process exited early (code ${code})`)));
  });
}
