import { QuoteRequestSchema } from './quote.schema';
import { ProductListQuerySchema } from './catalog.schema';
import { EmbedQuoteRequestSchema } from '../embed/embed-quote.schema';
import { PolicyIssuedPayloadSchema } from '../webhook/policy-issued.schema';

const valid = {
  destination: 'Antarctica',
  startDate: '2027-01-10',
  durationDays: 14,
  tripCost: 24000,
  travelers: 2,
  travelerAges: [62, 71],
  residence: 'us',
  state: 'ca',
};

describe('QuoteRequestSchema', () => {
  it('accepts a complete request, normalizing codes and defaulting currency to USD', () => {
    const q = QuoteRequestSchema.parse(valid);
    expect(q).toMatchObject({ residence: 'US', state: 'CA', currency: 'USD' });
  });

  it.each(['destination', 'startDate', 'durationDays', 'tripCost', 'travelers', 'travelerAges', 'residence'])(
    'rejects a request without %s',
    (field) => {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      const r = QuoteRequestSchema.safeParse(body);
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => i.path[0])).toContain(field);
    },
  );

  it('requires a state for US residents', () => {
    const r = QuoteRequestSchema.safeParse({ ...valid, state: undefined });
    expect(r.error?.issues[0]).toMatchObject({ path: ['state'] });
  });

  it('requires one age per traveler', () => {
    const r = QuoteRequestSchema.safeParse({ ...valid, travelerAges: [40] });
    expect(r.error?.issues[0]?.path).toEqual(['travelerAges']);
  });

  it('rejects impossible dates', () => {
    expect(QuoteRequestSchema.safeParse({ ...valid, startDate: '2027-02-30' }).success).toBe(false);
  });

  it("checks the currency code only: which currencies can be priced is the pricing engine's rule", () => {
    expect(QuoteRequestSchema.parse({ ...valid, currency: 'eur' }).currency).toBe('EUR');
    expect(QuoteRequestSchema.safeParse({ ...valid, currency: 'euro' }).success).toBe(false);
  });
});

describe('ProductListQuerySchema', () => {
  it('parses include_disabled from a query string and requires state for US', () => {
    expect(ProductListQuerySchema.parse({ include_disabled: 'true' }).include_disabled).toBe(true);
    expect(ProductListQuerySchema.parse({}).include_disabled).toBe(false);
    expect(ProductListQuerySchema.safeParse({ residence: 'US' }).success).toBe(false);
    expect(ProductListQuerySchema.safeParse({ tier: 'gold' }).success).toBe(false);
  });
});

describe('EmbedQuoteRequestSchema', () => {
  const body = { destination: 'antarctica', tripCost: 12000, travelers: 2, residence: 'GB', email: 'a@b.co' };
  it('needs the five required fields with their types', () => {
    expect(EmbedQuoteRequestSchema.safeParse(body).success).toBe(true);
    for (const k of Object.keys(body)) {
      const b: Record<string, unknown> = { ...body };
      delete b[k];
      expect(EmbedQuoteRequestSchema.safeParse(b).success).toBe(false);
    }
    expect(EmbedQuoteRequestSchema.safeParse({ ...body, tripCost: '12000' }).success).toBe(false);
    expect(EmbedQuoteRequestSchema.safeParse({ ...body, travelerAges: 'x' }).success).toBe(false);
  });
});

describe('PolicyIssuedPayloadSchema', () => {
  it('keeps money in integer minor units', () => {
    const base = {
      eventId: 'evt_1',
      type: 'policy.issued',
      createdAt: '2026-11-21T00:00:00Z',
      mode: 'test',
      operatorId: 'op',
      policyId: 'p',
      policyNumber: 'POL-1',
      quoteId: 'q',
      quoteNumber: 'EXP-AAAA',
      planId: 'x',
      planName: 'X',
      destination: 'antarctica',
      premiumCents: 12345,
      commissionCents: 1234,
      commissionRateBps: 1000,
      currency: 'USD',
      travelers: 1,
      startDate: null,
      endDate: null,
      issuedAt: '2026-11-21T00:00:00Z',
    };
    expect(PolicyIssuedPayloadSchema.safeParse(base).success).toBe(true);
    expect(PolicyIssuedPayloadSchema.safeParse({ ...base, premiumCents: 123.45 }).success).toBe(false);
  });
});
