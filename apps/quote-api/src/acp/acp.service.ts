import {
  ACP_API_VERSION,
  ACP_SPT_HANDLER_ID,
  type AcpCheckoutSession,
  type AcpCompleteSessionRequest,
  type AcpCreateSessionRequest,
  type AcpMessage,
  type AcpOrder,
  type AcpSessionStatus,
  type AcpTotal,
  type AcpUpdateSessionRequest,
  isStorableString,
} from '@expedition/contracts';
import {
  Prisma,
  type AcpCheckoutSession as SessionRow,
  type AgentKey,
  type PrismaClient,
  type Quote,
  type QuoteEstimate,
} from '@expedition/db';
import { getPlan } from '@expedition/domain-pricing';
import {
  storedDocumentUrl,
  type AttemptResult,
  type FulfillmentOutcome,
  type MoneyPath,
  type PolicyTokens,
} from '@expedition/fulfillment';
import { AppError } from '@expedition/http-kit';
import { negotiateLocale } from '@expedition/i18n';
import type { Metrics } from '@expedition/observability';
import type { PaymentProcessor } from '@expedition/payments';
import { randomToken, type Clock, type Logger } from '@expedition/platform';
import type { QuoteService } from '@expedition/quoting';
import { settleSptInClaim } from '../purchase/settle-spt';
import { createApiQuote } from '../quotes/create-api-quote';
import { AcpHttpError, jsonPath } from './acp-errors';
import { createOrderLinks } from './acp-order';

export interface AcpServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  quotes: QuoteService;
  processor: Pick<PaymentProcessor, 'settleSharedPaymentToken'>;
  moneyPath: Pick<MoneyPath, 'guard' | 'fulfillment'>;
  /** quote-api's public URL: the policy's certificate link in the order. */
  publicUrl: string;
  /** Derives the policy's access token for the order's `permalink_url` (it is never stored: acp-order.ts). */
  policyTokens: PolicyTokens;
  /** Stripe profile the SPTs are granted to (the same as MPP's networkId). */
  networkId: string;
  /** Counts the quotes sessions create (source `acp`); absent: not counted. */
  metrics?: Pick<Metrics, 'quoteCreated'>;
}

type Buyer = NonNullable<AcpCreateSessionRequest['buyer']>;
type Settlement =
  | { kind: 'recorded'; paymentId: string; outcome: FulfillmentOutcome }
  | { kind: 'declined'; message: AcpMessage }
  | { kind: 'in_doubt' }
  | { kind: 'unavailable' };

type QuoteWithEstimates = Quote & { estimates: QuoteEstimate[]; purchase: { channel: string } | null };

/** What `complete` came to, beyond a plain session: the router turns `busy`/`unavailable` into errors. */
export type CompleteResult =
  { kind: 'session'; session: AcpCheckoutSession } | { kind: 'busy'; retryAfterSec: number } | { kind: 'unavailable' };

/**
 * ACP checkout sessions: one plan (line item) for one trip (metadata.trip). Every change of the trip or the buyer's
 * email makes a new quote through the same code as POST /api/v1/quotes; `complete` pays that quote with a Shared
 * Payment Token through the same payment claim, processor port and fulfillment as MPP (channel `acp`).
 */
