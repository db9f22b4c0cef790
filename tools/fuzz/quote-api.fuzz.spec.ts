import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import {
  ApiErrorSchema,
  CheckoutRequestSchema,
  CoverageGapRequestSchema,
  ProductListQuerySchema,
  PurchaseRequestSchema,
  QuoteRequestSchema,
  QUOTE_API_LIMITS,
  ACP_API_VERSION,
  AcpErrorSchema,
} from '@expedition/contracts';
import { buildAcpOpenApi, buildQuoteApiOpenApi } from '@expedition/contracts/openapi';
import { hashToken, randomToken } from '@expedition/platform';
import type { Database } from '@expedition/db';
import { prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot, listDestinations } from '@expedition/domain-pricing';
import { createSimulatedProcessor } from '@expedition/payments';
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';
import { dayFromToday, fromZod } from './src/inputs';
import { documentedOperations } from './src/openapi';
import type { RouteSpec } from './src/route-spec';
import { BODY_PARSER_STATUSES, FUZZ_PORTS, WRITTEN_TABLES, fuzzLogger, fuzzSuite } from './src/suite';

const silent = fuzzLogger();

/** Bodies that pass validation and reach the service: the trip of the docs, with generated variations. */
const validQuote = fc.record({
  destination: fc.constantFrom('Antarctica', 'antarctica', 'arctic', 'Galapagos', 'Kenya'),
  startDate: fc.integer({ min: 0, max: 400 }).map(dayFromToday),
  durationDays: fc.integer({ min: 1, max: 60 }),
  tripCost: fc.integer({ min: 0, max: 200_000 }),
  travelers: fc.constant(2),
  travelerAges: fc.tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 120 })),
  residence: fc.constantFrom('GB', 'US', 'DE', 'us', 'ZZ'),
  state: fc.option(fc.constantFrom('CA', 'NY', 'ZZ'), { nil: undefined }),
});

/**
 * ACP (`/acp/v1`, agent platforms): every operation of its OpenAPI document, with a live agent key, the protocol's
 * API-Version and a fresh Idempotency-Key per input (odd ones replace them). Nothing else to add for a new ACP route:
 * it is picked up from the document.
 */
async function acpRoutes(db: Database): Promise<RouteSpec[]> {
  const secret = randomToken('acpk_test', 32);
  await db.prisma.agentKey.create({
    data: { name: 'Fuzz platform', mode: 'test', prefix: secret.slice(0, 16), hash: hashToken(secret) },
  });
  let n = 0;
  return documentedOperations(buildAcpOpenApi())
    .filter((op) => !op.path.endsWith('openapi.json'))
    .map((op): RouteSpec => ({
      name: `${op.method} /acp/v1${op.path}`,
      method: op.method,
      path: `/acp/v1${op.path}`,
      query: op.query,
      body: op.body,
      params: { id: fc.oneof(fc.uuid(), fc.constantFrom('cs_0000', 'x')) },
      headers: () => ({
        authorization: `Bearer ${secret}`,
        'api-version': ACP_API_VERSION,
        'idempotency-key': `fuzz-${++n}`,
      }),
      oddHeaders: ['api-version', 'idempotency-key', 'authorization'],
      allowed: [...op.allowed, ...BODY_PARSER_STATUSES, 429],
      errorSchema: AcpErrorSchema,
      writes: [...WRITTEN_TABLES],
      bodyLimit: QUOTE_API_LIMITS.maxJsonBodyBytes,
    }));
}

