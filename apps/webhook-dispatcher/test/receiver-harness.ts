import { createHarness, type Harness } from './harness';
import { startReceiver, type Receiver } from './receiver';

/** The harness and the operator's webhook receiver of a file that registered `useReceiverHarness()`: live. */
export let h: Harness;
export let receiver: Receiver;

/** Registers the file's (or describe block's) hooks: a harness and a receiver answering `reply` before its tests, both closed after. */
export function useReceiverHarness(...args: Parameters<typeof startReceiver>): void {
  beforeAll(async () => {
    h = await createHarness();
    receiver = await startReceiver(...args);
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });
}
