/**
 * Groups the calls that arrive together into one call of `run` (group commit, docs/decisions.md "Sales that arrive
 * together"). Nothing waits for a timer: a call made while fewer than `maxInFlight` batches run starts a batch once the
 * event loop's current turn ends (`setImmediate`), with every call made in that turn (the requests whose bytes arrived
 * together: with a microtask instead, most batches held one call); calls made while every slot is busy queue, and the
 * next free slot takes up to `maxSize` of them at once. Idle, a call waits for the end of the turn; busy, the calls
 * share one statement and one commit.
 *
 * A batch that fails as a whole is re-run one item at a time, so each caller gets its own answer: one item's bad
 * input or lost race never fails the others. `run` must therefore be all-or-nothing (one statement), and safe to
 * re-run after an error whose outcome is unknown (the unique indexes of the money path decide a re-run).
 */
export interface Batcher<I, O> {
  (item: I): Promise<O>;
}

export interface BatcherOptions {
  /** Items per batch. */
  maxSize: number;
  /** Batches running at once. */
  maxInFlight: number;
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

export function createBatcher<I, O>(
  run: (items: readonly I[]) => Promise<readonly O[]>,
  { maxSize, maxInFlight }: BatcherOptions,
): Batcher<I, O> {
  const queue: Pending<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  async function runOne(p: Pending<I, O>): Promise<void> {
    try {
      p.resolve((await run([p.item]))[0]!);
    } catch (err) {
      p.reject(err);
    }
  }

  async function runBatch(batch: Pending<I, O>[]): Promise<void> {
    try {
      if (batch.length === 1) return await runOne(batch[0]!);
      let results: readonly O[];
      try {
        results = await run(batch.map((p) => p.item));
      } catch {
        // Each item alone, in turn: its own error goes to its own caller.
        for (const p of batch) await runOne(p);
        return;
      }
      batch.forEach((p, i) => p.resolve(results[i]!));
    } finally {
      inFlight--;
      drain();
    }
  }

  function drain(): void {
    scheduled = false;
    while (inFlight < maxInFlight && queue.length > 0) {
      inFlight++;
      void runBatch(queue.splice(0, maxSize));
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(drain);
      }
    });
}
