import request from 'supertest';
import { EmbedOptionsReadySchema } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { getPlan, isPurchasable } from '@expedition/domain-pricing';
import { LOCALES } from '@expedition/i18n';
import { planHighlights } from '@expedition/quoting';
import {
  createHarness,
  expectCors,
  expectNoCors,
  fullQuote,
  OTHER_SITE_ORIGIN,
  SITE_ORIGIN,
  QUOTE_API_URL,
} from './harness';
import { h, mine, theirs, useTwoTenants } from './tenants-harness';

useTwoTenants();

async function createQuote(body: object = fullQuote, key = mine.testKey, origin = SITE_ORIGIN): Promise<string> {
  const res = await request(h.app)
    .post('/api/embed/quote')
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', origin)
    .send(body);
  expect(res.status).toBe(200);
  return res.body.quoteId;
}

function poll(query: string, key = mine.testKey, app = h.app) {
  return request(app).get(`/api/embed/options${query}`).set('X-SVC-Publishable-Key', key).set('Origin', SITE_ORIGIN);
}

const PENDING = { options: [], pending: true };

describe('GET /api/embed/options: quoteId required', () => {
  it.each(['', '?quoteId=', '?quoteId=%20%20', '?other=1'])(
    '400 { error: "quoteId required" } with CORS for %j',
    async (query) => {
      const res = await poll(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'quoteId required' });
      expectCors(res, SITE_ORIGIN);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );
});

