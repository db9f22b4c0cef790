/**
 * The loop of a background worker: rounds back to back while there is a backlog, otherwise sleep for the poll
 * interval or until `kick()`. `stop()` resolves after the round in flight finishes. A round that throws is reported
 * and retried (a database blip must not kill the worker), after a wait that doubles with each failure in a row up to
 * `ERROR_BACKOFF_MAX_MS`: while the database is down, a worker neither spins nor floods the log, and the process keeps
 * the CPU to answer `/readyz` with its 503 (docs/runbooks.md, DatabaseUnreachable).
 */
export interface PollingLoop {
  start(): void;
  stop(): Promise<void>;
  /** Run a round now instead of waiting for the poll (e.g. right after enqueuing work in-process). */
  kick(): void;
}

export function createPollingLoop(
  round: () => Promise<{ backlog: boolean }>,
  settings: { pollIntervalMs: number; onError: (err: unknown) => void },
): PollingLoop {
  let running = false;
  let kicked = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let failures = 0;

  function idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  async function run(): Promise<void> {
    while (running) {
      let backlog = false;
      kicked = false;
      try {
        backlog = (await round()).backlog;
        failures = 0;
      } catch (err) {
        failures++;
        settings.onError(err);
      }
      if (!running) break;
      if (failures > 0) await idle(errorBackoffMs(failures, settings.pollIntervalMs));
      else if (!backlog && !kicked) await idle(settings.pollIntervalMs);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
    kick() {
      if (!running) return;
      kicked = true;
      wake?.();
    },
  };
}

/** The longest wait between two rounds that keep failing. */
export const ERROR_BACKOFF_MAX_MS = 5_000;

/** The wait after the n-th failed round in a row: the poll interval, doubled per further failure, capped. */
export function errorBackoffMs(failures: number, pollIntervalMs: number): number {
  const cap = Math.max(pollIntervalMs, ERROR_BACKOFF_MAX_MS);
  return Math.min(pollIntervalMs * 2 ** Math.min(failures - 1, 30), cap);
}
