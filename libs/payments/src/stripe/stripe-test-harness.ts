import type { Mode } from '@expedition/contracts/rules';
import { startFakeStripeServer, type FakeStripeServer } from '../testing';
import type { PaymentMetadata } from '../processor';
import { createStripeProcessor, type StripeProcessorOptions } from './stripe-processor';

/** The Stripe adapter under test (stripe-processor-*.spec.ts), against the fake Stripe server. */
export const META: PaymentMetadata = { quoteId: 'q_1', planId: 'plan_std', channel: 'mpp', operatorId: undefined };
export const WHSEC = 'whsec_test_endpoint';
export const LIVE_WHSEC = 'whsec_live_endpoint';

/** The calling spec file's fake Stripe server (set by useFakeStripe). */
export let fake: FakeStripeServer;

/** Starts the fake Stripe server for the calling spec file, empties it before each test and closes it after the last. */
export function useFakeStripe(): void {
  beforeAll(async () => {
    fake = await startFakeStripeServer();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.events.length = 0;
    fake.setOutage(false);
  });
}

export function processor(overrides: Partial<StripeProcessorOptions> = {}) {
  return createStripeProcessor({
    testSecretKey: 'sk_test_fake_123',
    liveSecretKey: 'sk_live_fake_456',
    webhookSecrets: WHSEC,
    liveWebhookSecrets: LIVE_WHSEC,
    host: fake.host,
    port: fake.port,
    protocol: fake.protocol,
    ...overrides,
  });
}

export const settle = (spt: string, challengeId = 'ch_1', mode: Mode = 'test') =>
  processor().settleSharedPaymentToken({
    amountCents: 1234,
    currency: 'USD',
    mode,
    spt,
    challengeId,
    idempotencyKey: `mpp_${challengeId}_${spt}`,
    metadata: META,
  });
