import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import {
  EmbedCheckoutRequestSchema,
  EmbedPaymentAuthenticateRequestSchema,
  EmbedPaymentConfirmRequestSchema,
  EmbedPaymentStartRequestSchema,
  EmbedQuoteRequestSchema,
} from '@expedition/contracts';
import { prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import {
  createKeyResolver,
  createSecretBox,
  ensureDemoOperator,
  resolveWebhookSecretKeys,
} from '@expedition/operators';
import { TEST_CARDS, createSimulatedProcessor } from '@expedition/payments';
import { createRateLimiter, systemClock } from '@expedition/platform';
import { createOptionsWorker } from '@expedition/quoting';
import { EMBED_MAX_BODY_BYTES, createApp } from '@expedition/app-embed-api';
import { dayFromToday, fromZod } from './src/inputs';
import type { RouteSpec } from './src/route-spec';
import { FUZZ_PORTS, WRITTEN_TABLES, fuzzLogger, fuzzSuite } from './src/suite';

const SITE = 'https://tours.fuzz.example';
const WIDGET = 'http://127.0.0.1:16653';
const silent = fuzzLogger();

/** docs/contract.md: 400 bodies are `{ "error": "…" }` (401/403/429 are bare strings, not JSON). */
const EmbedErrorSchema = z.object({ error: z.string() });

const validEmbedQuote = fc.record(
  {
    destination: fc.constantFrom('Antarctica', 'arctic', 'Kenya', 'Atlantis'),
    tripCost: fc.integer({ min: 0, max: 100_000 }),
    travelers: fc.integer({ min: 1, max: 4 }),
    residence: fc.constantFrom('GB', 'US', 'DE'),
    email: fc.constantFrom('traveler@example.com', 'a@b.io'),
    startDate: fc.integer({ min: 0, max: 300 }).map(dayFromToday),
    endDate: fc.integer({ min: 1, max: 330 }).map(dayFromToday),
    durationDays: fc.integer({ min: -1, max: 60 }),
    currency: fc.constantFrom('USD', 'EUR'),
    travelerAges: fc.array(fc.integer({ min: 0, max: 110 }), { minLength: 1, maxLength: 4 }),
    state: fc.constantFrom('CA', 'NY'),
    name: fc.string({ maxLength: 30 }),
  },
  { requiredKeys: ['destination', 'tripCost', 'travelers', 'residence', 'email'] },
);

fuzzSuite('embed-api', async () => {
  const db = await createTestDatabase();
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fuzz-embed-'));
  const keys = resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir });
  const demo = await ensureDemoOperator({
    prisma: db.prisma,
    dataDir,
    demoOrigin: SITE,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    secretBox: createSecretBox(keys),
  });
  // Tier 3, so the payment routes are reached past their tier check.
  await db.prisma.operator.update({ where: { id: demo.operatorId }, data: { integrationTier: 3 } });
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/processor/events',
    webhookSecret: 'whsec_fuzz',
    fetch: async () => new Response('{}', { status: 200 }),
  });
  const resolver = createKeyResolver(db.prisma, { ttlMs: 60_000, clock: systemClock });
  // As composeEmbedApi wires it, but with a per-key budget no run can exhaust (the 60/minute limit is tested elsewhere).
  const app = createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger: silent,
    clock: systemClock,
    resolveKey: resolver.resolve,
    rateLimiter: createRateLimiter({ points: 100_000_000, durationSec: 60, keyPrefix: 'fuzz-embed' }),
    firstPartyOrigins: [WIDGET],
    testDashboardOrigins: ['http://127.0.0.1:16654'],
    quoteApiUrl: 'http://127.0.0.1:16650',
    payments: { processor, stripePublishableKeys: {} },
  });
  const worker = createOptionsWorker({ prisma: db.prisma, clock: systemClock });

  return {
    db,
    app,
    port: FUZZ_PORTS.embedApi,
    close: () => db.close(),
    async routes(): Promise<RouteSpec[]> {
      const base = `http://127.0.0.1:${FUZZ_PORTS.embedApi}`;
      const headers = {
        'content-type': 'application/json',
        'x-svc-publishable-key': demo.publishableKey,
        origin: SITE,
      };
      const quoteRes = await fetch(`${base}/api/embed/quote`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          destination: 'Antarctica',
          tripCost: 24000,
          travelers: 2,
          residence: 'GB',
          email: 'a@b.io',
          startDate: dayFromToday(60),
          durationDays: 14,
          travelerAges: [40, 50],
        }),
      });
      const quote = (await quoteRes.json()) as { quoteId: string };
      if (!quote.quoteId) throw new Error(`seed quote failed: ${JSON.stringify(quote)}`);
      await worker.runOnce();
      const options = await db.prisma.quoteOption.findMany({ where: { quoteId: quote.quoteId } });
      const planIds = options.map((o) => o.planId);
      const started = await fetch(`${base}/api/embed/payments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ quoteId: quote.quoteId, planId: planIds[0] }),
      });
      const payment = (await started.json()) as { paymentId?: string };
      const idOrOdd = (ids: string[]) => fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 12 }), fc.uuid());
      const paymentIds = payment.paymentId ? [payment.paymentId] : ['pay_none'];
      const gate = () => ({ 'x-svc-publishable-key': demo.publishableKey, origin: SITE });
      const common = {
        errorSchema: EmbedErrorSchema,
        writes: [...WRITTEN_TABLES],
        bodyLimit: EMBED_MAX_BODY_BYTES,
        headers: gate,
        oddHeaders: ['x-svc-publishable-key'],
      };
      // Gate answers (401 key, 403 origin, 429 budget) on every route; oversized or unparseable bodies are 400 here.
      const gateStatuses = [401, 403, 429];
      return [
        {
          name: 'POST /api/embed/quote',
          method: 'POST',
          path: '/api/embed/quote',
          body: fc.oneof(
            { weight: 2, arbitrary: validEmbedQuote },
            { weight: 1, arbitrary: fromZod(EmbedQuoteRequestSchema) },
          ),
          allowed: [200, 400, ...gateStatuses],
          ...common,
        },
        {
          name: 'GET /api/embed/options',
          method: 'GET',
          path: '/api/embed/options',
          query: fc.record(
            {
              quoteId: idOrOdd([quote.quoteId]),
              pk: fc.constantFrom(demo.publishableKey, 'pk_op_test_' + '0'.repeat(48)),
            },
            { requiredKeys: [] },
          ),
          allowed: [200, 400, ...gateStatuses],
          ...common,
        },
        {
          name: 'POST /api/embed/checkout',
          method: 'POST',
          path: '/api/embed/checkout',
          body: fc.oneof(
            fc.record(
              {
                quoteId: idOrOdd([quote.quoteId]),
                planId: idOrOdd(planIds),
                email: fc.constantFrom('a@b.io', 'x'),
                name: fc.string({ maxLength: 20 }),
              },
              { requiredKeys: ['quoteId', 'planId'] },
            ),
            fromZod(EmbedCheckoutRequestSchema),
          ),
          allowed: [200, 400, 409, ...gateStatuses],
          ...common,
        },
        {
          name: 'POST /api/embed/payments',
          method: 'POST',
          path: '/api/embed/payments',
          body: fc.oneof(
            fc.record({ quoteId: idOrOdd([quote.quoteId]), planId: idOrOdd(planIds) }),
            fromZod(EmbedPaymentStartRequestSchema),
          ),
          allowed: [200, 400, 409, ...gateStatuses],
          ...common,
        },
        {
          name: 'POST /api/embed/payments/confirm',
          method: 'POST',
          path: '/api/embed/payments/confirm',
          body: fc.oneof(
            fc.record({
              paymentId: idOrOdd(paymentIds),
              paymentMethod: fc.constantFrom(
                TEST_CARDS.decline,
                TEST_CARDS.requiresAction,
                TEST_CARDS.processingError,
                'pm_card_visa',
                'pm_nonsense',
                '4242',
              ),
            }),
            fromZod(EmbedPaymentConfirmRequestSchema),
          ),
          allowed: [200, 400, 409, ...gateStatuses],
          ...common,
        },
        {
          name: 'POST /api/embed/payments/authenticate',
          method: 'POST',
          path: '/api/embed/payments/authenticate',
          body: fc.oneof(
            fc.record({ paymentId: idOrOdd(paymentIds), approve: fc.boolean() }),
            fromZod(EmbedPaymentAuthenticateRequestSchema),
          ),
          allowed: [200, 400, 409, ...gateStatuses],
          ...common,
        },
      ];
    },
  };
});
