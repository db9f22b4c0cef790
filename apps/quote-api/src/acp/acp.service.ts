import {
  type AcpCheckoutSession,
  type AcpCompleteSessionRequest,
  type AcpCreateSessionRequest,
  type AcpMessage,
  type AcpOrder,
  type AcpUpdateSessionRequest,
  isStorableString,
} from '@expedition/contracts';
import { Prisma, type AcpCheckoutSession as SessionRow, type AgentKey, type PrismaClient } from '@expedition/db';
import {
  storedDocumentUrl,
  type AttemptResult,
  type FulfillmentOutcome,
  type MoneyPath,
} from '@expedition/fulfillment';
import { negotiateLocale } from '@expedition/i18n';
import type { Metrics } from '@expedition/observability';
import type { PaymentProcessor } from '@expedition/payments';
import { randomToken, type Clock, type Logger } from '@expedition/platform';
import { settleSptInClaim } from '../purchase/settle-spt';
import type { ApiQuoteService } from '../quotes/api-quote.service';
import { AcpHttpError } from './acp-errors';
import { acpError, paidElsewhere } from './acp-messages';
import { createSessionEvaluator } from './acp-session.evaluator';
import { toAcpSession, type AcpBuyer, type AcpSessionMapperDeps, type QuoteWithEstimates } from './acp-session.mapper';

interface AcpServiceDeps extends AcpSessionMapperDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  /** The quote use case of POST /api/v1/quotes. */
  quotes: ApiQuoteService;
  processor: Pick<PaymentProcessor, 'settleSharedPaymentToken'>;
  moneyPath: Pick<MoneyPath, 'guard' | 'fulfillment'>;
  /** Counts the quotes sessions create (source `acp`); absent: not counted. */
  metrics?: Pick<Metrics, 'quoteCreated'>;
}

type Settlement =
  | { kind: 'recorded'; paymentId: string; outcome: FulfillmentOutcome }
  | { kind: 'declined'; message: AcpMessage }
  | { kind: 'in_doubt' }
  | { kind: 'unavailable' };

/** What `complete` came to, beyond a plain session: the router turns `busy`/`unavailable` into errors. */
type CompleteResult =
  { kind: 'session'; session: AcpCheckoutSession } | { kind: 'busy'; retryAfterSec: number } | { kind: 'unavailable' };

/**
 * ACP checkout sessions: one plan (line item) for one trip (metadata.trip). Every change of the trip or the buyer's
 * email makes a new quote through the same code as POST /api/v1/quotes; `complete` pays that quote with a Shared
 * Payment Token through the same payment claim, processor port and fulfillment as MPP (channel `acp`).
 */
export function createAcpService(deps: AcpServiceDeps) {
  const { prisma, clock } = deps;
  const evaluate = createSessionEvaluator({ quotes: deps.quotes, clock, loadQuote, metrics: deps.metrics });

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
    const buyer = body.buyer ?? (row.buyer as AcpBuyer | null);
    const planId = body.line_items?.[0]?.id ?? row.planId;
    const requote = trip !== row.trip || buyer?.email !== (row.buyer as AcpBuyer | null)?.email;
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
    if (body.buyer && body.buyer.email !== (row.buyer as AcpBuyer | null)?.email) {
      const updated = await update(key, id, { buyer: body.buyer });
      row = await load(key, updated.id);
    } else {
      // The quote may have expired, or been paid elsewhere, since the last look.
      const state = await evaluate(key, {
        trip: row.trip,
        planId: row.planId,
        buyer: row.buyer as AcpBuyer | null,
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
            ? acpError(
                'requires_3ds',
                '$.payment_data',
                'The card needs authentication (3-D Secure), which this seller cannot run here; use another payment method.',
              )
            : acpError(
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
      data: { status: 'not_ready_for_payment', messages: [acpError('conflict', '$', text)], updatedAt: clock.now() },
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
    return toAcpSession(row, row.quoteId ? await loadQuote(row.quoteId) : null, deps);
  }

  return { create, get, update, cancel, complete };
}

export type AcpService = ReturnType<typeof createAcpService>;

function notAllowed(status: string): AcpHttpError {
  return new AcpHttpError(405, {
    type: 'invalid_request',
    code: `session_${status}`,
    message: `The checkout session is ${status}`,
  });
}
