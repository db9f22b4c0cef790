import { dollarsToCents } from '@expedition/domain-pricing';
import {
  CheckoutRequestSchema,
  CheckoutResponseSchema,
  PolicyLookupSchema,
  QUOTE_DISCLAIMER,
  QuoteRequestSchema,
  QuoteResponseSchema,
  type QuoteResponse,
} from '@expedition/contracts';
import { z } from 'zod';
import { AppError } from '@expedition/http-kit';
import { decodeRequest, formatWwwAuthenticate } from '@expedition/payments';
import { paymentProblemOf, paymentReceiptOf, type PurchaseResult } from '../purchase/purchase.service';
import { defaultDurations } from './mcp-instructions';
import { McpPurchaseInputSchema, McpPurchaseOutputSchema, type McpPurchaseOutput } from './mcp.schemas';
import { money, READ_ONLY_TOOL, toolSchema, type McpToolName, type RegisterTool } from './mcp-tools';

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

/** The tools of the buying path: quote → checkout link (a person pays) or purchase (an agent's wallet) → policy. */
export const PURCHASE_TOOLS = {
  create_quote: (server, { services, run }) =>
    server.registerTool(
      'create_quote',
      {
        title: 'Quote a trip',
        description: [
          'Prices every eligible plan for one trip. Ask in this order, using what the traveler already said first: ' +
            "(1) destination, (2) departure date and duration, (3) number of travelers and EACH traveler's age at " +
            'departure, (4) total trip cost for ALL travelers in USD, (5) country of residence, and the US state if US.',
          `No duration given: use the destination's default (${defaultDurations()}) and tell the traveler you assumed it.`,
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
          const data = await services.quotes.create(args, { where: 'arguments' });
          services.metrics?.quoteCreated('mcp');
          return { data, text: quoteText(data) };
        }),
    ),

  create_checkout_link: (server, { services, run }) =>
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
    ),

  purchase: (server, { services, run }) =>
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
    ),

  get_policy: (server, { services, run }) =>
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
        annotations: READ_ONLY_TOOL,
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
              `${money(data.premiumCents, data.currency)} ${data.currency}. Certificate (PDF): ${data.documentUrl}\n${data.disclaimer}`,
          };
        }),
    ),
} satisfies Partial<Record<McpToolName, RegisterTool>>;

function quoteText(q: QuoteResponse): string {
  const [first, ...rest] = q.plans;
  const lines = [
    `Quote ${q.quoteNumber} for ${q.tripSummary.destination.name}, ${q.tripSummary.durationDays} days${q.tripSummary.durationDefaulted ? ' (default duration assumed: tell the traveler)' : ''}, ${q.tripSummary.travelers} traveler(s).`,
  ];
  if (first) {
    lines.push(
      `Recommended: ${first.planName} (${first.planId}) ${money(first.estimatedPremiumCents, first.currency)} total.`,
    );
    if (rest.length)
      lines.push(
        `Alternatives: ${rest.map((p) => `${p.planName} ${money(p.estimatedPremiumCents, p.currency)}`).join('; ')}.`,
      );
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
      const paymentReceipt = paymentReceiptOf(result);
      const done =
        receipt.status === 'purchased'
          ? `Purchased ${receipt.planName}`
          : `Already paid: ${receipt.planName}, no new charge`;
      return {
        data: { outcome: receipt.status, receipt, paymentReceipt, disclaimer: QUOTE_DISCLAIMER },
        text: `${done} (${money(receipt.amountChargedCents ?? dollarsToCents(receipt.amountCharged), receipt.currency)} ${receipt.currency}, quote ${receipt.quoteNumber}). ${receipt.nextSteps}\n${QUOTE_DISCLAIMER}`,
      };
    }
    case 'payment_required': {
      const { challenge } = result;
      const problem = paymentProblemOf(result);
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
          `Payment required: ${money(amountCents, request.currency)} ${request.currency.toUpperCase()} (${problem.detail}). Nothing was charged. ` +
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
