import { buildIntentEvent, type StripeEventLike, type StripeIntentLike } from '../stripe-format';
import { deliverEvent, type EventDeliveryResult, type FetchLike } from './event-delivery';
import type { SimulatedPaymentStore } from './simulated-store';

export interface DeliverySettings {
  /** true (default): calls return after the event was delivered (or given up). false: fire and forget; see idle(). */
  awaitDelivery?: boolean;
  /** Tries right away, in the calling process (default 4), `backoffMs` apart and doubling (default 250 ms). */
  maxAttempts?: number;
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onResult?: (result: EventDeliveryResult) => void;
  /**
   * An event still undelivered after those tries stays in the books and is re-sent by `resendDueEvents`, as Stripe
   * retries for three days: first `baseDelayMs` after it was made (default 60 s), then doubling up to `maxDelayMs`
   * (default 1 h), until `giveUpAfterMs` (default 3 days). `enabled: false` (SIMULATED_PROCESSOR_RESEND_EVENTS=false)
   * keeps only the tries right away.
   */
  resend?: { enabled?: boolean; baseDelayMs?: number; maxDelayMs?: number; giveUpAfterMs?: number };
}

const DEFAULT_RESEND = { baseDelayMs: 60_000, maxDelayMs: 60 * 60_000, giveUpAfterMs: 3 * 24 * 60 * 60_000 };
/** A re-send claimed by one process is not claimed by another for this long. */
const RESEND_LEASE_MS = 60_000;

/**
 * How the simulated processor reports a payment's end to the dispatcher's intake, as Stripe does: a signed event POSTed
 * at once, retried a few times right away, and, when it is still undelivered, kept in the processor's books and
 * re-sent with backoff (docs/decisions.md, "One charge per quote through any crash").
 */
export function createDeliveries(
  options: { webhookUrl: string; fetch?: FetchLike; delivery?: DeliverySettings; clock?: { now(): Date } },
  secrets: string[],
  nowSec: () => number,
  store: SimulatedPaymentStore,
) {
  const config = options.delivery ?? {};
  const resend = { ...DEFAULT_RESEND, ...config.resend };
  const resending = config.resend?.enabled ?? true;
  const inFlight = new Set<Promise<EventDeliveryResult>>();
  const finished: EventDeliveryResult[] = [];
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = () => options.clock?.now() ?? new Date();
  const send = (event: StripeEventLike, maxAttempts: number) =>
    deliverEvent(event, {
      url: options.webhookUrl,
      secrets,
      fetch: fetchImpl,
      nowSec,
      maxAttempts,
      backoffMs: config.backoffMs ?? 250,
      sleep,
    });

  async function report(intent: StripeIntentLike, eventId: string): Promise<void> {
    const type = intent.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed';
    const event = buildIntentEvent({ id: eventId, type, createdSec: nowSec(), intent });
    // Kept before it is sent: a process that dies while sending leaves it to be re-sent.
    if (resending) {
      const at = now();
      await store.queueEvent(eventId, JSON.stringify(event), at, new Date(at.getTime() + resend.baseDelayMs));
    }
    const delivery = send(event, config.maxAttempts ?? 4).then(async (result) => {
      if (resending && result.delivered) await store.recordEventAttempt(eventId, { delivered: true, at: now() });
      inFlight.delete(delivery);
      finished.push(result);
      config.onResult?.(result);
      return result;
    });
    inFlight.add(delivery);
    if (config.awaitDelivery ?? true) await delivery;
  }

  async function resendDue(limit = 20): Promise<number> {
    if (!resending) return 0;
    const due = await store.claimDueEvents(now(), limit, RESEND_LEASE_MS);
    for (const row of due) {
      const result = await send(JSON.parse(row.body) as StripeEventLike, 1);
      config.onResult?.(result);
      const at = now();
      const delay = Math.min(resend.baseDelayMs * 2 ** (row.attempts + 1), resend.maxDelayMs);
      const givenUp = at.getTime() + delay - row.queuedAt.getTime() > resend.giveUpAfterMs;
      await store.recordEventAttempt(
        row.eventId,
        result.delivered
          ? { delivered: true, at }
          : { delivered: false, at, nextAt: givenUp ? null : new Date(at.getTime() + delay) },
      );
    }
    return due.length;
  }

  async function idle(): Promise<EventDeliveryResult[]> {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
    return finished.splice(0, finished.length);
  }

  return { report, resendDue, idle };
}
