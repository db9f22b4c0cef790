import { WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@expedition/contracts';
import { signPayload } from '@expedition/webhook-signature';
import { isBlockedAddressError } from '@expedition/platform';

export const WEBHOOK_USER_AGENT = 'Expedition-Webhooks/1.0 (policy.issued)';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** How a signed POST travels: resolves with the HTTP status (the body is not read), rejects on a network error or a
 * timeout (an error named TimeoutError or AbortError). */
export type WebhookTransport = (
  url: string,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<number>;

/** POSTs through a fetch (an injected one in tests, or the runtime's). Redirects are not followed. */
export function fetchTransport(doFetch: FetchLike = (url, init) => fetch(url, init)): WebhookTransport {
  return async (url, { headers, body, timeoutMs }) => {
    const res = await doFetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    return res.status;
  };
}

export interface SendResult {
  /** HTTP status when the receiver answered, else null. */
  statusCode: number | null;
  /** Why the attempt did not succeed; null on 2xx. */
  error: string | null;
  durationMs: number;
}

export interface SendInput {
  url: string;
  /** The active secrets, current first: one `v1=` each (during a rotation overlap, current + previous). */
  secrets: string | readonly string[];
  eventId: string;
  /** The exact bytes sent and signed. */
  body: string;
  timestampSec: number;
  timeoutMs: number;
  transport: WebhookTransport;
  /** W3C trace context sent as `traceparent`, so the receiver can join the sale's trace. */
  traceparent?: string;
}

/**
 * One signed `policy.issued` POST. Only a 2xx counts as delivered; redirects are not followed (a 3xx is a failure), so a
 * receiver cannot bounce our signed body to another host.
 */
export function sendWebhook(input: SendInput): Promise<SendResult> {
  return postSigned({
    url: input.url,
    body: input.body,
    timeoutMs: input.timeoutMs,
    transport: input.transport,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      [WEBHOOK_SIGNATURE_HEADER]: signPayload(input.body, input.secrets, input.timestampSec),
      [WEBHOOK_EVENT_ID_HEADER]: input.eventId,
      ...(input.traceparent ? { traceparent: input.traceparent } : {}),
    },
  });
}

/** A POST whose headers (signature included) the caller made: the attempt's status, error and duration. */
export async function postSigned(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  transport: WebhookTransport;
}): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const status = await input.transport(input.url, {
      headers: input.headers,
      body: input.body,
      timeoutMs: input.timeoutMs,
    });
    const ok = status >= 200 && status < 300;
    return { statusCode: status, error: ok ? null : `HTTP ${status}`, durationMs: elapsed() };
  } catch (err) {
    return { statusCode: null, error: describeSendError(err, input.timeoutMs), durationMs: elapsed() };
  }
}

/** The recorded error of an attempt refused by the outbound address rules; the operator's view shows it as a generic
 * connection failure (libs/operators, operatorDeliveryError), the provider's view and the process log in full. */
export const BLOCKED_ADDRESS_ERROR_PREFIX = 'address refused:';

// fetch wraps the socket error in `cause`; node:http raises it as is. Node's own ERR_* codes (a malformed URL, a bad
// header) are not connection failures.
function describeSendError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
  if (isBlockedAddressError(err)) return `${BLOCKED_ADDRESS_ERROR_PREFIX} ${err.message}`;
  const code = e?.cause?.code ?? e?.code;
  if (code && !code.startsWith('ERR_')) return `connection failed: ${code}`;
  return `request failed: ${e?.cause?.message ?? e?.message ?? String(err)}`;
}