fuzzSuite('quote-api', async () => {
  const db = await createTestDatabase();
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/processor/events',
    webhookSecret: 'whsec_fuzz',
    fetch: async () => new Response('{}', { status: 200 }),
  });
  const config = loadQuoteApiConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'fuzz-quote-')),
    LOG_LEVEL: 'silent',
    MPP_NETWORK_ID: 'profile_test',
    // The per-client limit is tested elsewhere; here it would turn most inputs into 429s.
    QUOTE_API_RATE_LIMIT_PER_MINUTE: '100000000',
    QUOTE_API_URL: `http://127.0.0.1:${FUZZ_PORTS.quoteApi}`,
  });
  const app = composeQuoteApi({ config, db, logger: silent, processor });

  return {
    db,
    app,
    port: FUZZ_PORTS.quoteApi,
    close: () => db.close(),
    async routes(): Promise<RouteSpec[]> {
      // One real quote, so checkout and purchase inputs reach past "not found".
      const res = await fetch(`http://127.0.0.1:${FUZZ_PORTS.quoteApi}/api/v1/quotes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          destination: 'Antarctica',
          startDate: dayFromToday(60),
          durationDays: 14,
          tripCost: 24000,
          travelers: 2,
          travelerAges: [45, 52],
          residence: 'GB',
        }),
      });
      const quote = (await res.json()) as { quoteId: string; sessionId: string; plans: { planId: string }[] };
      if (!quote.quoteId) throw new Error(`seed quote failed: ${JSON.stringify(quote)}`);
      const planIds = quote.plans.map((p) => p.planId);
      const allPlanIds = catalogSnapshot().plans.map((p) => p.id);
      const idOrOdd = (ids: string[]) => fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 12 }));
      const validCheckout = fc.oneof(
        fc.record(
          {
            quoteId: idOrOdd([quote.quoteId]),
            planId: idOrOdd(planIds),
            sessionId: idOrOdd([quote.sessionId]),
            email: fc.constantFrom('a@b.io', 'traveler@example.com'),
            guestNames: fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 3 }),
            agentSummary: fc.string({ maxLength: 100 }),
          },
          { requiredKeys: ['quoteId', 'planId', 'sessionId'] },
        ),
        fromZod(CheckoutRequestSchema),
      );
      const validPurchase = fc.oneof(
        fc.record({ quoteId: idOrOdd([quote.quoteId]), planId: idOrOdd(planIds) }),
        fromZod(PurchaseRequestSchema),
      );
      const errors = {
        errorSchema: ApiErrorSchema,
        writes: [...WRITTEN_TABLES],
        bodyLimit: QUOTE_API_LIMITS.maxJsonBodyBytes,
      };
      // Valid inputs per documented operation: the contract's generator, mixed with seeds that reach the services.
      const seeds: Record<string, Partial<RouteSpec>> = {
        'GET /api/v1/products': {
          query: fromZod(ProductListQuerySchema).map((q) =>
            Object.fromEntries(Object.entries(q as object).map(([k, v]) => [k, String(v)])),
          ),
        },
        'GET /api/v1/products/{planId}': { params: { planId: fc.constantFrom(...allPlanIds) } },
        'POST /api/v1/quotes': {
          body: fc.oneof({ weight: 2, arbitrary: validQuote }, { weight: 1, arbitrary: fromZod(QuoteRequestSchema) }),
        },
        'POST /api/v1/coverage-gap': {
          body: fc.oneof(
            fromZod(CoverageGapRequestSchema),
            fc.record({
              destination: fc.constantFrom(...listDestinations().map((d) => d.name)),
              creditCardName: fc.constantFrom('Chase Sapphire Reserve', 'Amex Platinum', 'x'),
              tripCost: fc.nat(),
            }),
          ),
        },
        'POST /api/v1/checkout': { body: validCheckout, oddHeaders: ['idempotency-key'] },
        // The 402 challenge is stored so the credential can be checked on the retry (the documented flow).
        'POST /api/v1/purchase': {
          body: validPurchase,
          oddHeaders: ['idempotency-key', 'authorization'],
          refusalWrites: { 402: ['payment_challenges'] },
        },
      };
      const documented = documentedOperations(
        buildQuoteApiOpenApi({ catalog: { destinations: listDestinations() } }),
      ).map((op): RouteSpec => {
        const name = `${op.method} ${op.path}`;
        // The document's statuses; the JSON parser of /api/v1 also answers 400/413/415 on every route (GETs included).
        return {
          name,
          method: op.method,
          path: op.path,
          query: op.query,
          body: op.body,
          allowed: [...op.allowed, ...BODY_PARSER_STATUSES],
          ...errors,
          ...seeds[name],
        };
      });
      return [
        ...documented,
        {
          // The checkout page a person opens (HTML): unknown or malformed tokens are a 404 page.
          name: 'GET /checkout/{token}',
          method: 'GET',
          path: '/checkout/{token}',
          params: {
            token: fc.string({ unit: fc.constantFrom(...'abcdefABCDEF0123456789_-'), minLength: 10, maxLength: 64 }),
          },
          allowed: [200, 404, 410],
          ...errors,
        },
        ...(await acpRoutes(db)),
      ];
    },
  };
});