describe('GET /api/embed/options: no existence oracle', () => {
  const UNKNOWN = '7d1f2c3a-1111-4222-8333-944455556666';
  const MALFORMED = [
    '?quoteId=nope',
    `?quoteId=${'9'.repeat(300)}`,
    "?quoteId=1'%20OR%20'1'='1",
    `?quoteId=${UNKNOWN}&quoteId=${UNKNOWN}`,
    `?quoteId=${UNKNOWN.toUpperCase()}`,
    '?quoteId=%00',
  ];

  /** Everything but the per-response Date and request id. */
  function comparable(res: request.Response) {
    const headers: Record<string, unknown> = { ...res.headers };
    delete headers['date'];
    delete headers['x-request-id'];
    return { status: res.status, text: res.text, headers };
  }

  it("answers another operator's quote, an unknown id and malformed ids with the identical bare 403", async () => {
    const foreign = await createQuote(fullQuote, theirs.testKey, OTHER_SITE_ORIGIN);
    await h.worker.runOnce(); // ready, so the foreign quote has options: it must still look exactly like nothing
    const responses = [
      await poll(`?quoteId=${foreign}`),
      await poll(`?quoteId=${UNKNOWN}`),
      ...(await Promise.all(MALFORMED.map((q) => poll(q)))),
    ];
    const [first, ...rest] = responses.map(comparable);
    expect(first).toMatchObject({ status: 403, text: 'Forbidden' });
    for (const other of rest) expect(other).toEqual(first);
    for (const res of responses) expectNoCors(res);
    expect(first!.headers).toMatchObject({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  });

  it("does not leak a ready payload the owner's poll has cached", async () => {
    const foreign = await createQuote(fullQuote, theirs.testKey, OTHER_SITE_ORIGIN);
    await h.worker.runOnce();
    const owner = await request(h.app)
      .get(`/api/embed/options?quoteId=${foreign}`)
      .set('X-SVC-Publishable-Key', theirs.testKey)
      .set('Origin', OTHER_SITE_ORIGIN);
    expect(owner.status).toBe(200);
    expect(owner.body.options.length).toBeGreaterThan(0);
    const probe = await poll(`?quoteId=${foreign}`);
    expect(probe.status).toBe(403);
    expect(probe.text).toBe('Forbidden');
  });

  it('does the same database work for each cause: one quote lookup, no option read', async () => {
    const foreign = await createQuote(fullQuote, theirs.testKey, OTHER_SITE_ORIGIN);
    await h.worker.runOnce();
    const calls: string[] = [];
    const counting = countingPrisma(h.prisma, calls);
    const probe = await createHarness({ db: h.db, deps: { prisma: counting } });
    for (const query of [`?quoteId=${foreign}`, `?quoteId=${UNKNOWN}`, ...MALFORMED]) {
      calls.length = 0;
      const res = await poll(query, mine.testKey, probe.app);
      expect(res.status).toBe(403);
      expect(calls).toEqual(['quote.findUnique']);
    }
  });
});

describe('GET /api/embed/options: pending then ready', () => {
  it('answers pending until the worker has run, then the ready payload without `pending`', async () => {
    const quoteId = await createQuote();
    const before = await poll(`?quoteId=${quoteId}`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual(PENDING);
    expectCors(before, SITE_ORIGIN);

    const summary = await h.worker.runOnce();
    expect(summary.byQuote.get(quoteId)).toBe('ready');

    const after = await poll(`?quoteId=${quoteId}`);
    expect(after.status).toBe(200);
    expectCors(after, SITE_ORIGIN);
    expect(after.body).not.toHaveProperty('pending');
    const ready = EmbedOptionsReadySchema.parse(after.body);

    const stored = await h.prisma.quote.findUniqueOrThrow({
      where: { id: quoteId },
      include: { estimates: { orderBy: { rank: 'asc' } } },
    });
    expect(stored.optionsStatus).toBe('ready');
    expect(ready).toMatchObject({
      quoteId,
      quoteNumber: stored.quoteNumber,
      currency: 'USD',
      recommendedPlanId: stored.recommendedPlanId,
    });
    expect(ready.options.map((o) => o.planId)).toEqual(stored.estimates.map((e) => e.planId));
    expect(ready.options.map((o) => o.premiumCents)).toEqual(stored.estimates.map((e) => e.premiumCents));
    expect(ready.options[0]!.isRecommended).toBe(true);
    expect(ready.options.filter((o) => o.isRecommended)).toHaveLength(1);
    for (const option of ready.options) {
      const plan = getPlan(option.planId)!;
      expect(option).toMatchObject({
        name: plan.name,
        brand: plan.brand,
        tier: plan.tier,
        availabilityMode: plan.availabilityMode,
        coverage: { medicalExpenseLimit: plan.medicalExpenseLimit, evacuationCoverage: plan.evacuationCoverage },
        // The plan's policy wording, served by quote-api (issue 19 §3).
        policyTermsUrl: `${QUOTE_API_URL}/policy-wording/${plan.id}`,
      });
      const purchasable = isPurchasable(plan);
      expect(option.checkout).toEqual({
        purchasable,
        amountCents: purchasable ? option.premiumCents : 0,
        currency: 'USD',
      });
    }
    // Stable across polls (served from the per-process cache the second time).
    expect((await poll(`?quoteId=${quoteId}`)).body).toEqual(after.body);
  });

  it('keeps a not-yet-eligible quote on the pending shape, and the worker leaves it alone', async () => {
    const quoteId = await createQuote({ ...fullQuote, travelerAges: undefined });
    await h.worker.runOnce();
    expect((await poll(`?quoteId=${quoteId}`)).body).toEqual(PENDING);
    expect(await h.prisma.quoteOption.count({ where: { quoteId } })).toBe(0);
    expect((await h.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).optionsStatus).toBe('not_eligible');
  });

  it('answers a failed generation with the pending shape (never an error the iframe cannot act on)', async () => {
    const quoteId = await createQuote();
    await h.prisma.quote.update({ where: { id: quoteId }, data: { optionsStatus: 'failed' } });
    expect((await poll(`?quoteId=${quoteId}`)).body).toEqual(PENDING);
  });

  it.each(LOCALES)(
    "writes the plans' highlights in the quote's language (%s), from its locale or the iframe's Accept-Language",
    async (locale) => {
      const asked = await createQuote({ ...fullQuote, locale });
      const negotiated = await request(h.app)
        .post('/api/embed/quote')
        .set('X-SVC-Publishable-Key', mine.testKey)
        .set('Origin', SITE_ORIGIN)
        .set('Accept-Language', `${locale}-XX, en;q=0.1`)
        .send(fullQuote);
      await h.worker.runOnce();
      for (const quoteId of [asked, negotiated.body.quoteId as string]) {
        const ready = EmbedOptionsReadySchema.parse((await poll(`?quoteId=${quoteId}`)).body);
        expect(ready.options.length).toBeGreaterThan(0);
        for (const option of ready.options) {
          const plan = getPlan(option.planId)!;
          expect(option.highlights).toEqual(planHighlights(plan, locale));
          if (locale === 'en') expect(option.highlights).toEqual(plan.highlights);
          else for (const text of option.highlights) expect(plan.highlights).not.toContain(text);
        }
      }
    },
  );

  it('lets any key of the same operator poll (a test-key quote read with the live key, and via ?pk)', async () => {
    const quoteId = await createQuote(fullQuote, mine.testKey);
    await h.worker.runOnce();
    const live = await poll(`?quoteId=${quoteId}`, mine.liveKey);
    expect(live.status).toBe(200);
    expect(live.body.quoteId).toBe(quoteId);
    const viaQuery = await request(h.app)
      .get(`/api/embed/options?quoteId=${quoteId}&pk=${mine.testKey}`)
      .set('Origin', SITE_ORIGIN);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body.options.length).toBeGreaterThan(0);
  });
});

/** Records `model.method` for the quote and quoteOption delegates. */
function countingPrisma(prisma: PrismaClient, calls: string[]): PrismaClient {
  const wrap = (model: 'quote' | 'quoteOption') =>
    new Proxy(prisma[model] as object, {
      get(target, method, receiver) {
        const value = Reflect.get(target, method, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(`${model}.${String(method)}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const quote = wrap('quote');
  const quoteOption = wrap('quoteOption');
  return new Proxy(prisma, {
    get(target, prop, receiver) {
      if (prop === 'quote') return quote;
      if (prop === 'quoteOption') return quoteOption;
      return Reflect.get(target, prop, receiver);
    },
  }) as PrismaClient;
}
