import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@expedition/db';
import { PaymentProcessorError, createSimulatedProcessor, type RefundPaymentInput } from '@expedition/payments';
import type { Mode } from '@expedition/contracts';
import type { Clock } from '@expedition/platform';
import { signPayload } from '@expedition/webhook-signature';

/** The processor side of the intake tests: its webhook secret, what it "knows" of payments, its signed events. */
export const PROCESSOR_SECRET = 'whsec_test_dispatcher_intake';

/** Every refund the intake asked the processor for (the events under test are fabricated, so the processor does not
 * know their payments: it records the request and answers succeeded, as Stripe would for a real charge). */
export const refundCalls: RefundPaymentInput[] = [];

/** What the processor "knows" of the fabricated payments (registerAsOurs fills it): the intake verifies successes
 * against it, as it asks Stripe in production. */
export const processorLedger = new Map<
  string,
  {
    status: 'succeeded' | 'failed' | 'pending';
    amountCents: number;
    currency: string;
    mode: Mode;
    /** The processor's own `last_payment_error` of a failed payment. */
    failure?: { failureCode?: string; declineCode?: string; failureMessage?: string };
  }
>();

export function refundRecordingProcessor(clock: Clock) {
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unused',
    webhookSecret: PROCESSOR_SECRET,
    clock,
  });
  processor.retrievePayment = async (input) => {
    const known = processorLedger.get(input.paymentId);
    if (!known || known.mode !== input.mode)
      throw new PaymentProcessorError('payment_not_found', `No such payment_intent: '${input.paymentId}'`);
    return {
      paymentId: input.paymentId,
      status: known.status,
      amountCents: known.amountCents,
      currency: known.currency,
      metadata: {},
      amountRefundedCents: 0,
      ...known.failure,
    };
  };
  processor.refundPayment = async (input) => {
    refundCalls.push(input);
    return { refundId: `re_test_${refundCalls.length}`, status: 'succeeded', amountCents: input.amountCents ?? 0 };
  };
  return processor;
}

export interface IntentEventInput {
  type?: 'payment_intent.succeeded' | 'payment_intent.payment_failed' | string;
  eventId?: string;
  paymentId?: string;
  amountCents: number;
  currency?: string;
  metadata: Record<string, string>;
  livemode?: boolean;
  lastPaymentError?: { type: string; code: string; decline_code?: string; message: string } | null;
}

/** A Stripe-format PaymentIntent event, exactly as the simulated processor (or Stripe) would post it. */
export function intentEvent(input: IntentEventInput, createdSec: number) {
  const type = input.type ?? 'payment_intent.succeeded';
  const failed = type === 'payment_intent.payment_failed';
  return {
    id: input.eventId ?? `evt_sim_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type,
    api_version: null,
    created: createdSec,
    livemode: input.livemode ?? false,
    data: {
      object: {
        id: input.paymentId ?? `pi_sim_${randomBytes(8).toString('hex')}`,
        object: 'payment_intent',
        amount: input.amountCents,
        currency: input.currency ?? 'usd',
        status: failed ? 'requires_payment_method' : 'succeeded',
        livemode: input.livemode ?? false,
        metadata: input.metadata,
        last_payment_error: failed
          ? (input.lastPaymentError ?? {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
            })
          : null,
        client_secret: 'pi_secret_should_not_be_stored',
        created: createdSec,
      },
    },
  };
}

interface IntentFields {
  object?: string;
  id?: string;
  amount?: number;
  currency?: string;
  livemode?: boolean;
  status?: string;
  metadata?: Record<string, string>;
  last_payment_error?: { code?: string; decline_code?: string; message?: string } | null;
}

/**
 * Stores the Payment row the app that started this payment would have written (checkout link, Tier 3): the intake
 * trusts a processor event only for a payment of ours. Skipped when the quote does not exist or the row is there.
 */
export async function registerAsOurs(prisma: PrismaClient, event: object): Promise<void> {
  const intent = (event as { data?: { object?: IntentFields } }).data?.object;
  const meta = intent?.metadata ?? {};
  if (intent?.object !== 'payment_intent' || !intent.id || !meta['quoteId'] || !meta['planId']) return;
  const error = intent.last_payment_error;
  processorLedger.set(intent.id, {
    status: intent.status === 'succeeded' ? 'succeeded' : 'failed',
    amountCents: intent.amount ?? 0,
    currency: intent.currency ?? 'usd',
    mode: intent.livemode ? 'live' : 'test',
    ...(error
      ? { failure: { failureCode: error.code, declineCode: error.decline_code, failureMessage: error.message } }
      : {}),
  });
  if (!(await prisma.quote.findUnique({ where: { id: meta['quoteId'] }, select: { id: true } }))) return;
  if (!(await prisma.plan.findUnique({ where: { id: meta['planId'] }, select: { id: true } }))) return;
  const channel =
    (['checkout_link', 'mpp', 'embed', 'acp'] as const).find((c) => c === meta['channel']) ?? 'checkout_link';
  await prisma.payment.createMany({
    data: [
      {
        quoteId: meta['quoteId'],
        planId: meta['planId'],
        operatorId: meta['operatorId'] ?? null,
        mode: intent.livemode ? 'live' : 'test',
        channel,
        processor: 'simulated',
        processorPaymentId: intent.id,
        amountCents: intent.amount ?? 0,
        currency: (intent.currency ?? 'usd').toUpperCase(),
        checkoutSessionId: meta['checkoutSessionId'] ?? null,
        status: 'pending',
      },
    ],
    skipDuplicates: true,
  });
}

/** Raw body + Stripe-Signature header, signed at `timestampSec` (default: the clock's now). */
export function signEvent(event: object, timestampSec: number, secret = PROCESSOR_SECRET) {
  const body = JSON.stringify(event);
  return { body, header: signPayload(body, secret, timestampSec) };
}
