import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { resolveWebhookSecretKeys } from '@expedition/operators';
import { createSimulatedProcessor } from '@expedition/payments';
import { signPayload } from '@expedition/webhook-signature';
import { composeWebhookDispatcher, loadDispatcherConfig } from '@expedition/app-webhook-dispatcher';
import { PortalErrorSchema } from '@expedition/contracts';
import type { RouteSpec } from './src/route-spec';
import { FUZZ_PORTS, WRITTEN_TABLES, fuzzLogger, fuzzSuite } from './src/suite';

const SECRET = 'whsec_fuzz_dispatcher_0123456789abcdef';
const silent = fuzzLogger();

/** Processor events in Stripe's shape; most are signed correctly so the fuzz reaches the parser and fulfillment. */
const stripeEvent = fc.record({
  id: fc.oneof(
    fc.string({ unit: fc.constantFrom(...'abcdef0123456789'), minLength: 8, maxLength: 24 }).map((s) => `evt_${s}`),
    fc.string({ maxLength: 20 }),
  ),
  type: fc.constantFrom(
    'payment_intent.succeeded',
    'payment_intent.payment_failed',
    'checkout.session.completed',
    'charge.refunded',
    'customer.created',
    '',
  ),
  livemode: fc.boolean(),
  created: fc.integer({ min: 0, max: 2 ** 31 }),
  data: fc.record({
    object: fc.record(
      {
        id: fc.oneof(fc.constant('pi_fuzz_0001'), fc.string({ maxLength: 16 })),
        object: fc.constantFrom('payment_intent', 'checkout.session'),
        amount: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom(-1, 1.5, 2 ** 53)),
        amount_total: fc.integer({ min: 0, max: 10_000_000 }),
        currency: fc.constantFrom('usd', 'USD', 'xx', ''),
        payment_status: fc.constantFrom('paid', 'unpaid'),
        payment_intent: fc.constant('pi_fuzz_0001'),
        metadata: fc.dictionary(
          fc.constantFrom('quoteId', 'planId', 'sessionId', 'operatorId', 'channel', 'mode'),
          fc.string({ maxLength: 40 }),
        ),
        last_payment_error: fc.record({ code: fc.string({ maxLength: 10 }), message: fc.string({ maxLength: 40 }) }),
      },
      { requiredKeys: ['id'] },
    ),
  }),
});

fuzzSuite('webhook-dispatcher', async () => {
  const db = await createTestDatabase();
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fuzz-dispatcher-'));
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unset',
    webhookSecret: SECRET,
    fetch: async () => new Response('{}'),
  });
  const keys = resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir });
  const composed = composeWebhookDispatcher({
    config: loadDispatcherConfig({
      DATA_DIR: dataDir,
      SIMULATED_PROCESSOR_WEBHOOK_SECRET: SECRET,
      LOG_LEVEL: 'silent',
    }),
    db,
    logger: silent,
    webhookSecretKeys: keys,
    processor,
  });
  return {
    db,
    app: composed.app,
    port: FUZZ_PORTS.dispatcher,
    close: () => db.close(),
    // One handler serves /processor/events and its aliases (/stripe/webhook, /webhooks/processor): fuzzed once.
    routes: (): RouteSpec[] =>
      ['/processor/events'].map((route) => ({
        name: `POST ${route}`,
        method: 'POST',
        path: route,
        body: stripeEvent,
        bodyLimit: 1024 * 1024,
        // A valid signature of exactly the bytes sent (odd Stripe-Signature headers still replace it).
        sign: (input): Record<string, string> =>
          input.body?.text !== undefined
            ? { 'stripe-signature': signPayload(input.body.text, SECRET, Math.floor(Date.now() / 1000)) }
            : {},
        oddHeaders: ['stripe-signature'],
        // 200 records (or ignores) the event; 400 a bad signature or a malformed event; 413 over 1 MiB.
        allowed: [200, 400, 413, 415],
        errorSchema: PortalErrorSchema.pick({ error: true }).passthrough(),
        writes: [...WRITTEN_TABLES],
      })),
  };
});
