import { jest } from '@jest/globals';
import { createPollingLoop, ERROR_BACKOFF_MAX_MS, errorBackoffMs } from './polling-loop';

const tick = () => new Promise((r) => setImmediate(r));

describe('createPollingLoop', () => {
  it('runs back to back while there is a backlog, then waits for a kick; stop waits for the round in flight', async () => {
    const backlogs = [true, true, false];
    let rounds = 0;
    let release: () => void = () => undefined;
    const loop = createPollingLoop(
      async () => {
        rounds++;
        if (rounds === 4) await new Promise<void>((r) => (release = r));
        return { backlog: backlogs.shift() ?? false };
      },
      { pollIntervalMs: 60_000, onError: () => undefined },
    );
    loop.start();
    for (let i = 0; i < 10; i++) await tick();
    expect(rounds).toBe(3);
    loop.kick();
    for (let i = 0; i < 5; i++) await tick();
    expect(rounds).toBe(4);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(rounds).toBe(4);
  });

  it('reports a failing round and keeps going', async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    const loop = createPollingLoop(
      async () => {
        rounds++;
        if (rounds === 1) throw new Error('db down');
        return { backlog: false };
      },
      { pollIntervalMs: 1, onError: (err) => errors.push(err) },
    );
    loop.start();
    while (rounds < 2) await new Promise((r) => setTimeout(r, 2));
    await loop.stop();
    expect(errors).toHaveLength(1);
  });
});

describe('the wait after failed rounds (errorBackoffMs)', () => {
  it('is the poll interval after one failure, doubles per failure in a row, and stops at ERROR_BACKOFF_MAX_MS', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => errorBackoffMs(n, 100))).toEqual([
      100, 200, 400, 800, 1600, 3200, 5000, 5000,
    ]);
    expect(errorBackoffMs(1000, 100)).toBe(ERROR_BACKOFF_MAX_MS);
    // A poll interval above the cap is never shortened.
    expect(errorBackoffMs(3, 10_000)).toBe(10_000);
  });

  it('is what the loop waits: rounds that keep failing come further apart, and a success resets the wait', async () => {
    jest.useFakeTimers();
    try {
      let rounds = 0;
      let failing = true;
      const loop = createPollingLoop(
        async () => {
          rounds++;
          if (failing) throw new Error('db down');
          return { backlog: false };
        },
        { pollIntervalMs: 100, onError: () => undefined },
      );
      loop.start();
      await jest.advanceTimersByTimeAsync(0);
      expect(rounds).toBe(1);
      await jest.advanceTimersByTimeAsync(100); // waited 100 after the 1st failure
      expect(rounds).toBe(2);
      await jest.advanceTimersByTimeAsync(199); // 200 after the 2nd
      expect(rounds).toBe(2);
      await jest.advanceTimersByTimeAsync(1);
      expect(rounds).toBe(3);
      failing = false;
      await jest.advanceTimersByTimeAsync(400); // 400 after the 3rd; this round succeeds
      expect(rounds).toBe(4);
      await jest.advanceTimersByTimeAsync(100); // back to the poll interval
      expect(rounds).toBe(5);
      const stopping = loop.stop();
      await jest.advanceTimersByTimeAsync(0);
      await stopping;
    } finally {
      jest.useRealTimers();
    }
  });
});
