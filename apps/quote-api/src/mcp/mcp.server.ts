import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  CheckoutRequestSchema,
  CheckoutResponseSchema,
  CoverageGapRequestSchema,
  CoverageGapResponseSchema,
  DestinationListSchema,
  PlanDetailsSchema,
  PlanIdParamsSchema,
  PolicyLookupSchema,
  ProductListQuerySchema,
  ProductListSchema,
  QUOTE_API_VERSION,
  QUOTE_DISCLAIMER,
  QuoteRequestSchema,
  QuoteResponseSchema,
  agentRules,
  policyWordingUrls,
  describeDefaultDurations,
  type PlanDetails,
  type ProductList,
  type QuoteResponse,
} from '@expedition/contracts';
import {
  analyzeCoverageGap,
  dollarsToCents,
  findDestination,
  getPlan,
  listDestinations,
  listPlans,
} from '@expedition/domain-pricing';
import { AppError, parseOrThrow } from '@expedition/http-kit';
import { formatPaymentReceipt, formatWwwAuthenticate, problemDetails, decodeRequest } from '@expedition/payments';
import { policyWording, renderWordingPdf } from '@expedition/policy-documents';
import { toDestinationDto, toPlanDetails, toPlanSummary } from '../catalog/catalog.mapper';
import { renderWordingPage } from '../documents/wording.page';
import { rethrowPricingError } from '../pricing-errors';
import type { PurchaseResult } from '../purchase/purchase.service';
import { createApiQuote } from '../quotes/create-api-quote';
import { McpPurchaseInputSchema, McpPurchaseOutputSchema, type McpPurchaseOutput } from './mcp.schemas';
import type { McpServices } from './mcp.services';

/**
 * A contract's fields as a tool schema. The contracts carry registry ids (for the OpenAPI components), which would
 * make the root of the tool's JSON Schema a `$ref`; MCP requires `type: "object"` there. Refinements of the root are
 * re-checked by the tool itself where they matter (create_quote, list_plans).
 */
function toolSchema<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return z.object(schema.shape);
}

export const MCP_SERVER_NAME = 'expedition-insurance';

const GetPolicyInputSchema = z.object({
  policyNumber: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .meta({ description: 'From the purchase receipt (receipt.policyNumber).' }),
  accessToken: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .meta({ description: "receipt.accessToken (pat_…): the policy's bearer token." }),
});

/** The tool names, stable: agents and their hosts remember them. */
export const MCP_TOOLS = [
  'list_destinations',
  'list_plans',
  'get_plan',
  'create_quote',
  'coverage_gap',
  'create_checkout_link',
  'purchase',
  'get_policy',
] as const;

