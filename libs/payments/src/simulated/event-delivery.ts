import { signPayload } from '@expedition/webhook-signature';
import type { StripeEventLike } from '../stripe-format';

export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
) => Promise<{ status: number; text?: () => Promise<string> }>;

export interface EventDeliveryOptions {
  url: string;
  secrets: readonly string[];
  fetch: FetchLike;
  nowSec: () => number;
  /** Total attempts including the first. */
  maxAttempts: number;
  /** Delay before the 2nd attempt; doubles each time. */
  backoffMs: number;
  sleep: (ms: number) => Promise<void>;
}

export interface EventDeliveryResult {
  eventId: string;
  delivered: boolean;
  attempts: number;
  /** Last HTTP status, when the intake answered at all. */
  status?: number;
  error?: string;
}

/**
 * POSTs one event the way Stripe does: raw JSON, `Stripe-Signature`, re-signed with a fresh `t` on every
 * attempt. Retries network failures, 429 and 5xx; any other 4xx is final (the intake rejected the event).
 */
export async function deliverEvent(
  event: StripeEventLike,
  options: EventDeliveryOptions,
): Promise<EventDeliveryResult> {
  const body = JSON.stringify(event);
  let last: EventDeliveryResult = { eventId: event.id, delivered: false, attempts: 0 };
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    if (attempt > 1) await options.sleep(options.backoffMs * 2 ** (attempt - 2));
    last = await attemptOnce(event.id, body, attempt, options);
    if (last.delivered || !isRetryable(last.status)) return last;
  }
  return last;
}

async function attemptOnce(
  eventId: string,
  body: string,
  attempt: number,
  options: EventDeliveryOptions,
): Promise<EventDeliveryResult> {
  try {
    const response = await options.fetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signPayload(body, options.secrets, options.nowSec()),
      },
      body,
    });
    // Drain the body so keep-alive sockets are released.
    await response.text?.().catch(() => undefined);
    const delivered = response.status >= 200 && response.status < 300;
    return { eventId, delivered, attempts: attempt, status: response.status };
  } catch (error) {
    return {
      eventId,
      delivered: false,
      attempts: attempt,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

function isRetryable(status: number | undefined): boolean {
  return status === undefined || status === 429 || status >= 500;
}
