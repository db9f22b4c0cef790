import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { API_LICENSE } from './document-info';
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
import { PolicyCertificateQuerySchema, PolicyLookupSchema, PolicyNumberParamsSchema } from '../quote-api/policy.schema';
import { QUOTE_API_LIMITS, QUOTE_API_SANDBOX, QUOTE_API_VERSION } from '../quote-api/quote-api.constants';
import { QuoteRequestSchema, QuoteResponseSchema } from '../quote-api/quote.schema';
import { JSON_MAX_DEPTH } from '../storable-json';
import { TRIP_DATE_WINDOW } from '../rules';

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

const idempotencyKey = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({
      description:
        'Optional; a new unique value (a UUID) per intended action. A retry with the same key and the same body gets ' +
        'the same answer; the same key with another body is 422. Keys of /checkout and /purchase are separate.',
    }),
});
const expired = error(
  'The quote has expired (`quote_expired`): its premiums were held until its `expiresAt` and nothing was charged. ' +
    'Create a new quote with the same trip details and use the new quoteId and planId.',
);
const policyNotFound = error(
  'No policy matches this policy number and token (`policy_not_found`): an unknown number, a wrong token and another ' +
    "policy's token all get this same answer.",
);
const policyUnauthorized = {
  ...error('No access token sent (`unauthorized`).'),
  headers: z.object({ 'WWW-Authenticate': z.string().meta({ description: 'Bearer realm="policies"' }) }),
};
const privateHeaders = {
  'Cache-Control': z.string().meta({ description: 'private, no-store' }),
  'Referrer-Policy': z.string().meta({ description: 'no-referrer' }),
  'X-Robots-Tag': z.string().meta({ description: 'noindex' }),
};
const sandbox = QUOTE_API_SANDBOX;
const sandboxQuote =
  `Sandbox (test mode): \`tripCost\` exactly ${sandbox.quoteRefusal.tripCost} or \`email\` ` +
  `\`${sandbox.quoteRefusal.email}\` is refused on purpose: 400 \`invalid_request\` with a message starting "Sandbox:", ` +
  'nothing stored.';

const describeApi = (catalog: AgentCatalog) =>
  [
    `Quotes and sells travel insurance for polar and safari expeditions: ${describeDestinations(catalog)}. Designed to ` +
      'be called by AI agents on behalf of a traveler.',
    '',
    '## Rules for AI agents',
    ...agentRules(catalog).map((rule, i) => `${i + 1}. ${rule}`),
    '',
    '## Conventions',
    '- No authentication is needed, except for reading a policy: its access token (`pat_…`, from the purchase ' +
      `receipt) as \`Authorization: Bearer\`. Each client may make ${QUOTE_API_LIMITS.requestsPerMinutePerClient} requests per ` +
      'minute (429 with Retry-After beyond that). JSON bodies are limited to 64 KiB (413 beyond that) and are UTF-8 ' +
      '(415 for any other declared charset); request headers are limited to 16 KiB (431).',
    '- Money in request bodies and the USD figures in responses are dollars; fields ending in `Cents` are integer ' +
      'minor units. Ignore response fields you do not know: new optional fields are added without notice.',
    `- Dates are UTC calendar days: a departure from today to ${TRIP_DATE_WINDOW.maxDaysAhead} days ahead, a deposit ` +
      `date in the last ${TRIP_DATE_WINDOW.maxDepositDaysBack} days. Strings may not contain NUL or unpaired UTF-16 ` +
      `surrogates, and JSON may nest at most ${JSON_MAX_DEPTH} levels (400 \`invalid_request\` naming the field).`,
    '- Errors: `{ "error": "<message>", "code": "<machine code>", "details": [{ "path", "message" }] }`, except the ' +
      '402 of /purchase, which is RFC 9457 problem details.',
    '- A quote holds its premiums until its `expiresAt` (30 days, or the departure if sooner): checkout and purchase ' +
      'charge exactly the quoted amounts until then, and answer 410 `quote_expired` after it (quote again; never a ' +
      'silent reprice). Send `Idempotency-Key` on POST /api/v1/checkout and /purchase to make retries safe.',
    '',
    '## Sandbox (test mode)',
    `- ${sandboxQuote}`,
    `- Payment declined: the card ${sandbox.declinedCard} on the checkout page (${sandbox.successCard} succeeds); a ` +
      `Shared Payment Token starting \`${sandbox.declinedSptPrefix}\` in the /purchase credential → 402 ` +
      '`verification-failed` with a fresh challenge (any other `spt_test_…` token succeeds).',
    '',
    '## Discovery',
    '- `/llms.txt` (this guidance as text), `/.well-known/api-catalog` (RFC 9727 linkset) and the MCP server at `/mcp`.',
  ].join('\n');

