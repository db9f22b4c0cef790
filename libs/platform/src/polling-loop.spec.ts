import { createPollingLoop } from './polling-loop';

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