export function createAcpService(deps: AcpServiceDeps) {
  const { prisma, clock } = deps;
  const orderLinks = createOrderLinks(deps.policyTokens);

  /** `acceptLanguage`: the request's header; with the body's `locale` it sets the session's (and its quotes') language. */
  async function create(
    key: AgentKey,
    body: AcpCreateSessionRequest,
    request: { acceptLanguage?: string } = {},
  ): Promise<AcpCheckoutSession> {
    if (body.currency !== 'usd') throw AcpHttpError.invalid('invalid', 'Only usd is sold', '$.currency');
    const { trip, ...rest } = body.metadata ?? {};
    const planId = body.line_items[0]?.id ?? null;
    const locale = negotiateLocale({ explicit: [body.locale], acceptLanguage: request.acceptLanguage });
    const state = await evaluate(key, {
      trip,
      planId,
      buyer: body.buyer ?? null,
      quoteId: null,
      requote: true,
      locale,
    });
    const now = clock.now();
    const row = await prisma.acpCheckoutSession.create({
      data: {
        id: randomToken('acs', 18),
        agentKeyId: key.id,
        currency: 'usd',
        status: state.status,
        planId,
        quoteId: state.quoteId,
        trip: (trip ?? undefined) as Prisma.InputJsonValue | undefined,
        buyer: body.buyer ?? undefined,
        metadata: Object.keys(rest).length ? (rest as Prisma.InputJsonValue) : undefined,
        messages: state.messages,
        locale,
        createdAt: now,
        updatedAt: now,
      },
    });
    return render(row);
  }

  async function get(key: AgentKey, id: string): Promise<AcpCheckoutSession> {
    return render(await load(key, id));
  }

  async function update(key: AgentKey, id: string, body: AcpUpdateSessionRequest): Promise<AcpCheckoutSession> {
    const row = await load(key, id);
    if (row.status === 'completed' || row.status === 'canceled') throw notAllowed(row.status);
    const { trip: newTrip, ...rest } = body.metadata ?? {};
    const trip = body.metadata && 'trip' in body.metadata ? newTrip : row.trip;
    const buyer = body.buyer ?? (row.buyer as Buyer | null);
    const planId = body.line_items?.[0]?.id ?? row.planId;
    const requote = trip !== row.trip || buyer?.email !== (row.buyer as Buyer | null)?.email;
    const state = await evaluate(key, { trip, planId, buyer, quoteId: row.quoteId, requote, locale: row.locale });
    const metadata = body.metadata ? { ...((row.metadata as object | null) ?? {}), ...rest } : row.metadata;
    const updated = await prisma.acpCheckoutSession.update({
      where: { id: row.id },
      data: {
        status: state.status,
        planId,
        quoteId: state.quoteId,
        trip: trip === null || trip === undefined ? Prisma.DbNull : (trip as Prisma.InputJsonValue),
        buyer: buyer ?? Prisma.DbNull,
        metadata: metadata ? (metadata as Prisma.InputJsonValue) : Prisma.DbNull,
        messages: state.messages,
        updatedAt: clock.now(),
      },
    });
    return render(updated);
  }

  async function cancel(key: AgentKey, id: string): Promise<AcpCheckoutSession> {
    const row = await load(key, id);
    if (row.status === 'completed' || row.status === 'canceled') throw notAllowed(row.status);
    const now = clock.now();
    // Fenced on the status read: a complete that finished meanwhile wins, and this answers 405.
    const done = await prisma.acpCheckoutSession.updateMany({
      where: { id: row.id, status: row.status },
      data: { status: 'canceled', canceledAt: now, updatedAt: now, messages: [] },
    });
    if (done.count !== 1) throw notAllowed((await load(key, id)).status);
    return render(await load(key, id));
  }

  async function complete(key: AgentKey, id: string, body: AcpCompleteSessionRequest): Promise<CompleteResult> {
    let row = await load(key, id);
    if (row.status === 'completed') return { kind: 'session', session: await render(row) };
    if (row.status === 'canceled') throw notAllowed(row.status);
    if (body.buyer && body.buyer.email !== (row.buyer as Buyer | null)?.email) {
      const updated = await update(key, id, { buyer: body.buyer });
      row = await load(key, updated.id);
    } else {
      // The quote may have expired, or been paid elsewhere, since the last look.
      const state = await evaluate(key, {
        trip: row.trip,
        planId: row.planId,
        buyer: row.buyer as Buyer | null,
        quoteId: row.quoteId,
        requote: false,
        locale: row.locale,
      });
      row = await prisma.acpCheckoutSession.update({
        where: { id: row.id },
        data: { status: state.status, messages: state.messages, updatedAt: clock.now() },
      });
    }
    const quote = row.quoteId ? await loadQuote(row.quoteId) : null;
    const estimate = quote?.estimates.find((e) => e.planId === row.planId);
    if (row.status !== 'ready_for_payment' || !quote || !estimate) {
      const first = (row.messages as AcpMessage[])[0];
      throw AcpHttpError.invalid(
        'session_not_ready',
        `The session is not ready for payment: ${first?.content ?? 'see messages'}`,
        first?.param,
      );
    }
    if (quote.purchase) return finishFromPurchase(row, quote);

    const spt = body.payment_data.instrument.credential.token;
    const guarded = await deps.moneyPath.guard.run(
      quote.id,
      'acp',
      async (claim): Promise<AttemptResult<Settlement>> => {
        const { end, value } = await settleSptInClaim(deps, claim, {
          channel: 'acp',
          quote,
          estimate,
          spt,
          challengeId: row.id,
          extraMetadata: { acpSessionId: row.id },
        });
        if (value.kind !== 'not_charged') return { end, value };
        const { settled } = value;
        const message: AcpMessage =
          settled.status === 'requires_action'
            ? error(
                'requires_3ds',
                '$.payment_data',
                'The card needs authentication (3-D Secure), which this seller cannot run here; use another payment method.',
              )
            : error(
                'payment_declined',
                '$.payment_data',
                settled.failureMessage ??
                  `The payment was declined${settled.failureCode ? ` (${settled.failureCode})` : ''}; nothing was charged.`,
              );
        return { end, value: { kind: 'declined', message } };
      },
    );

    if (guarded.kind === 'busy') return { kind: 'busy', retryAfterSec: guarded.retryAfterSec };
    if (guarded.kind === 'paid') return finishFromPurchase(row, await loadQuoteOrThrow(quote.id));
    const value = guarded.value;
    switch (value.kind) {
      case 'in_doubt':
        return { kind: 'busy', retryAfterSec: 5 };
      case 'unavailable':
        return { kind: 'unavailable' };
      case 'declined': {
        const updated = await prisma.acpCheckoutSession.update({
          where: { id: row.id },
          data: { messages: [value.message], updatedAt: clock.now() },
        });
        return { kind: 'session', session: await render(updated) };
      }
      case 'recorded':
        return afterRecording(row, quote.id, value.outcome);
    }
  }

  async function afterRecording(
    row: SessionRow,
    quoteId: string,
    outcome: FulfillmentOutcome,
  ): Promise<CompleteResult> {
    if (outcome.kind === 'policy_issued' || outcome.kind === 'already_recorded')
      return finishFromPurchase(row, await loadQuoteOrThrow(quoteId));
    const text =
      outcome.kind === 'refund_pending' && outcome.purchase
        ? 'This trip was already paid through another channel; the charge just made is refunded automatically.'
        : 'The payment could not be turned into a policy; it is refunded automatically.';
    const updated = await prisma.acpCheckoutSession.update({
      where: { id: row.id },
      data: { status: 'not_ready_for_payment', messages: [error('conflict', '$', text)], updatedAt: clock.now() },
    });
    return { kind: 'session', session: await render(updated) };
  }

  /**
   * The quote is paid. A purchase through ACP can only be this session's (each session quotes for itself): the
   * session completes with its order, whichever concurrent request recorded it. Any other channel: nothing more to pay.
   */
  async function finishFromPurchase(row: SessionRow, quote: QuoteWithEstimates): Promise<CompleteResult> {
    if (quote.purchase?.channel !== 'acp') {
      const updated = await prisma.acpCheckoutSession.update({
        where: { id: row.id },
        data: { status: 'not_ready_for_payment', messages: [paidElsewhere()], updatedAt: clock.now() },
      });
      return { kind: 'session', session: await render(updated) };
    }
    const policy = await prisma.policy.findUnique({ where: { quoteId: quote.id } });
    if (!policy) return { kind: 'busy', retryAfterSec: 2 };
    // Stored without the token; render() adds it.
    const order: AcpOrder = {
      id: `ord_${policy.id}`,
      checkout_session_id: row.id,
      order_number: policy.policyNumber,
      permalink_url: storedDocumentUrl(deps.publicUrl, policy.policyNumber),
      status: 'confirmed',
    };
    const now = clock.now();
    await prisma.acpCheckoutSession.updateMany({
      where: { id: row.id, status: { not: 'completed' } },
      data: { status: 'completed', order, messages: [], completedAt: now, updatedAt: now },
    });
    return {
      kind: 'session',
      session: await render(await prisma.acpCheckoutSession.findUniqueOrThrow({ where: { id: row.id } })),
    };
  }

  interface Evaluation {
    status: AcpSessionStatus;
    quoteId: string | null;
    messages: AcpMessage[];
  }

  /** Re-quotes when asked (trip or email changed) and says what still stands between the session and payment. */
  async function evaluate(
    key: AgentKey,
    s: {
      trip: unknown;
      planId: string | null;
      buyer: Buyer | null;
      quoteId: string | null;
      requote: boolean;
      locale: string;
    },
  ): Promise<Evaluation> {
    const messages: AcpMessage[] = [];
    let quoteId = s.quoteId;
    if (s.trip === undefined || s.trip === null) {
      quoteId = null;
      messages.push(
        error(
          'missing',
          '$.metadata.trip',
          'Send the trip facts in metadata.trip: destination, startDate, durationDays, tripCost, travelers, travelerAges, residence (and state for US residents).',
        ),
      );
    } else if (s.requote || !quoteId) {
      quoteId = null;
      if (typeof s.trip !== 'object' || Array.isArray(s.trip)) {
        messages.push(error('invalid', '$.metadata.trip', 'metadata.trip must be an object of trip facts'));
      } else {
        try {
          const quoted = await createApiQuote(
            { quotes: deps.quotes, prisma, clock, mode: key.mode },
            { ...(s.trip as object), currency: 'USD', email: s.buyer?.email },
            { locale: s.locale },
          );
          quoteId = quoted.quoteId;
          deps.metrics?.quoteCreated('acp');
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          const details = err.details?.length
            ? err.details
            : [{ path: err.code === 'unknown_destination' ? 'destination' : '', message: err.message }];
          for (const d of details.slice(0, 10)) {
            const param = d.path === 'email' ? '$.buyer.email' : jsonPath('$.metadata.trip', d.path);
            messages.push(error('invalid', param, d.path ? `${d.path} ${d.message}` : d.message));
          }
        }
      }
    }
    const quote = quoteId ? await loadQuote(quoteId) : null;
    if (!s.planId) {
      messages.push(error('missing', '$.line_items', 'Send one line item whose id is a planId of the quote.'));
    } else if (quote) {
      const estimate = quote.estimates.find((e) => e.planId === s.planId);
      if (!estimate) {
        messages.push(
          error(
            'invalid',
            '$.line_items[0].id',
            `Plan "${s.planId}" is not offered for this trip; use one of: ${quote.estimates.map((e) => e.planId).join(', ')}`,
          ),
        );
      } else if (getPlan(s.planId)?.availabilityMode === 'inquiry') {
        messages.push(
          error(
            'unsupported',
            '$.line_items[0].id',
            'This plan is priced on inquiry and cannot be bought online; choose another plan.',
          ),
        );
      }
    }
    if (!s.buyer)
      messages.push(
        error(
          'missing',
          '$.buyer.email',
          "The buyer's email is needed: the confirmation e-mail with the policy certificate is sent there.",
        ),
      );
    if (quote?.expiresAt && quote.expiresAt <= clock.now()) {
      messages.push(
        error(
          'expired',
          '$.metadata.trip',
          'The price held for this trip has expired; send the trip again (update) to quote anew.',
        ),
      );
    }
    if (quote?.purchase && quote.purchase.channel !== 'acp') messages.push(paidElsewhere());
    return {
      status: messages.some((m) => m.type === 'error') ? 'not_ready_for_payment' : 'ready_for_payment',
      quoteId,
      messages,
    };
  }

  async function load(key: AgentKey, id: string): Promise<SessionRow> {
    // A NUL or unpaired surrogate in the path cannot reach PostgreSQL (a 500): not found, like any unknown id.
    const row =
      id.length <= 100 && isStorableString(id) ? await prisma.acpCheckoutSession.findUnique({ where: { id } }) : null;
    // Another platform's session does not exist for this one.
    if (!row || row.agentKeyId !== key.id) throw AcpHttpError.notFound();
    return row;
  }

  function loadQuote(id: string): Promise<QuoteWithEstimates | null> {
    return prisma.quote.findUnique({
      where: { id },
      include: { estimates: true, purchase: { select: { channel: true } } },
    });
  }

  async function loadQuoteOrThrow(id: string): Promise<QuoteWithEstimates> {
    const quote = await loadQuote(id);
    if (!quote) throw new Error(`quote ${id} vanished`);
    return quote;
  }

  async function render(row: SessionRow): Promise<AcpCheckoutSession> {
    const quote = row.quoteId ? await loadQuote(row.quoteId) : null;
    const estimate = quote?.estimates.find((e) => e.planId === row.planId);
    const plan = row.planId ? getPlan(row.planId) : undefined;
    const totals = (amount: number): AcpTotal[] => [
      { type: 'subtotal', display_text: 'Premium', amount },
      { type: 'total', display_text: 'Total', amount },
    ];
    const metadata = row.metadata as Record<string, unknown> | null;
    return {
      id: row.id,
      protocol: { version: ACP_API_VERSION },
      status: row.status as AcpSessionStatus,
      currency: row.currency,
      ...(row.buyer ? { buyer: row.buyer as Buyer } : {}),
      line_items: row.planId
        ? [
            {
              id: `li_${row.planId}`,
              item: { id: row.planId },
              quantity: 1,
              ...(plan ? { name: plan.name } : {}),
              description: 'Travel insurance for every traveler of the trip',
              ...(estimate ? { unit_amount: estimate.premiumCents } : {}),
              totals: estimate ? totals(estimate.premiumCents) : [],
            },
          ]
        : [],
      fulfillment_options: [],
      totals: estimate ? totals(estimate.premiumCents) : [],
      messages: row.messages as AcpMessage[],
      links: [{ type: 'support', url: `${deps.publicUrl}/llms.txt` }],
      capabilities: { payment: { handlers: [sptHandler(deps.networkId)] } },
      ...(quote ? { quote_id: quote.id } : {}),
      ...(quote?.expiresAt ? { quote_expires_at: quote.expiresAt.toISOString() } : {}),
      ...(metadata && Object.keys(metadata).length ? { metadata } : {}),
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      ...(row.order ? { order: orderLinks.handedOut(row.order as AcpOrder) } : {}),
    };
  }

  return { create, get, update, cancel, complete };
}

