import { WEBHOOK_SIGNATURE_HEADER } from '@expedition/contracts';
import { signPayload } from '@expedition/webhook-signature';

export const WEBHOOK_USER_AGENT = 'Expedition-Webhooks/1.0 (policy.issued)';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

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
  fetch?: FetchLike;
  /** W3C trace context sent as `traceparent`, so the receiver can join the sale's trace. */
  traceparent?: string;
}

/**
 * One signed POST. Only a 2xx counts as delivered; redirects are not followed (a 3xx is a failure), so a receiver
 * cannot bounce our signed body to another host.
 */
export async function sendWebhook(input: SendInput): Promise<SendResult> {
  const doFetch: FetchLike = input.fetch ?? ((url, init) => fetch(url, init));
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await doFetch(input.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        [WEBHOOK_SIGNATURE_HEADER]: signPayload(input.body, input.secrets, input.timestampSec),
        'X-SVC-Event-Id': input.eventId,
        ...(input.traceparent ? { traceparent: input.traceparent } : {}),
      },
      body: input.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(input.timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { statusCode: res.status, error: ok ? null : `HTTP ${res.status}`, durationMs: elapsed() };
  } catch (err) {
    return { statusCode: null, error: describeFetchError(err, input.timeoutMs), durationMs: elapsed() };
  }
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
  const code = e?.cause?.code;
  if (code) return `connection failed: ${code}`;
  return `request failed: ${e?.cause?.message ?? e?.message ?? String(err)}`;
}
