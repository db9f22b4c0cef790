import { createEmbedClient, errorForStatus, parseRetryAfter, REQUEST_TIMEOUT_MS } from './api';

describe('embed API client', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('17')).toBe(17);
    expect(
      parseRetryAfter(new Date(Date.parse('2026-11-23T10:00:30Z')).toUTCString(), Date.parse('2026-11-23T10:00:00Z')),
    ).toBe(30);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it.each([
    ['quote', 401, undefined, 'unauthorized'],
    ['quote', 403, undefined, 'origin_forbidden'],
    ['options', 403, undefined, 'origin_forbidden'],
    ['quote', 429, undefined, 'rate_limited'],
    ['quote', 400, { error: 'startDate is in the past' }, 'quote_refused'],
    ['options', 400, { error: 'quoteId required' }, 'options_refused'],
    ['checkout', 400, { error: 'Plan is not offered' }, 'checkout_refused'],
    ['payment', 409, { error: 'This quote is already purchased' }, 'already_purchased'],
    [
      'payment',
      409,
      { error: 'A payment for this quote is in progress; try again in a moment' },
      'payment_in_progress',
    ],
    ['payment', 400, { error: 'This quote has expired' }, 'payment_refused'],
    ['quote', 500, undefined, 'server_error'],
  ] as const)('%s %i → %s', (route, status, body, code) => {
    expect(errorForStatus(route, status, body, null).code).toBe(code);
  });

  it('keeps the API message of a 400 for the traveler and the page', () => {
    expect(errorForStatus('quote', 400, { error: 'Sandbox: forced quote error' }, null).message).toBe(
      'Sandbox: forced quote error',
    );
  });

  it('takes the 429 wait from Retry-After', () => {
    expect(errorForStatus('options', 429, 'Too Many Requests', '12').retryAfterSec).toBe(12);
    expect(errorForStatus('options', 429, 'Too Many Requests', null).retryAfterSec).toBeUndefined();
  });

  it('sends the publishable key header and JSON, never credentials; a rejected fetch is a network error', async () => {
    const calls: [string, RequestInit][] = [];
    const client = createEmbedClient({
      embedUrl: 'http://embed.test',
      publishableKey: 'pk_op_test_abc',
      fetch: async (url, init) => {
        calls.push([String(url), init!]);
        return new Response(JSON.stringify({ quoteId: 'q1', quoteNumber: 'EXP-AB23', instantQuoteEligible: true }), {
          status: 200,
        });
      },
    });
    await client.createQuote({
      destination: 'antarctica',
      tripCost: 1000,
      travelers: 1,
      residence: 'GB',
      email: 'a@b.co',
    });
    expect(calls[0]![0]).toBe('http://embed.test/api/embed/quote');
    expect(calls[0]![1]).toMatchObject({
      method: 'POST',
      credentials: 'omit',
      headers: { 'X-SVC-Publishable-Key': 'pk_op_test_abc', 'Content-Type': 'application/json' },
    });

    const offline = createEmbedClient({
      embedUrl: 'http://embed.test',
      publishableKey: 'k',
      fetch: async () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(offline.options('q1')).rejects.toMatchObject({ code: 'network' });
  });

  it('gives up on a request that gets no answer by its deadline: a network error, and the request is aborted', async () => {
    const signals: AbortSignal[] = [];
    // A server that never answers: the request settles only when its signal aborts it, as a browser's fetch does.
    const silent: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => {
        signals.push(init!.signal!);
        init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const client = createEmbedClient({
      embedUrl: 'http://embed.test',
      publishableKey: 'k',
      fetch: silent,
      timeoutsMs: { quote: 5, options: 5, checkout: 5, payment: 5 },
    });
    await expect(client.options('q1')).rejects.toMatchObject({ code: 'network' });
    await expect(
      client.startPayment({ quoteId: 'q1', planId: 'p1' } as Parameters<typeof client.startPayment>[0]),
    ).rejects.toMatchObject({ code: 'network' });
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });

  it('cuts off an answer whose body stalls past the deadline', async () => {
    const stalled: typeof fetch = async (_url, init) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"pend'));
            init!.signal!.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
          },
        }),
        { status: 200 },
      );
    const client = createEmbedClient({
      embedUrl: 'http://embed.test',
      publishableKey: 'k',
      fetch: stalled,
      timeoutsMs: { quote: 5, options: 5, checkout: 5, payment: 5 },
    });
    await expect(client.options('q1')).rejects.toMatchObject({ code: 'network' });
  });

  it('has a deadline for every route, longest for payments', () => {
    expect(REQUEST_TIMEOUT_MS).toEqual({ quote: 30_000, options: 15_000, checkout: 30_000, payment: 60_000 });
  });

  it('tells the pending shape from the ready payload', async () => {
    const answer = (body: unknown) =>
      createEmbedClient({
        embedUrl: 'http://e',
        publishableKey: 'k',
        fetch: async () => new Response(JSON.stringify(body)),
      });
    await expect(answer({ options: [], pending: true }).options('q')).resolves.toEqual({ pending: true });
    const ready = { quoteId: 'q', options: [], recommendedPlanId: null };
    await expect(answer(ready).options('q')).resolves.toEqual({ pending: false, ready });
  });
});