/**
 * The document of /api/v1. `catalog` carries the facts the agent rules quote (destinations and their default
 * durations): the app passes domain-pricing's catalog, so the text can never disagree with what is priced.
 */
export function buildQuoteApiOpenApi(options: { serverUrl?: string; catalog: AgentCatalog }) {
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Expedition Travel Insurance — Quoting API',
        version: QUOTE_API_VERSION,
        description: describeApi(options.catalog),
        license: API_LICENSE,
      },
      servers: options.serverUrl ? [{ url: options.serverUrl }] : undefined,
      tags: [
        { name: 'catalog', description: 'Destinations and plans.' },
        { name: 'quotes', description: 'Premium estimates and coverage gaps.' },
        { name: 'buy', description: 'Checkout links for a human, or machine payment.' },
        {
          name: 'policies',
          description: 'After the sale: the policy and its certificate, for the holder of its access token.',
        },
      ],
      components: {
        securitySchemes: {
          mppPayment: {
            type: 'http',
            scheme: 'Payment',
            description:
              'Machine payment (MPP): `Authorization: Payment <credential>`, the answer to the `WWW-Authenticate: Payment` ' +
              'challenge of a 402, carrying a Shared Payment Token for exactly the challenged amount.',
          },
          policyAccessToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              "The policy's access token (`pat_…`) from the purchase receipt (`accessToken`), the checkout success page, " +
              'or the `policy.issued` webhook (inside `documentUrl`). It opens that one policy only.',
          },
          policyAccessTokenQuery: {
            type: 'apiKey',
            in: 'query',
            name: 'access_token',
            description: 'The same token in the certificate URL, so a person can open `documentUrl` from a receipt.',
          },
        },
      },
      paths: {
        '/api/v1/destinations': {
          get: {
            operationId: 'listDestinations',
            // Public: no key, no account (rate-limited per client).
            security: [],
            tags: ['catalog'],
            summary: 'List the destinations covered',
            responses: {
              '200': { description: 'All destinations.', ...json(DestinationListSchema) },
              '429': rateLimited,
            },
          },
        },
        '/api/v1/products': {
          get: {
            operationId: 'listProducts',
            // Public: no key, no account (rate-limited per client).
            security: [],
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
            // Public: no key, no account (rate-limited per client).
            security: [],
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
            // Public: no key, no account (rate-limited per client).
            security: [],
            tags: ['quotes'],
            summary: 'Create a quote: premium estimates for every eligible plan',
            description:
              'Collect the details in the order given in the API description first. Present `plans[0]` (the ' +
              'recommended plan, `isRecommended: true`) first, then the alternatives, and relay `disclaimer` to the ' +
              `user: "${QUOTE_DISCLAIMER}" The premiums are held until \`expiresAt\`. ${sandboxQuote}`,
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
            // Public: no key, no account (rate-limited per client).
            security: [],
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
            // Public: no key, no account (rate-limited per client).
            security: [],
            tags: ['buy'],
            summary: 'Create a 30-minute checkout link where the human pays',
            description:
              'Creating a link charges nothing: the person pays on the page, at the premium of the quote (held until the ' +
              "quote's `expiresAt`; a link opened before then keeps that price for its 30 minutes). Send " +
              '`Idempotency-Key` so that a retry returns the same link instead of a second one. Sandbox (test mode): ' +
              `on the page the card ${sandbox.declinedCard} is declined and ${sandbox.successCard} succeeds.`,
            requestParams: { header: idempotencyKey },
            requestBody: { required: true, ...json(CheckoutRequestSchema) },
            responses: {
              '200': {
                description: 'Give `checkoutUrl` to the user; it works for 30 minutes.',
                headers: z.object({
                  'Idempotent-Replayed': z.literal('true').optional().meta({
                    description:
                      'Present when this is the stored answer to an earlier request with the same Idempotency-Key.',
                  }),
                  'Cache-Control': z.string().meta({ description: 'no-store (the link is a bearer secret)' }),
                }),
                ...json(CheckoutResponseSchema),
              },
              '400': error("Missing fields, or the plan is not among the quote's plans (`invalid_plan`)."),
              '403': error('sessionId does not belong to this quote (`session_mismatch`).'),
              '404': error('No quote with that id (`quote_not_found`).'),
              '409': error('The quote is already purchased (`already_purchased`).'),
              '410': expired,
              '422': error('The Idempotency-Key was already used with a different body (`invalid_request`).'),
              '429': rateLimited,
            },
          },
        },
        '/api/v1/purchase': {
          post: {
            operationId: 'purchase',
            // Public to call; the first call gets the 402 challenge, the repeat carries the MPP credential.
            security: [{}, { mppPayment: [] }],
            tags: ['buy'],
            summary: 'Buy a plan by machine payment (HTTP 402, MPP "Payment" scheme)',
            description:
              'First call without credentials: 402 with `WWW-Authenticate: Payment …` (method `stripe`, intent ' +
              '`charge`, amount = the plan premium in minor units, externalId = quoteId). Your wallet authorizes the ' +
              'payment and you repeat the identical request with `Authorization: Payment <credential>`. On success: ' +
              '200 with the receipt and a `Payment-Receipt` header. A quote that is already paid answers 200 ' +
              '`already_paid` and is not charged again. Send `Idempotency-Key` to make retries safe. An expired quote ' +
              `answers 410 \`quote_expired\`. Sandbox (test mode): a Shared Payment Token starting \`${sandbox.declinedSptPrefix}\` ` +
              'is declined (402 `verification-failed` with a fresh challenge); any other `spt_test_…` token succeeds.',
            requestParams: { header: idempotencyKey },
            requestBody: { required: true, ...json(PurchaseRequestSchema) },
            responses: {
              '200': {
                description: 'Purchased (or already paid).',
                headers: z.object({
                  'Payment-Receipt': z.string().meta({ description: 'base64url JSON receipt (MPP).' }),
                  'Cache-Control': z.string().meta({
                    description: "private; `private, no-store` when the receipt carries the policy's accessToken",
                  }),
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
                  'WWW-Authenticate': z.string().meta({
                    description: 'Payment id=…, realm=…, method="stripe", intent="charge", request=…, expires=…',
                  }),
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
                headers: z.object({
                  'Retry-After': z.string().meta({ description: 'Whole seconds (payment_in_progress).' }),
                }),
              },
              '410': expired,
              '422': error('The Idempotency-Key was already used with a different body or credential.'),
              '429': rateLimited,
              '503': error(
                'The payment processor is unavailable; retry after Retry-After seconds. Nothing was charged.',
              ),
            },
          },
        },
        '/api/v1/policies/{policyNumber}': {
          get: {
            operationId: 'getPolicy',
            tags: ['policies'],
            summary: 'Look up a policy (its holder only)',
            description:
              'The policy as issued: status, plan and its limits, trip, travelers, premium in minor units, issue date, ' +
              '`documentUrl` (the certificate, PDF) and the disclaimer to relay. Send the access token of the receipt ' +
              'as `Authorization: Bearer pat_…`. A `test` policy is a sandbox policy: NOT valid for travel.',
            security: [{ policyAccessToken: [] }],
            requestParams: { path: PolicyNumberParamsSchema },
            responses: {
              '200': { description: 'The policy.', headers: z.object(privateHeaders), ...json(PolicyLookupSchema) },
              '401': policyUnauthorized,
              '404': policyNotFound,
              '429': rateLimited,
            },
          },
        },
        '/api/v1/policies/{policyNumber}/certificate.pdf': {
          get: {
            operationId: 'getPolicyCertificate',
            tags: ['policies'],
            summary: 'The certificate of insurance (PDF)',
            description:
              'Policy number, insured travelers, trip, plan and limits, premium, dates and the disclaimer, as a PDF; a ' +
              'test policy is marked SPECIMEN / TEST — NOT VALID FOR TRAVEL. The token goes in `access_token` (the ' +
              "receipt's `documentUrl` already carries it) or as `Authorization: Bearer`. The same policy always gives " +
              'the same bytes.',
            security: [{ policyAccessTokenQuery: [] }, { policyAccessToken: [] }],
            requestParams: { path: PolicyNumberParamsSchema, query: PolicyCertificateQuerySchema },
            responses: {
              '200': {
                description: 'The certificate.',
                headers: z.object({
                  ...privateHeaders,
                  'Content-Disposition': z.string().meta({
                    description:
                      'inline; filename="<name>-<policyNumber>.pdf"; filename*=UTF-8\'\'<name>-<policyNumber>.pdf — ' +
                      "named in the certificate's language (certificate, Versicherungsbestätigung, " +
                      'attestation d’assurance, certificado de seguro): `filename` in ASCII, `filename*` (RFC 6266) in UTF-8.',
                  }),
                }),
                content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
              },
              '401': policyUnauthorized,
              '404': policyNotFound,
              '429': rateLimited,
            },
          },
        },
      },
    },
    { override: dropSafeIntegerBounds },
  );
}

/**
 * zod writes the safe-integer range (±9007199254740991) as `minimum`/`maximum` of every integer; it tells a client
 * nothing and reads like a real limit, so the document leaves those bounds out. Real bounds (e.g. `minimum: 0`) stay.
 */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: { minimum?: unknown; maximum?: unknown } }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}