export type AcpService = ReturnType<typeof createAcpService>;

function error(code: NonNullable<AcpMessage['code']>, param: string, content: string): AcpMessage {
  const resolution = code === 'payment_declined' || code === 'requires_3ds' ? 'requires_buyer_input' : 'recoverable';
  return { type: 'error', code, severity: 'high', resolution, param, content_type: 'plain', content };
}

function paidElsewhere(): AcpMessage {
  return error('conflict', '$', 'This trip was already paid through another channel; nothing was charged here.');
}

function notAllowed(status: string): AcpHttpError {
  return new AcpHttpError(405, {
    type: 'invalid_request',
    code: `session_${status}`,
    message: `The checkout session is ${status}`,
  });
}

/** The one handler we offer: a Stripe Shared Payment Token, settled at our Stripe profile. */
function sptHandler(networkId: string) {
  return {
    id: ACP_SPT_HANDLER_ID,
    name: 'dev.acp.tokenized.card',
    display_name: 'Card (Stripe Shared Payment Token)',
    version: ACP_API_VERSION,
    spec: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/blob/main/rfcs/rfc.payment_handlers.md',
    requires_delegate_payment: true,
    requires_pci_compliance: false,
    psp: 'stripe',
    config_schema: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/tree/main/spec',
    instrument_schemas: ['https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/tree/main/spec'],
    config: {
      merchant_id: networkId,
      psp: 'stripe',
      accepted_brands: ['visa', 'mastercard', 'amex'],
      credential_type: 'spt',
    },
  };
}
