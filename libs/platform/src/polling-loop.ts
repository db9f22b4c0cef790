/**
 * The loop of a background worker: rounds back to back while there is a backlog, otherwise sleep for the poll
 * interval or until `kick()`. `stop()` resolves after the round in flight finishes. A round that throws is reported
 * and retried after the poll interval (a database blip must not kill the worker).
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

  function idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, settings.pollIntervalMs);
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
      } catch (err) {
        settings.onError(err);
      }
      if (!running) break;
      if (backlog || kicked) continue;
      await idle();
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
