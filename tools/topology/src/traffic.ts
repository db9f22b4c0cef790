import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import { SITE_ORIGIN } from './topology';

/** A request's outcome: its status, or `error` when no HTTP answer came back (refused, reset, timed out). */
export type Outcome = { status: number; body: unknown; headers: Headers } | { status: 'error'; error: string };

const TIMEOUT_MS = 30_000;

export async function call(url: string, init: RequestInit = {}): Promise<Outcome> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Bare-string bodies (the embed gate's 401/403/429) stay text.
    }
    return { status: res.status, body, headers: res.headers };
  } catch (err) {
    return { status: 'error', error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const nextYear = () => new Date().getUTCFullYear() + 1;

/** POST /api/v1/quotes attributed to the operator (estimates are generated synchronously). */
export function apiQuote(quoteApiUrl: string, operatorId: string): Promise<Outcome> {
  return call(
    `${quoteApiUrl}/api/v1/quotes`,
    json({
      destination: 'Antarctica',
      startDate: `${nextYear()}-01-10`,
      durationDays: 14,
      tripCost: 24000,
      travelers: 2,
      travelerAges: [45, 52],
      residence: 'US',
      state: 'CA',
      operator: operatorId,
    }),
  );
}

/** POST /api/embed/quote behind the gate (key, Origin, 60/minute budget). */
export function embedQuote(embedUrl: string, key: string): Promise<Outcome> {
  return call(
    `${embedUrl}/api/embed/quote`,
    json(
      {
        destination: 'galapagos',
        tripCost: 9000,
        travelers: 1,
        travelerAges: [38],
        residence: 'DE',
        email: 'traveler@example.com',
        startDate: `${nextYear()}-03-01`,
        endDate: `${nextYear()}-03-11`,
      },
      { Origin: SITE_ORIGIN, 'X-SVC-Publishable-Key': key },
    ),
  );
}

/** GET /api/embed/options for a quote that does not exist: the cheapest request that spends one unit of the budget. */
export function embedOptionsProbe(embedUrl: string, key: string): Promise<Outcome> {
  return call(`${embedUrl}/api/embed/options?quoteId=00000000-0000-4000-8000-000000000000`, {
    headers: { Origin: SITE_ORIGIN, 'X-SVC-Publishable-Key': key },
  });
}

export interface PaymentResult {
  quoteId?: string;
  /** Where it stopped when it did not end `purchased`. */
  failedAt?: 'quote' | 'challenge' | 'purchase';
  outcome?: Outcome;
}

/**
 * A machine payment (MPP) end to end on quote-api: quote → 402 challenge → credential → 200 purchased. Each step may
 * go to a different replica (`urls` is rotated), as behind a load balancer. The simulated processor then reports the
 * charge to the dispatchers' intake, which issues the policy and enqueues policy.issued.
 */
export async function mppPayment(urls: string[], operatorId: string, n: number): Promise<PaymentResult> {
  const at = (step: number) => urls[(n + step) % urls.length]!;
  const quote = await apiQuote(at(0), operatorId);
  if (quote.status !== 200) return { failedAt: 'quote', outcome: quote };
  const { quoteId, plans } = quote.body as { quoteId: string; plans: { planId: string }[] };
  const body = { quoteId, planId: plans[0]!.planId };
  const unpaid = await call(`${at(1)}/api/v1/purchase`, json(body));
  if (unpaid.status !== 402) return { quoteId, failedAt: 'challenge', outcome: unpaid };
  const challenge = parsePaymentChallenges(unpaid.headers.get('www-authenticate') ?? '')[0];
  if (!challenge) return { quoteId, failedAt: 'challenge', outcome: unpaid };
  const credential = formatAuthorizationPayment({
    challenge,
    payload: { spt: `spt_test_success_topology_${n}_${Date.now()}` },
  });
  const paid = await call(`${at(2)}/api/v1/purchase`, json(body, { Authorization: credential }));
  if (paid.status !== 200 || (paid.body as { status?: string }).status !== 'purchased')
    return { quoteId, failedAt: 'purchase', outcome: paid };
  return { quoteId };
}

/** Runs `count` tasks with at most `concurrency` in flight; results in task order. */
export async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** Counts outcomes by status (`error` for no HTTP answer). */
export function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[String(o.status)] = (counts[String(o.status)] ?? 0) + 1;
  return counts;
}
