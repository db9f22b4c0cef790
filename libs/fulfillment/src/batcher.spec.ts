import { createBatcher } from './batcher';

/** A run that records each batch it was given and answers each item doubled; `fail` decides which batches throw. */
function recorder(fail: (items: readonly number[]) => boolean = () => false) {
  const batches: number[][] = [];
  const release: (() => void)[] = [];
  const run = async (items: readonly number[]) => {
    batches.push([...items]);
    await new Promise<void>((resolve) => release.push(resolve));
    if (fail(items)) throw new Error(`failed: ${items.join(',')}`);
    return items.map((i) => i * 2);
  };
  /** Lets every started batch finish, until none is left. */
  const settle = async () => {
    for (let rounds = 0; rounds < 50; rounds++) {
      await new Promise((r) => setImmediate(r));
      const pending = release.splice(0);
      if (pending.length === 0 && rounds > 2) return;
      for (const r of pending) r();
    }
  };
  return { batches, run, settle };
}

describe('createBatcher', () => {
  it('runs the calls made in one turn as one batch, and answers each caller its own result', async () => {
    const r = recorder();
    const call = createBatcher(r.run, { maxSize: 16, maxInFlight: 1 });
    const answers = Promise.all([call(1), call(2), call(3)]);
    await r.settle();
    expect(await answers).toEqual([2, 4, 6]);
    expect(r.batches).toEqual([[1, 2, 3]]);
  });

  it('takes into one batch the calls made by other callbacks of the same turn (requests that arrived together)', async () => {
    const r = recorder();
    const call = createBatcher(r.run, { maxSize: 16, maxInFlight: 1 });
    const answers: Promise<number>[] = [];
    await new Promise<void>((done) => {
      setImmediate(() => answers.push(call(1)));
      setImmediate(() => {
        answers.push(call(2));
        done();
      });
    });
    await r.settle();
    expect(await Promise.all(answers)).toEqual([2, 4]);
    expect(r.batches).toEqual([[1, 2]]);
  });

  it('queues the calls made while every slot is busy, and runs them together, at most maxSize at once', async () => {
    const r = recorder();
    const call = createBatcher(r.run, { maxSize: 3, maxInFlight: 1 });
    const first = call(1);
    await new Promise((res) => setImmediate(res)); // the first batch is running
    const rest = [2, 3, 4, 5, 6].map((i) => call(i));
    await r.settle();
    expect(await Promise.all([first, ...rest])).toEqual([2, 4, 6, 8, 10, 12]);
    expect(r.batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('runs up to maxInFlight batches at once', async () => {
    const r = recorder();
    const call = createBatcher(r.run, { maxSize: 2, maxInFlight: 2 });
    const answers = Promise.all([1, 2, 3, 4, 5].map((i) => call(i)));
    await new Promise((res) => setImmediate(res));
    expect(r.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await r.settle();
    expect(await answers).toEqual([2, 4, 6, 8, 10]);
    expect(r.batches).toHaveLength(3);
  });

  it('re-runs a failed batch one item at a time: only the item that fails alone gets the error', async () => {
    const r = recorder((items) => items.includes(3));
    const call = createBatcher(r.run, { maxSize: 16, maxInFlight: 1 });
    const answers = [1, 2, 3, 4].map((i) => call(i).then(String, (err: Error) => err.message));
    await r.settle();
    expect(await Promise.all(answers)).toEqual(['2', '4', 'failed: 3', '8']);
    expect(r.batches).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]);
  });

  it('keeps going after a failure: the next calls are batched again', async () => {
    const r = recorder((items) => items.length === 1 && items[0] === 1);
    const call = createBatcher(r.run, { maxSize: 16, maxInFlight: 1 });
    const failed = call(1).catch((err: Error) => err.message);
    await r.settle();
    expect(await failed).toBe('failed: 1');
    const answers = Promise.all([call(7), call(8)]);
    await r.settle();
    expect(await answers).toEqual([14, 16]);
    expect(r.batches).toEqual([[1], [7, 8]]);
  });
});
