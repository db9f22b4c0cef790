import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A benchmark child's control server (127.0.0.1, its own port): POST /<route> with a JSON body runs the route and
 * answers its JSON result (500 with the message when it throws). The parent drives the child's phases through it.
 */
export type ControlRoutes = Record<string, (input: Record<string, unknown>) => Promise<unknown>>;

export async function serveControl(routes: ControlRoutes): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const route = routes[(req.url ?? '').replace(/^\//, '')];
    try {
      if (!route) throw new Error(`no control route ${req.url}`);
      const input = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>)
        : {};
      const out = (await route(input)) ?? {};
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(out));
    } catch (err) {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end((err as Error).message);
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** The parent's side: POSTs `input` to the child's control route and returns its JSON answer. */
export async function control<T>(base: string, route: string, input: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${base}/${route}`, { method: 'POST', body: JSON.stringify(input) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`control ${route}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** What a child's event loop and garbage collector did over a window: the tail's usual suspects. */
export interface RuntimeStats {
  /** Event-loop delay (how late a timer fired), ms. */
  loopDelayP50: number;
  loopDelayP99: number;
  loopDelayMax: number;
  gcCount: number;
  gcPauseMs: number;
  gcMaxPauseMs: number;
  /** Resident set size at the end of the window, MB. */
  rssMb: number;
}

/** Samples the event-loop delay (10 ms resolution) and GC pauses from `reset()` to `read()`. */
export function runtimeStats(): { reset(): void; read(): RuntimeStats } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let gcCount = 0;
  let gcPauseMs = 0;
  let gcMaxPauseMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcCount++;
      gcPauseMs += entry.duration;
      gcMaxPauseMs = Math.max(gcMaxPauseMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  const ms = (ns: number) => ns / 1e6;
  return {
    reset() {
      loop.reset();
      gcCount = gcPauseMs = gcMaxPauseMs = 0;
    },
    read: () => ({
      loopDelayP50: ms(loop.percentile(50)),
      loopDelayP99: ms(loop.percentile(99)),
      loopDelayMax: ms(loop.max),
      gcCount,
      gcPauseMs,
      gcMaxPauseMs,
      rssMb: process.memoryUsage.rss() / 2 ** 20,
    }),
  };
}

/**
 * `profile/start` and `profile/stop` control routes: a CPU profile of one phase of the child (node:inspector), written
 * to `<dir>/<name>.cpuprofile` on stop; summarise it with cpuprofile-summary.ts. Set BENCH_PROFILE_DIR to have the
 * benchmarks that support it profile their phases.
 */
export function profilerRoutes(dir: string): ControlRoutes {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  return {
    'profile/start': async () => {
      await post('Profiler.enable');
      await post('Profiler.start');
    },
    'profile/stop': async (input) => {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${String(input['name'] ?? 'phase')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return { file };
    },
  };
}
