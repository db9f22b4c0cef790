import { createTestDatabase } from '@expedition/db/testing';
import { syncCatalog, type Database } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { QUOTE_NUMBER_ALPHABET, randomQuoteNumber } from './identifiers';
import { createQuoteService } from './quote.service';
import { QuotingError } from './quoting-error';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await syncCatalog(db.prisma, catalogSnapshot());
});
afterAll(() => db.close());

const clock = { now: () => new Date('2026-11-21T12:00:00Z') };
const trip = {
  source: 'api' as const,
  destination: 'Arctic',
  startDate: '2027-07-01',
  durationDays: 10,
  tripCostCents: 1_500_000,
  travelers: 1,
  travelerAges: [40],
  residence: 'GB',
};

describe('identifiers', () => {
  it('mints EXP-XXXX numbers from the unambiguous alphabet', () => {
    for (let i = 0; i < 200; i++) expect(randomQuoteNumber()).toMatch(/^EXP-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}$/);
    expect(QUOTE_NUMBER_ALPHABET).not.toMatch(/[01ILOU]/);
  });
});

describe('createQuoteService', () => {
  it('stores the quote and one estimate per eligible plan, recommended first', async () => {
    const { quote, estimates, pricing } = await createQuoteService({ prisma: db.prisma, clock }).create(trip);
    expect(estimates.map((e) => e.planId)).toEqual(pricing.estimates.map((e) => e.planId));
    expect(estimates[0]!.isRecommended).toBe(true);
    expect(quote).toMatchObject({ destinationSlug: 'arctic', durationDays: 10, status: 'quoted', mode: 'test' });
    expect(quote.expiresAt!.toISOString()).toBe('2026-12-21T12:00:00.000Z');
    expect(quote.endDate!.toISOString().slice(0, 10)).toBe('2027-07-11');
  });

  it('retries with a fresh quote number when one is taken', async () => {
    const numbers = ['EXP-AAAA', 'EXP-AAAA', 'EXP-BBBB'];
    const quotes = createQuoteService({ prisma: db.prisma, clock, newQuoteNumber: () => numbers.shift()! });
    const first = await quotes.create(trip);
    const second = await quotes.create(trip);
    expect([first.quote.quoteNumber, second.quote.quoteNumber]).toEqual(['EXP-AAAA', 'EXP-BBBB']);
  });

  it('gives a number again on another day: a number is unique among the quotes of one day', async () => {
    let now = new Date('2026-11-22T23:59:59Z');
    const quotes = createQuoteService({
      prisma: db.prisma,
      clock: { now: () => now },
      newQuoteNumber: () => 'EXP-EEEE',
    });
    const first = await quotes.create(trip);
    now = new Date('2026-11-23T00:00:00Z');
    const second = await quotes.create(trip);
    expect([first.quote, second.quote].map((q) => [q.quoteNumber, q.quoteDay.toISOString(), q.numberSeries])).toEqual([
      ['EXP-EEEE', '2026-11-22T00:00:00.000Z', 0],
      ['EXP-EEEE', '2026-11-23T00:00:00.000Z', 0],
    ]);
  });

  it('never refuses a quote: after sixteen taken draws the next number series of the day, and series 0 the next day', async () => {
    let now = new Date('2026-11-24T10:00:00Z');
    let draws = 0;
    const quotes = createQuoteService({
      prisma: db.prisma,
      clock: { now: () => now },
      newQuoteNumber: () => {
        draws += 1;
        return 'EXP-FFFF';
      },
    });
    const series = [];
    for (let i = 0; i < 3; i++) series.push((await quotes.create(trip)).quote.numberSeries);
    expect(series).toEqual([0, 1, 2]);
    // The first quote drew once; the second 16 times in series 0, then once in 1; the third starts at series 1.
    expect(draws).toBe(1 + 17 + 17);
    now = new Date('2026-11-25T10:00:00Z');
    expect((await quotes.create(trip)).quote).toMatchObject({ quoteNumber: 'EXP-FFFF', numberSeries: 0 });
  });

  it('gives one taken number to one of many concurrent quotes, and every other one a fresh draw', async () => {
    // Each quote's first draw is the same number; later draws are unique. All 12 inserts race for EXP-CCCC.
    let draws = 0;
    const quotes = createQuoteService({
      prisma: db.prisma,
      clock,
      newQuoteNumber: () => (draws++ < 12 ? 'EXP-CCCC' : `EXP-${QUOTE_NUMBER_ALPHABET[draws - 12]}DDD`),
    });
    const created = await Promise.all(Array.from({ length: 12 }, () => quotes.create(trip)));
    const numbers = created.map((c) => c.quote.quoteNumber);
    expect(new Set(numbers).size).toBe(12);
    expect(numbers.filter((n) => n === 'EXP-CCCC')).toHaveLength(1);
    const stored = await db.prisma.quote.findMany({ where: { id: { in: created.map((c) => c.quote.id) } } });
    expect(stored).toHaveLength(12);
    const estimates = await db.prisma.quoteEstimate.count({ where: { quoteId: { in: stored.map((q) => q.id) } } });
    expect(estimates).toBe(created.reduce((sum, c) => sum + c.estimates.length, 0));
  });

  it('writes nothing when pricing refuses the input', async () => {
    const before = await db.prisma.quote.count();
    await expect(
      createQuoteService({ prisma: db.prisma, clock }).create({ ...trip, destination: 'Mars' }),
    ).rejects.toMatchObject({
      code: 'unknown_destination',
    });
    expect(await db.prisma.quote.count()).toBe(before);
  });

  it('decides instant eligibility in the one write: only an embed quote priced on complete data is queued', async () => {
    const quotes = createQuoteService({ prisma: db.prisma, clock });
    const embed = await quotes.create({ ...trip, source: 'embed' });
    expect(embed.quote).toMatchObject({ instantQuoteEligible: true, optionsStatus: 'pending' });
    const ageUnknown = await quotes.create({ ...trip, source: 'embed', travelerAges: [0] });
    expect(ageUnknown.quote).toMatchObject({ instantQuoteEligible: false, optionsStatus: 'not_eligible' });
    const noStart = await quotes.create({ ...trip, source: 'embed', startDate: null });
    expect(noStart.quote).toMatchObject({ instantQuoteEligible: false, optionsStatus: 'not_eligible' });
    const api = await quotes.create(trip);
    expect(api.quote).toMatchObject({ instantQuoteEligible: false, optionsStatus: 'not_eligible' });
  });

  it('hands the currency to pricing: USD in any case is stored as USD, anything else is refused and nothing is written', async () => {
    const quotes = createQuoteService({ prisma: db.prisma, clock });
    expect((await quotes.create({ ...trip, currency: ' usd ' })).quote.currency).toBe('USD');
    const before = await db.prisma.quote.count();
    await expect(quotes.create({ ...trip, source: 'embed', currency: 'EUR' })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'currency',
      message: 'only USD trip costs can be priced',
    });
    expect(await db.prisma.quote.count()).toBe(before);
  });

  it('refuses a sandbox value in test mode with the sandbox_refusal QuotingError (no HTTP status) and writes nothing', async () => {
    const quotes = createQuoteService({ prisma: db.prisma, clock });
    const before = await db.prisma.quote.count();
    const refused = quotes.create({ ...trip, mode: 'test', tripCostCents: 1_301_300 });
    await expect(refused).rejects.toBeInstanceOf(QuotingError);
    await expect(refused).rejects.toMatchObject({ code: 'sandbox_refusal', details: [{ path: 'tripCost' }] });
    await expect(refused).rejects.not.toHaveProperty('status');
    expect(await db.prisma.quote.count()).toBe(before);
    expect((await quotes.create({ ...trip, mode: 'live', tripCostCents: 1_301_300 })).quote.mode).toBe('live');
  });
});
