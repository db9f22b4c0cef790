import request from 'supertest';
import { createHarness, OTHER_SITE_ORIGIN, PORTAL_ORIGIN, SITE_ORIGIN, WIDGET_ORIGIN } from './harness';
import {
  comparableErrors,
  db,
  deterministicLimiter,
  expectSameAnswers,
  expectSameCounters,
  expressEntry,
  fast,
  faults,
  mine,
  optionsPath,
  pipeline,
  poll,
  ready,
  send,
  theirs,
  viaExpress,
  type Case,
  useTwoPaths,
} from './ready-poll-harness';

// The requests the fast path answers, compared with Express's answers (see ready-poll-harness.ts); the requests it
// must leave to Express are in ready-poll-express.api.spec.ts.
useTwoPaths();

const ANSWERED_BEFORE_EXPRESS: Case[] = [
  // Answered before Express.
  [
    'own ready quote, key in the header',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'own ready quote, a safe X-Request-Id is echoed',
    () =>
      poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: SITE_ORIGIN, requestId: 'req-123.a:b' }),
    { status: 200, fast: true },
  ],
  [
    'own ready quote, an unsafe X-Request-Id is replaced',
    () =>
      poll(optionsPath(`?quoteId=${ready.mine}`), {
        key: mine.testKey,
        origin: SITE_ORIGIN,
        extra: ['X-Request-Id: a b'],
      }),
    { status: 200, fast: true },
  ],
  [
    'key in ?pk',
    () => poll(optionsPath(`?quoteId=${ready.mine}&pk=${mine.testKey}`), { origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'key in ?pk, percent-encoded',
    () => poll(optionsPath(`?quoteId=${ready.mine}&pk=${mine.testKey.replace(/_/g, '%5F')}`), { origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    '?pk before quoteId, blank header',
    () => poll(optionsPath(`?pk=${mine.testKey}&quoteId=${ready.mine}`), { key: '  ', origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'key header padded with spaces',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: `  ${mine.testKey} `, origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'live key, operator site',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.liveKey, origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'first-party (widget) origin',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: WIDGET_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'test key from the dashboard origin',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: PORTAL_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'origin in upper case with a trailing slash (normalized)',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: 'HTTPS://TOURS.EXAMPLE/' }),
    { status: 200, fast: true },
  ],
  [
    'quoteId percent-encoded',
    () =>
      poll(optionsPath(`?quoteId=${encodeURIComponent(ready.mine).replace(/-/g, '%2D')}`), {
        key: mine.testKey,
        origin: SITE_ORIGIN,
      }),
    { status: 200, fast: true },
  ],
  [
    'quoteId padded with spaces',
    () => poll(optionsPath(`?quoteId=%20${ready.mine}+`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'a cache-buster parameter',
    () => poll(optionsPath(`?quoteId=${ready.mine}&_=1712345`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'the other operator, its own quote via ?pk',
    () => poll(optionsPath(`?quoteId=${ready.theirs}&pk=${theirs.testKey}`), { origin: OTHER_SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
  [
    'a header key wins over ?pk (own quote of the header key)',
    () => poll(optionsPath(`?quoteId=${ready.mine}&pk=${theirs.testKey}`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: true },
  ],
];

describe('the ready poll before Express answers exactly as Express', () => {
  expectSameAnswers(ANSWERED_BEFORE_EXPRESS);
  it('answers the rate limit the same: 429 with Retry-After and CORS, counted, no onAdmitted', async () => {
    faults.limiter = 'deny';
    const sent = poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: SITE_ORIGIN });
    const used = [fast.keysUsed.length, viaExpress.keysUsed.length];
    const a = await send(fast, sent);
    const b = await send(viaExpress, sent);
    expect(a.response).toBe(b.response);
    expect(a.logs).toEqual(b.logs);
    expect(a.reachedExpress).toBe(false);
    expect(a.response).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(a.response).toContain('\r\nRetry-After: 17\r\n');
    expect(a.response).toContain(`\r\nAccess-Control-Allow-Origin: ${SITE_ORIGIN}\r\n`);
    expect([fast.keysUsed.length, viaExpress.keysUsed.length]).toEqual(used);
  });

  it('answers pipelined requests on one connection in order, fast and Express ones mixed', async () => {
    const own = { key: mine.testKey, origin: SITE_ORIGIN };
    const heads = [
      poll(optionsPath(`?quoteId=${ready.mine}`), { ...own, requestId: 'p-1' }),
      poll(optionsPath(`?quoteId=${ready.theirs}`), { ...own, requestId: 'p-2' }),
      poll(optionsPath(`?quoteId=${ready.mine}`), { ...own, requestId: 'p-3' }),
      poll(optionsPath(`?quoteId=${ready.mine}`), { origin: SITE_ORIGIN, requestId: 'p-4' }),
      poll(optionsPath(`?quoteId=${ready.mine}`), { ...own, requestId: 'p-5' }),
    ].map((sent) => sent.head);
    const entered = expressEntry.mock.calls.length;
    const a = await pipeline(fast.port, heads);
    expect(expressEntry.mock.calls.length - entered).toBe(2);
    expect(a).toBe(await pipeline(viaExpress.port, heads));
    const statuses = [...a.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 403, 200, 401, 200]);
    expect([...a.matchAll(/^X-Request-Id: (.*)\r$/gm)].map((m) => m[1])).toEqual(['p-1', 'p-2', 'p-3', 'p-4', 'p-5']);
  });

  it('fails open the same when the limiter throws (logged by both)', async () => {
    faults.limiter = 'throw';
    const sent = poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: SITE_ORIGIN });
    const a = await send(fast, sent);
    const b = await send(viaExpress, sent);
    expect(a.response).toBe(b.response);
    expect(comparableErrors(a.logs)).toEqual(comparableErrors(b.logs));
    expect(a.logs.some((l) => l['msg'] === 'embed gate: rate limiter failed, request allowed')).toBe(true);
    expect(a.reachedExpress).toBe(false);
    expect(a.response).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  it("hands a key store failure to Express's error handler (never a 401)", async () => {
    faults.storeDown = true;
    for (const s of [fast, viaExpress]) s.keys.invalidate(mine.testKey);
    // A fixed request id: the error body carries it.
    const sent = poll(optionsPath(`?quoteId=${ready.mine}`), {
      key: mine.testKey,
      origin: SITE_ORIGIN,
      requestId: 'outage-1',
    });
    const a = await send(fast, sent);
    const b = await send(viaExpress, sent);
    expect(a.response).toBe(b.response);
    expect(comparableErrors(a.logs)).toEqual(comparableErrors(b.logs));
    expect(a.reachedExpress).toBe(true);
    expect(a.response).toMatch(/^HTTP\/1\.1 5\d\d /);
  });

  it('counts the same metrics and key uses on both paths (after the whole table)', async () => {
    await expectSameCounters();
    const text = await fast.metrics.registry.metrics();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*app="embed-api",method="GET",route="\/api\/embed\/options",status="200"\} \d+/,
    );
    expect(fast.keysUsed.length).toBeGreaterThan(10);
  });
});

describe('with tracing on', () => {
  it('sends the ready poll through Express, whose middleware opens each request span', async () => {
    const traced = await createHarness({
      db,
      rateLimiter: deterministicLimiter,
      deps: {
        observability: {
          tracing: { enabled: true, forceFlush: async () => undefined, shutdown: async () => undefined },
        },
      },
    });
    const poll = () =>
      request(traced.app)
        .get(`/api/embed/options?quoteId=${ready.mine}`)
        .set('X-SVC-Publishable-Key', mine.testKey)
        .set('Origin', SITE_ORIGIN);
    expect((await poll()).status).toBe(200); // cached from here on
    const entered = expressEntry.mock.calls.length;
    expect((await poll()).status).toBe(200);
    expect(expressEntry.mock.calls.length).toBe(entered + 1);
  });
});
