import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { agentRules, describeDestinations, QUOTE_DISCLAIMER, type AgentCatalog } from '../agent-guidance';
import { ApiErrorSchema } from '../common.schema';
import {
  DestinationListSchema,
  PlanDetailsSchema,
  PlanIdParamsSchema,
  ProductListQuerySchema,
  ProductListSchema,
} from '../quote-api/catalog.schema';
import { CheckoutRequestSchema, CheckoutResponseSchema } from '../quote-api/checkout.schema';
import { CoverageGapRequestSchema, CoverageGapResponseSchema } from '../quote-api/coverage-gap.schema';
import { PaymentProblemSchema, PurchaseReceiptSchema, PurchaseRequestSchema } from '../quote-api/purchase.schema';
import { QUOTE_API_LIMITS, QUOTE_API_VERSION } from '../quote-api/quote-api.constants';
import { QuoteRequestSchema, QuoteResponseSchema } from '../quote-api/quote.schema';
import { JSON_MAX_DEPTH } from '../storable-json';
import { TRIP_DATE_WINDOW } from '../trip-dates';

const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(ApiErrorSchema) });
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: PaymentProblemSchema } },
});

const requestIdHeader = z.string().meta({ description: 'Request id; also in logs. Send X-Request-Id to set it.' });
const rateLimited = {
  description: `More than ${QUOTE_API_LIMITS.requestsPerMinutePerClient} requests in a minute from this client.`,
  headers: z.object({ 'Retry-After': z.string().meta({ description: 'Whole seconds to wait.' }) }),
  ...json(ApiErrorSchema),
};
const common = { '400': error('Invalid request: see `details`.'), '429': rateLimited };

const describeApi = (catalog: AgentCatalog) => [
  `Quotes and sells travel insurance for polar and safari expeditions: ${describeDestinations(catalog)}. Designed to ` +
    'be called by AI agents on behalf of a traveler.',
  '',
  '## Rules for AI agents',
  ...agentRules(catalog).map((rule, i) => `${i + 1}. ${rule}`),
  '',
  '## Conventions',
  `- No authentication is needed. Each client may make ${QUOTE_API_LIMITS.requestsPerMinutePerClient} requests per ` +
    'minute (429 with Retry-After beyond that). JSON bodies are limited to 64 KiB (413 beyond that).',
  '- Money in request bodies and the USD figures in responses are dollars; fields ending in `Cents` are integer ' +
    'minor units. Ignore response fields you do not know: new optional fields are added without notice.',
  `- Dates are UTC calendar days: a departure from today to ${TRIP_DATE_WINDOW.maxDaysAhead} days ahead, a deposit ` +
    `date in the last ${TRIP_DATE_WINDOW.maxDepositDaysBack} days. Strings may not contain NUL or unpaired UTF-16 ` +
    `surrogates, and JSON may nest at most ${JSON_MAX_DEPTH} levels (400 \`invalid_request\` naming the field).`,
  '- Errors: `{ "error": "<message>", "code": "<machine code>", "details": [{ "path", "message" }] }`, except the ' +
    '402 of /purchase, which is RFC 9457 problem details.',
].join('\n');

/**
 * The document of /api/v1. `catalog` carries the facts the agent rules quote (destinations and their default
 * durations): the app passes domain-pricing's catalog, so the text can never disagree with what is priced.
 */
