/**
 * The embed API as the iframe calls it: every request carries `X-SVC-Publishable-Key`, JSON both ways, and every
 * failure becomes an `EmbedError` with a stable machine code (the `quote.error` / `payment.failed` code) and a message
 * a traveler can read.
 *
 * The gate answers 401 and 403 WITHOUT CORS headers (docs/contract.md, the gate), so a browser cannot read them: fetch rejects
 * exactly as it does when the network is down. Those surface as `network` unless the status is readable (same-origin
 * deployments, tests); a key that is already refused never gets this far (the boot data refuses it).
 *
 * The bodies are the embed API's own types from libs/contracts, imported as types only: no zod reaches the bundle.
 */
import type {
  EmbedCheckoutRequest,
  EmbedCheckoutResult,
  EmbedOptionsReady,
  EmbedPaymentAuthenticateRequest,
  EmbedPaymentConfirmRequest,
  EmbedPaymentConfirmResult,
  EmbedPaymentStartRequest,
  EmbedPaymentStartResult,
  EmbedQuoteRequest,
  EmbedQuoteResult,
} from '@expedition/contracts';
import { PUBLISHABLE_KEY_HEADER } from '@expedition/contracts/rules';

export type EmbedErrorCode =
  | 'unauthorized'
  | 'origin_forbidden'
  | 'rate_limited'
  | 'network'
  | 'quote_refused'
  | 'options_refused'
  | 'options_timeout'
  | 'checkout_refused'
  | 'payment_refused'
  | 'already_purchased'
  | 'payment_in_progress'
  | 'server_error';

export class EmbedError extends Error {
  constructor(
    readonly code: EmbedErrorCode,
    message: string,
    readonly status?: number,
    /**
     * 429 only: whole seconds from `Retry-After`; undefined when the browser cannot read the header (cross-origin it
     * needs `Access-Control-Expose-Headers: Retry-After`).
     */
    readonly retryAfterSec?: number,
  ) {
    super(message);
    this.name = 'EmbedError';
  }
}

export type OptionsAnswer = { pending: true } | { pending: false; ready: EmbedOptionsReady };

export type Route = 'quote' | 'options' | 'checkout' | 'payment';

const MESSAGES = {
  unauthorized: 'This insurance widget is not available with this key any more.',
  forbidden: 'This insurance widget is not allowed on this site.',
  rateLimited: 'Too many requests right now. Please wait a moment and try again.',
  network: "We couldn't reach the insurance service. Check your connection and try again.",
  server: 'The insurance service had a problem. Please try again.',
} as const;

/** A 403 after the quote was made (the quote is another operator's): the UI says so in the widget's language. */
export const QUOTE_NOT_HERE = 'This quote is not available here. Please start a new quote.';

/** Whole seconds of a `Retry-After` header (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Maps a readable non-2xx answer to the error the UI shows and the code the page receives. */
export function errorForStatus(route: Route, status: number, body: unknown, retryAfter: string | null): EmbedError {
  const apiMessage =
    body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : undefined;
  if (status === 401) return new EmbedError('unauthorized', MESSAGES.unauthorized, status);
  if (status === 403)
    return new EmbedError('origin_forbidden', route === 'quote' ? MESSAGES.forbidden : QUOTE_NOT_HERE, status);
  if (status === 429) return new EmbedError('rate_limited', MESSAGES.rateLimited, status, parseRetryAfter(retryAfter));
  if (status === 409) {
    const inProgress = apiMessage ? /in progress/i.test(apiMessage) : false;
    return new EmbedError(
      inProgress ? 'payment_in_progress' : 'already_purchased',
      apiMessage ?? 'This quote is already purchased.',
      status,
    );
  }
  if (status >= 400 && status < 500) {
    const code =
      route === 'quote'
        ? 'quote_refused'
        : route === 'options'
          ? 'options_refused'
          : route === 'checkout'
            ? 'checkout_refused'
            : 'payment_refused';
    return new EmbedError(code, apiMessage ?? 'The request was refused.', status);
  }
  return new EmbedError('server_error', MESSAGES.server, status);
}

/**
 * How long the frame waits for each answer before it gives up on that request (docs/decisions.md, "Request
 * deadlines"). Without a deadline a request lost on a dropping connection never settles: the plan skeletons or the
 * card form's "starting" would stay on screen for good. A request past its deadline is a `network` error: a poll is
 * retried as after any network error, and a POST shows the error, which the traveler can try again (the server
 * refuses a second charge for one quote, so a payment request whose answer was lost is never paid twice).
 */
export const REQUEST_TIMEOUT_MS: Readonly<Record<Route, number>> = {
  quote: 30_000,
  options: 15_000,
  checkout: 30_000,
  payment: 60_000,
};

export interface EmbedClientOptions {
  embedUrl: string;
  publishableKey: string;
  fetch?: typeof fetch;
  /** Per-route deadlines; tests shorten them. */
  timeoutsMs?: Readonly<Record<Route, number>>;
}

export function createEmbedClient({
  embedUrl,
  publishableKey,
  fetch: fetchImpl = (...args) => fetch(...args),
  timeoutsMs = REQUEST_TIMEOUT_MS,
}: EmbedClientOptions) {
  async function call<T>(route: Route, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    // One deadline for the whole exchange, the body included: an answer that starts and then stalls is cut off too.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutsMs[route]);
    try {
      return await exchange<T>(route, method, path, body, abort.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  async function exchange<T>(
    route: Route,
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    signal: AbortSignal,
  ): Promise<T> {
    let res: Response;
    try {
      res = await fetchImpl(`${embedUrl}${path}`, {
        method,
        headers: {
          [PUBLISHABLE_KEY_HEADER]: publishableKey,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        credentials: 'omit',
        cache: 'no-store',
        signal,
      });
    } catch {
      throw new EmbedError('network', MESSAGES.network);
    }
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch {
      // Cut off mid-body by the deadline: as lost as a request that never got an answer.
      if (signal.aborted) throw new EmbedError('network', MESSAGES.network);
      parsed = undefined;
    }
    if (!res.ok) throw errorForStatus(route, res.status, parsed, res.headers.get('Retry-After'));
    if (parsed === undefined) throw new EmbedError('server_error', MESSAGES.server, res.status);
    return parsed as T;
  }

  return {
    createQuote: (body: EmbedQuoteRequest) => call<EmbedQuoteResult>('quote', 'POST', '/api/embed/quote', body),
    async options(quoteId: string): Promise<OptionsAnswer> {
      const body = await call<{ pending?: boolean } & EmbedOptionsReady>(
        'options',
        'GET',
        `/api/embed/options?quoteId=${encodeURIComponent(quoteId)}`,
      );
      return body.pending === true || !Array.isArray(body.options)
        ? { pending: true }
        : { pending: false, ready: body };
    },
    checkout: (body: EmbedCheckoutRequest) =>
      call<EmbedCheckoutResult>('checkout', 'POST', '/api/embed/checkout', body),
    startPayment: (body: EmbedPaymentStartRequest) =>
      call<EmbedPaymentStartResult>('payment', 'POST', '/api/embed/payments', body),
    confirmPayment: (body: EmbedPaymentConfirmRequest) =>
      call<EmbedPaymentConfirmResult>('payment', 'POST', '/api/embed/payments/confirm', body),
    authenticatePayment: (body: EmbedPaymentAuthenticateRequest) =>
      call<EmbedPaymentConfirmResult>('payment', 'POST', '/api/embed/payments/authenticate', body),
  };
}
export type EmbedClient = ReturnType<typeof createEmbedClient>;
