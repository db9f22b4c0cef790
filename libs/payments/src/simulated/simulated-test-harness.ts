import type { PaymentMetadata } from '../processor';
import type { FetchLike } from './event-delivery';
import { createSimulatedProcessor, type SimulatedProcessorOptions } from './simulated-processor';

/** The simulated processor under test (simulated-processor-*.spec.ts): a fixed clock, sequential ids, captured POSTs. */
export const SECRET = 'whsec_sim_test_secret';
export const START = new Date('2026-05-01T10:00:00Z');
export const META: PaymentMetadata = {
  quoteId: 'q_1',
  planId: 'plan_std',
  channel: 'checkout_link',
  operatorId: undefined,
};

export interface Posted {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export function setup(overrides: Partial<SimulatedProcessorOptions> = {}) {
  let nowMs = START.getTime();
  let seq = 0;
  const posted: Posted[] = [];
  const fetch: FetchLike = async (url, init) => {
    posted.push({ url, headers: init.headers, body: init.body });
    return { status: 200 };
  };
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://dispatcher.test/webhooks/processor',
    webhookSecret: SECRET,
    clock: { now: () => new Date(nowMs) },
    ids: () => `id${++seq}`,
    fetch,
    delivery: { sleep: async () => undefined },
    ...overrides,
  });
  const events = () => posted.map((p) => JSON.parse(p.body));
  return { processor, posted, events, advance: (ms: number) => (nowMs += ms) };
}

export const create = (p: ReturnType<typeof setup>['processor'], key = 'idem_1') =>
  p.createPayment({ amountCents: 12345, currency: 'USD', mode: 'test', idempotencyKey: key, metadata: META });