const money = (usd: number) =>
  `$${usd.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;

/** The rules for AI agents (docs/contract.md, Quoting API), worded for tools instead of HTTP routes. */
export function mcpInstructions(): string {
  const catalog = { destinations: listDestinations() };
  const [order, durations, ages, , disclaimer] = agentRules(catalog);
  return [
    `Expedition travel insurance for remote trips (${catalog.destinations.map((d) => d.name).join(', ')}): quote, compare, and buy.`,
    order,
    durations,
    ages,
    'Call create_quote, present the recommended plan first (plans[0], isRecommended=true), then the alternatives. ' +
      'When the traveler wants to buy, call create_checkout_link and give them the checkoutUrl (valid 30 minutes; ' +
      'creating it charges nothing, the person pays there), or call purchase only if you hold a payment wallet and ' +
      'the traveler asked you to pay.',
    disclaimer,
    'After a purchase, get_policy shows the policy to whoever holds its accessToken (from the purchase receipt); ' +
      'give the traveler the documentUrl (their certificate, PDF) and keep the token private.',
    "Pass an email or names only with the traveler's agreement.",
  ].join('\n');
}

/** The prompt `quote_conversation` names and its resources' URIs: stable, clients remember them. */
export const MCP_PROMPTS = ['quote_conversation'] as const;
export const MCP_RESOURCE_TEMPLATES = {
  wording: 'expedition://plans/{planId}/wording',
  policy: 'expedition://policies/{policyNumber}{?access_token}',
} as const;

/** MCP's "resource not found" (spec, resources: error handling). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * The quote conversation the specification asks of agents (docs/contract.md, rules for AI agents; as
 * `mcpInstructions`), as the user message of the `quote_conversation` prompt, with what the traveler already said when
 * the client passes it.
 */
export function quoteConversationPrompt(travelerRequest?: string): string {
  const [order, durations, ages, , disclaimer] = agentRules({ destinations: listDestinations() });
  const steps = [
    'Help me buy expedition travel insurance with the tools of the expedition-insurance server. Walk the conversation like this:',
    `1. ${order} Ask only for what is still missing, one question at a time.`,
    `2. ${durations}`,
    `3. ${ages}`,
    '4. Call create_quote. Present the recommended plan first (plans[0], isRecommended=true) with its price and main ' +
      'limits, then the alternatives briefly. Prices hold until expiresAt.',
    `5. ${disclaimer}`,
    '6. When I choose a plan, call create_checkout_link and give me the checkoutUrl (valid 30 minutes; I pay there, ' +
      'nothing is charged before). Use purchase only if you hold a payment wallet and I asked you to pay.',
  ];
  if (travelerRequest?.trim()) steps.push('', `What I have said so far: ${travelerRequest.trim()}`);
  return steps.join('\n');
}

/** An MCP server with every tool; one per HTTP request (stateless), or one for the stdio process. */
export function createMcpServer(services: McpServices, options: { requestId?: string } = {}): McpServer {
  const { logger } = services;
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Expedition travel insurance', version: QUOTE_API_VERSION },
    { instructions: mcpInstructions(), capabilities: { resources: {}, prompts: {} } },
  );

  /** Runs a tool: structured content plus a short text, or an MCP tool error with useful text, never a stack trace. */
  async function run<T extends object>(
    tool: string,
    fn: () => Promise<{ data: T; text: string }> | { data: T; text: string },
  ): Promise<CallToolResult> {
    try {
      const { data, text } = await fn();
      return { structuredContent: data as Record<string, unknown>, content: [{ type: 'text', text }] };
    } catch (err) {
      return toolError(tool, err);
    }
  }

  function toolError(tool: string, err: unknown): CallToolResult {
    if (err instanceof AppError) {
      const lines = [`${err.message} (code ${err.code}, as HTTP ${err.status} on /api/v1).`];
      for (const d of err.details ?? []) lines.push(`- ${d.path}: ${d.message}`);
      if (err.code === 'quote_expired')
        lines.push('Create a new quote with create_quote; prices are never changed silently.');
      return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
    }
    logger.error({ err, tool, requestId: options.requestId }, 'mcp tool failed');
    const ref = options.requestId ? ` Reference: ${options.requestId}.` : '';
    return {
      isError: true,
      content: [{ type: 'text', text: `Internal error in ${tool}; try again in a moment.${ref}` }],
    };
  }

  const durations = describeDefaultDurations({ destinations: listDestinations() });

  server.registerTool(
    'list_destinations',
    {
      title: 'List destinations',
      description:
        "The destinations we insure, with each one's default trip duration (defaultDurationDays). Use a slug as " +
        `create_quote's destination. If the traveler gives no duration, use the default (${durations}) and tell them.`,
      outputSchema: toolSchema(DestinationListSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () =>
      run('list_destinations', () => {
        const destinations = listDestinations().map(toDestinationDto);
        return {
          data: { destinations },
          text: `${destinations.length} destinations: ${destinations.map((d) => `${d.name} (${d.slug}, default ${d.defaultDurationDays} days)`).join(', ')}.`,
        };
      }),
  );

  server.registerTool(
    'list_plans',
    {
      title: 'List insurance plans',
      description:
        'Plans, optionally filtered by destination slug, residence (and US state), and tier. Shows indicative prices ' +
        'only; for a price for this trip and these travelers call create_quote.',
      inputSchema: toolSchema(ProductListQuerySchema),
      outputSchema: toolSchema(ProductListSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      run('list_plans', () => {
        const query = parseOrThrow(ProductListQuerySchema, args, 'arguments');
        const destination = query.destination ? findDestination(query.destination) : undefined;
        if (query.destination && !destination) {
          throw new AppError(400, 'unknown_destination', `Unknown destination "${query.destination}"`, [
            {
              path: 'destination',
              message: `use one of: ${listDestinations()
                .map((d) => d.slug)
                .join(', ')}`,
            },
          ]);
        }
        const plans = listPlans({
          destination: destination?.slug,
          residence: query.residence,
          state: query.state,
          tier: query.tier,
          includeDisabled: query.include_disabled,
        });
        const data: ProductList = {
          destination: destination?.slug ?? 'all',
          plansCount: plans.length,
          plans: plans.map((p) => toPlanSummary(p)),
        };
        return {
          data,
          text: `${plans.length} plans${destination ? ` for ${destination.name}` : ''}: ${plans.map((p) => `${p.name} (${p.id})`).join(', ')}.`,
        };
      }),
  );

  server.registerTool(
    'get_plan',
    {
      title: 'Plan details',
      description:
        'Coverage limits, eligibility (ages, trip length, residence) and policy terms of one plan, by planId.',
      inputSchema: toolSchema(PlanIdParamsSchema),
      outputSchema: toolSchema(PlanDetailsSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ planId }) =>
      run('get_plan', () => {
        const plan = getPlan(planId);
        if (!plan)
          throw AppError.notFound('plan_not_found', `No plan with id "${planId}"; list_plans names every plan`);
        const data: PlanDetails = toPlanDetails(plan, services.publicUrl);
        const c = data.coverage;
        return {
          data,
          text:
            `${data.planName} (${data.carrier}, ${data.tier}): medical ${money(c.medicalExpenseLimit)}, evacuation ` +
            `${money(c.evacuationCoverage)}, trip cancellation ${money(c.tripCancellation)}, deductible ${money(c.deductible)}; ` +
            `ages ${data.eligibility.minAge}–${data.eligibility.maxAge}.`,
        };
      }),
  );

  server.registerTool(
    'create_quote',
    {
      title: 'Quote a trip',
      description: [
        'Prices every eligible plan for one trip. Ask in this order, using what the traveler already said first: ' +
          "(1) destination, (2) departure date and duration, (3) number of travelers and EACH traveler's age at " +
          'departure, (4) total trip cost for ALL travelers in USD, (5) country of residence, and the US state if US.',
        `No duration given: use the destination's default (${durations}) and tell the traveler you assumed it.`,
        'Ages 70 and over cost significantly more: always ask for every age.',
        'Present the recommended plan first (plans[0], isRecommended=true), then the alternatives, and always relay ' +
          'the disclaimer. Prices hold until expiresAt. Creating a quote charges nothing.',
      ].join(' '),
      inputSchema: toolSchema(QuoteRequestSchema),
      outputSchema: toolSchema(QuoteResponseSchema),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      run('create_quote', async () => {
        const data = await createApiQuote(services, args, { where: 'arguments' });
        services.metrics?.quoteCreated('mcp');
        return { data, text: quoteText(data) };
      }),
  );

  server.registerTool(
    'coverage_gap',
    {
      title: "Compare a credit card's travel cover",
      description:
        "What a credit card's built-in travel insurance leaves uncovered on this trip (cancellation, medical, " +
        'evacuation), and which plans close the gap. Relay the disclaimer.',
      inputSchema: toolSchema(CoverageGapRequestSchema),
      outputSchema: toolSchema(CoverageGapResponseSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (body) =>
      run('coverage_gap', () => {
        let analysis;
        try {
          analysis = analyzeCoverageGap({
            destination: body.destination,
            creditCardName: body.creditCardName,
            tripCostCents: body.tripCost === undefined ? undefined : dollarsToCents(body.tripCost),
            tripCostRange: body.tripCostRange,
          });
        } catch (err) {
          rethrowPricingError(err);
        }
        const data = { ...analysis, disclaimer: QUOTE_DISCLAIMER };
        return { data, text: `${data.summary}\n\n${QUOTE_DISCLAIMER}` };
      }),
  );

  server.registerTool(
    'create_checkout_link',
    {
      title: 'Create a checkout link',
      description:
        'A secure link where the traveler pays for the chosen plan of a quote, valid 30 minutes. Creating it charges ' +
        'nothing: a person pays there. Give the traveler the checkoutUrl. Pass email, guest names or a summary only ' +
        "with the traveler's agreement (they are shown on the checkout page).",
      inputSchema: toolSchema(CheckoutRequestSchema),
      outputSchema: toolSchema(CheckoutResponseSchema),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (body) =>
      run('create_checkout_link', async () => {
        const data = await services.checkout.open(body);
        return {
          data,
          text: `Checkout link (valid until ${data.expiresAt}): ${data.checkoutUrl}\nNothing was charged; the traveler pays on that page.`,
        };
      }),
  );

  server.registerTool(
    'purchase',
    {
      title: 'Buy a plan with your payment wallet',
      description: [
        'Machine payment (MPP "Payment" scheme, method stripe, intent charge), only when you hold a payment wallet and',
        'the traveler asked you to pay; otherwise use create_checkout_link. First call with quoteId and planId: nothing',
        'is charged; you get outcome payment_required and a challenge (the price is challenge.request, in minor units).',
        'Have your wallet pay the challenge with a Shared Payment Token, then call again with the same quoteId and',
        'planId plus `credential`: outcome purchased and a receipt. A repeated call never charges twice',
        '(already_paid). A new challenge after a failed payment replaces the old one. The receipt of the paying call',
        '(and of a retry with the same credential) carries policyNumber, accessToken and documentUrl (the certificate,',
        'PDF): give the traveler documentUrl and keep the token for get_policy. Relay the disclaimer.',
      ].join(' '),
      inputSchema: McpPurchaseInputSchema,
      outputSchema: McpPurchaseOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ quoteId, planId, credential }) =>
      run('purchase', async () => {
        const authorization =
          credential === undefined || /^payment\s/i.test(credential) ? credential : `Payment ${credential}`;
        return purchaseOutcome(await services.purchases.purchase({ quoteId, planId }, authorization));
      }),
  );

  server.registerTool(
    'get_policy',
    {
      title: 'Look up a policy',
      description:
        'The policy bought for a quote: status, plan and limits, trip, travelers, premium, and documentUrl (the ' +
        'certificate of insurance, PDF). Needs the policy number and the accessToken from the purchase receipt ' +
        "(or the traveler's receipt page). An unknown number and a wrong token answer the same not-found error. " +
        'Give the traveler documentUrl; do not post it publicly (it carries the token). Relay the disclaimer.',
      inputSchema: GetPolicyInputSchema,
      outputSchema: toolSchema(PolicyLookupSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ policyNumber, accessToken }) =>
      run('get_policy', async () => {
        const data = await services.policies.lookup(policyNumber, accessToken);
        const test = data.mode === 'test' ? ' TEST policy (sandbox): not valid for travel.' : '';
        return {
          data,
          text:
            `Policy ${data.policyNumber} (${data.status}):${test} ${data.plan.planName}, ${data.trip.destination} ` +
            `${data.trip.startDate ?? '?'} → ${data.trip.endDate ?? '?'}, ${data.travelers.count} traveler(s), premium ` +
            `${(data.premiumCents / 100).toFixed(2)} ${data.currency}. Certificate (PDF): ${data.documentUrl}\n${data.disclaimer}`,
        };
      }),
  );

  server.registerResource(
    'disclaimer',
    'expedition://disclaimer',
    {
      title: 'Disclaimer to relay',
      description: 'Relay this text to the traveler with every quote.',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: QUOTE_DISCLAIMER }] }),
  );
  server.registerResource(
    'agent-rules',
    'expedition://agent-rules',
    {
      title: 'Rules for agents',
      description: 'Question order, default durations, ages 70+, presenting plans, the disclaimer.',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: mcpInstructions() }] }),
  );
  server.registerResource(
    'destinations',
    'expedition://destinations',
    {
      title: 'Destinations',
      description: 'Every destination with its slug and default trip duration.',
      mimeType: 'application/json',
    },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ destinations: listDestinations().map(toDestinationDto) }),
        },
      ],
    }),
  );

  server.registerResource(
    'plan-wording',
    new ResourceTemplate(MCP_RESOURCE_TEMPLATES.wording, {
      list: () => ({
        resources: listPlans({}).map((p) => ({
          uri: `expedition://plans/${encodeURIComponent(p.id)}/wording`,
          name: `${p.name}: policy wording`,
          mimeType: 'text/html',
        })),
      }),
      complete: {
        planId: (value) =>
          listPlans({})
            .map((p) => p.id)
            .filter((id) => id.startsWith(value)),
      },
    }),
    {
      title: 'Policy wording of a plan',
      description:
        'The policy wording (what is covered, limits, exclusions, emergencies, claims) of one plan, as the HTML page ' +
        'and the PDF served at /policy-wording/{planId}. Quote from it when the traveler asks what a plan covers.',
      mimeType: 'text/html',
    },
    async (uri, { planId }) => {
      const plan = getPlan(String(planId));
      if (!plan)
        throw new McpError(
          RESOURCE_NOT_FOUND,
          `Resource not found: no plan "${String(planId)}"; list_plans names every plan`,
        );
      const wording = policyWording(plan);
      const urls = policyWordingUrls(services.publicUrl, plan.id);
      return {
        contents: [
          { uri: uri.href, mimeType: 'text/html', text: renderWordingPage(wording, urls) },
          {
            uri: urls.pdf,
            mimeType: 'application/pdf',
            blob: (await renderWordingPdf(wording, urls)).toString('base64'),
          },
        ],
      };
    },
  );

  server.registerResource(
    'policy',
    new ResourceTemplate(MCP_RESOURCE_TEMPLATES.policy, { list: undefined }),
    {
      title: 'A policy (with its access token)',
      description:
        'The policy bought for a quote, as get_policy answers it: expedition://policies/{policyNumber}?access_token=pat_… ' +
        '(both from the purchase receipt). An unknown number and a wrong token are the same not-found error.',
      mimeType: 'application/json',
    },
    async (uri, { policyNumber, access_token }) => {
      const number = String(policyNumber ?? '');
      const token = String(access_token ?? '');
      let policy;
      try {
        policy = await services.policies.lookup(number, token);
      } catch (err) {
        if (err instanceof AppError && err.status < 500)
          throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found: no policy with this number and access token');
        throw err;
      }
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(policy) }] };
    },
  );

  server.registerPrompt(
    'quote_conversation',
    {
      title: 'Quote and buy travel insurance',
      description:
        'Walks you through the quote conversation: the question order, default durations, every age (70+ costs more), ' +
        'the recommended plan first, the disclaimer, then the checkout link.',
      argsSchema: {
        traveler_request: z
          .string()
          .max(2000)
          .optional()
          .describe('What the traveler has already said about the trip (optional).'),
      },
    },
    ({ traveler_request }) => ({
      description: 'The quote conversation for expedition travel insurance',
      messages: [{ role: 'user', content: { type: 'text', text: quoteConversationPrompt(traveler_request) } }],
    }),
  );

  return server;
}