export function buildQuoteApiOpenApi(options: { serverUrl?: string; catalog: AgentCatalog }) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Expedition Travel Insurance — Quoting API',
      version: QUOTE_API_VERSION,
      description: describeApi(options.catalog),
    },
    servers: options.serverUrl ? [{ url: options.serverUrl }] : undefined,
    tags: [
      { name: 'catalog', description: 'Destinations and plans.' },
      { name: 'quotes', description: 'Premium estimates and coverage gaps.' },
      { name: 'buy', description: 'Checkout links for a human, or machine payment.' },
    ],
    paths: {
      '/api/v1/destinations': {
        get: {
          operationId: 'listDestinations',
          tags: ['catalog'],
          summary: 'List the destinations covered',
          responses: { '200': { description: 'All destinations.', ...json(DestinationListSchema) }, '429': rateLimited },
        },
      },
      '/api/v1/products': {
        get: {
          operationId: 'listProducts',
          tags: ['catalog'],
          summary: 'List insurance plans',
          description: 'Filter by destination slug, residence (and US state), and tier.',
          requestParams: { query: ProductListQuerySchema },
          responses: { '200': { description: 'Matching plans.', ...json(ProductListSchema) }, ...common },
        },
      },
      '/api/v1/products/{planId}': {
        get: {
          operationId: 'getProduct',
          tags: ['catalog'],
          summary: 'Show one plan in detail',
          requestParams: { path: PlanIdParamsSchema },
          responses: {
            '200': { description: 'The plan.', ...json(PlanDetailsSchema) },
            '404': error('No plan with that id.'),
            '429': rateLimited,
          },
        },
      },
      '/api/v1/quotes': {
        post: {
          operationId: 'createQuote',
          tags: ['quotes'],
          summary: 'Create a quote: premium estimates for every eligible plan',
          description:
            'Collect the details in the order given in the API description first. Present `plans[0]` (the ' +
            'recommended plan, `isRecommended: true`) first, then the alternatives, and relay `disclaimer` to the ' +
            `user: "${QUOTE_DISCLAIMER}"`,
          requestBody: { required: true, ...json(QuoteRequestSchema) },
          responses: {
            '200': {
              description: 'The quote, recommended plan first.',
              headers: z.object({ 'X-Request-Id': requestIdHeader }),
              ...json(QuoteResponseSchema),
            },
            '400': error('Required fields missing or invalid, or an unknown destination.'),
            '413': error('Body larger than 64 KiB.'),
            '429': rateLimited,
          },
        },
      },
      '/api/v1/coverage-gap': {
        post: {
          operationId: 'analyzeCoverageGap',
          tags: ['quotes'],
          summary: "Compare a credit card's travel benefits with what the expedition requires",
          description:
            'Unknown or missing card: every requirement is reported as a gap and `knownCards` lists the cards we ' +
            'know, so you can ask the user which one they hold. Pass `tripCostRange` when the exact cost is unknown.',
          requestBody: { required: true, ...json(CoverageGapRequestSchema) },
          responses: { '200': { description: 'The analysis.', ...json(CoverageGapResponseSchema) }, ...common },
        },
      },
      '/api/v1/checkout': {
        post: {
          operationId: 'createCheckout',
          tags: ['buy'],
          summary: 'Create a 30-minute checkout link where the human pays',
          requestBody: { required: true, ...json(CheckoutRequestSchema) },
          responses: {
            '200': { description: 'Give `checkoutUrl` to the user; it works for 30 minutes.', ...json(CheckoutResponseSchema) },
            '400': error('Missing fields, or the plan is not among the quote\'s plans (`invalid_plan`).'),
            '403': error('sessionId does not belong to this quote (`session_mismatch`).'),
            '404': error('No quote with that id (`quote_not_found`).'),
            '409': error('The quote is already purchased (`already_purchased`).'),
            '410': error('The quote has expired (`quote_expired`); create a new quote.'),
            '429': rateLimited,
          },
        },
      },
      '/api/v1/purchase': {
        post: {
          operationId: 'purchase',
          tags: ['buy'],
          summary: 'Buy a plan by machine payment (HTTP 402, MPP "Payment" scheme)',
          description:
            'First call without credentials: 402 with `WWW-Authenticate: Payment …` (method `stripe`, intent ' +
            '`charge`, amount = the plan premium in minor units, externalId = quoteId). Your wallet authorizes the ' +
            'payment and you repeat the identical request with `Authorization: Payment <credential>`. On success: ' +
            '200 with the receipt and a `Payment-Receipt` header. A quote that is already paid answers 200 ' +
            '`already_paid` and is not charged again. Send `Idempotency-Key` to make retries safe.',
          requestBody: { required: true, ...json(PurchaseRequestSchema) },
          responses: {
            '200': {
              description: 'Purchased (or already paid).',
              headers: z.object({
                'Payment-Receipt': z.string().meta({ description: 'base64url JSON receipt (MPP).' }),
                'Cache-Control': z.string().meta({ description: 'private' }),
              }),
              ...json(PurchaseReceiptSchema),
            },
            '400': {
              description:
                "Missing fields, a plan that is not among the quote's plans (`invalid_plan`), an inquiry plan, or " +
                '(as RFC 9457 problem+json) a credential for a method or intent we do not offer (`method-unsupported`).',
              content: {
                'application/json': { schema: ApiErrorSchema },
                'application/problem+json': { schema: PaymentProblemSchema },
              },
            },
            '402': {
              ...problem('Payment required, or the credential was rejected; a fresh challenge is attached.'),
              headers: z.object({
                'WWW-Authenticate': z.string().meta({ description: 'Payment id=…, realm=…, method="stripe", intent="charge", request=…, expires=…' }),
                'Cache-Control': z.string().meta({ description: 'no-store' }),
              }),
            },
            '404': error('No quote with that id.'),
            '409': {
              ...error(
                'Another payment for this quote is in progress (`payment_in_progress`; retry after `Retry-After` seconds: ' +
                  'the answer is then `already_paid` or a fresh challenge), or the payment could not become a policy and ' +
                  'is refunded automatically (`payment_refunded`). Nothing is charged twice.',
              ),
              headers: z.object({ 'Retry-After': z.string().meta({ description: 'Whole seconds (payment_in_progress).' }) }),
            },
            '410': error('The quote has expired (`quote_expired`); create a new quote.'),
            '422': error('The Idempotency-Key was already used with a different body or credential.'),
            '429': rateLimited,
            '503': error('The payment processor is unavailable; retry after Retry-After seconds. Nothing was charged.'),
          },
        },
      },
    },
  }, { override: dropSafeIntegerBounds });
}

/**
 * zod writes the safe-integer range (±9007199254740991) as `minimum`/`maximum` of every integer; it tells a client
 * nothing and reads like a real limit, so the document leaves those bounds out. Real bounds (e.g. `minimum: 0`) stay.
 */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: { minimum?: unknown; maximum?: unknown } }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}