function quoteText(q: QuoteResponse): string {
  const [first, ...rest] = q.plans;
  const lines = [
    `Quote ${q.quoteNumber} for ${q.tripSummary.destination.name}, ${q.tripSummary.durationDays} days${q.tripSummary.durationDefaulted ? ' (default duration assumed: tell the traveler)' : ''}, ${q.tripSummary.travelers} traveler(s).`,
  ];
  if (first) {
    lines.push(`Recommended: ${first.planName} (${first.planId}) ${money(first.estimatedPremium)} total.`);
    if (rest.length)
      lines.push(`Alternatives: ${rest.map((p) => `${p.planName} ${money(p.estimatedPremium)}`).join('; ')}.`);
  } else {
    lines.push('No plan is eligible for this trip; see ineligiblePlans for the reasons.');
  }
  if (q.expiresAt) lines.push(`Prices hold until ${q.expiresAt}.`);
  lines.push(q.disclaimer);
  return lines.join('\n');
}

/** The purchase service's answer as tool output: the 402 challenge and the receipt are data; the rest are tool errors. */
function purchaseOutcome(result: PurchaseResult): { data: McpPurchaseOutput; text: string } {
  switch (result.kind) {
    case 'receipt': {
      const { receipt } = result;
      const paymentReceipt = formatPaymentReceipt({
        status: 'success',
        method: 'stripe',
        timestamp: result.paidAt,
        reference: receipt.paymentReference ?? receipt.quoteNumber,
        externalId: receipt.quoteId,
      });
      const done =
        receipt.status === 'purchased'
          ? `Purchased ${receipt.planName}`
          : `Already paid: ${receipt.planName}, no new charge`;
      return {
        data: { outcome: receipt.status, receipt, paymentReceipt, disclaimer: QUOTE_DISCLAIMER },
        text: `${done} (${money(receipt.amountCharged)} ${receipt.currency}, quote ${receipt.quoteNumber}). ${receipt.nextSteps}\n${QUOTE_DISCLAIMER}`,
      };
    }
    case 'payment_required': {
      const { challenge } = result;
      const problem = problemDetails(result.problem, { detail: result.detail, challengeId: challenge.id });
      const request = decodeRequest(challenge.request);
      const amountCents = Number(request.amount);
      return {
        data: {
          outcome: 'payment_required',
          amountCents,
          currency: request.currency.toUpperCase(),
          challenge: { ...challenge, wwwAuthenticate: formatWwwAuthenticate(challenge) },
          problem,
          disclaimer: QUOTE_DISCLAIMER,
        },
        text:
          `Payment required: ${money(amountCents / 100)} ${request.currency.toUpperCase()} (${problem.detail}). Nothing was charged. ` +
          `Have your wallet pay challenge ${challenge.id} (expires ${challenge.expires}), then call purchase again with the credential.`,
      };
    }
    case 'method_unsupported':
      throw new AppError(400, 'invalid_request', `${result.detail}. Nothing was charged.`);
    case 'in_progress':
      throw new AppError(
        409,
        'payment_in_progress',
        `A payment for this quote is in progress; retry in ${result.retryAfterSec} s (nothing was charged by this call)`,
      );
    case 'processor_unavailable':
      throw new AppError(
        503,
        'internal_error',
        `The payment processor is unavailable; retry in ${result.retryAfterSec} s`,
      );
    case 'refunded':
      throw new AppError(409, 'payment_refunded', result.detail);
  }
}
