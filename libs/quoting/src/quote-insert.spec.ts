import { createTestDatabase, describeWithPostgres } from '@expedition/db/testing';
import { syncCatalog, type Database } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { insertQuoteWithEstimates } from './quote-insert';
import { createQuoteService } from './quote.service';

/**
 * Quote creation writes with one raw SQL statement (quote-insert.ts). What it returns must be exactly what Prisma
 * reads back (same fields, same types), and it must run the same on PostgreSQL and PGlite.
 */
const clock = { now: () => new Date('2026-11-21T12:00:00Z') };
const fullTrip = {
  source: 'embed' as const,
  operatorId: null,
  mode: 'live' as const,
  destination: 'Antarctica',
  startDate: '2027-01-10',
  endDate: '2027-01-24',
  tripCostCents: 2_400_000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'US',
  state: 'CA',
  depositPaidDate: '2026-11-01',
  email: 'a@example.com',
  name: 'Ada',
  phone: '+441234567890',
  operatorName: 'Polar Co',
  otherCountries: ['AR', 'CL'],
  locale: 'de' as const,
};
const sparseTrip = {
  source: 'api' as const,
  destination: 'Arctic',
  tripCostCents: 500_000,
  travelers: 1,
  residence: 'GB',
};

function suite(kind: 'postgres' | 'pglite') {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase({ kind });
    await syncCatalog(db.prisma, catalogSnapshot());
  });
  afterAll(() => db?.close());

  it.each([
    ['every field set', fullTrip],
    ['only the required fields', sparseTrip],
  ])('returns exactly the rows Prisma reads back (%s)', async (_label, trip) => {
    const created = await createQuoteService({ prisma: db.prisma, clock }).create(trip);
    const stored = await db.prisma.quote.findUniqueOrThrow({
      where: { id: created.quote.id },
      include: { estimates: { orderBy: { rank: 'asc' } } },
    });
    const { estimates, ...quote } = stored;
    expect(created.quote).toEqual(quote);
    expect(created.estimates).toEqual(estimates);
    expect(estimates.length).toBeGreaterThan(0);
    expect(estimates.map((e) => e.rank)).toEqual(estimates.map((_, i) => i));
  });

  it('stores the values it was given (dates as days, arrays, enums)', async () => {
    const { quote, estimates, pricing } = await createQuoteService({ prisma: db.prisma, clock }).create(fullTrip);
    expect(quote).toMatchObject({
      source: 'embed',
      mode: 'live',
      status: 'quoted',
      optionsAttempts: 0,
      otherCountries: ['AR', 'CL'],
      travelerAges: [45, 52],
      state: 'CA',
      operatorName: 'Polar Co',
      locale: 'de',
    });
    expect((await createQuoteService({ prisma: db.prisma, clock }).create(sparseTrip)).quote.locale).toBe('en');
    expect(quote.startDate!.toISOString()).toBe('2027-01-10T00:00:00.000Z');
    expect(quote.endDate!.toISOString()).toBe('2027-01-24T00:00:00.000Z');
    expect(quote.depositPaidDate!.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(quote.expiresAt!.toISOString()).toBe('2026-12-21T12:00:00.000Z');
    expect(estimates.map((e) => [e.planId, e.premiumCents, e.travelerPremiumsCents])).toEqual(
      pricing.estimates.map((e) => [e.planId, e.premiumCents, [...e.travelerPremiumsCents]]),
    );
  });

  it('writes nothing when an estimate cannot be stored (one statement: all or nothing)', async () => {
    const before = await db.prisma.quote.count();
    const quotes = createQuoteService({ prisma: db.prisma, clock });
    const created = await quotes.create(sparseTrip);
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { id, status, optionsAttempts, optionsLockedUntil, optionsError, createdAt, updatedAt, ...row } =
      created.quote;
    await expect(
      insertQuoteWithEstimates(db.prisma, { ...row, quoteNumber: 'EXP-ZZZZ', sessionIdHash: 'x'.repeat(64) }, [
        { ...created.estimates[0]!, planId: 'no-such-plan' },
      ]),
    ).rejects.toThrow(); // a plan the catalog does not hold: the estimates' foreign key fails after the quote row
    expect(await db.prisma.quote.count()).toBe(before + 1);
    expect(await db.prisma.quote.findFirst({ where: { quoteNumber: 'EXP-ZZZZ' } })).toBeNull();
  });

  it('answers null and writes nothing when the quote number is taken (no error: nothing to roll back)', async () => {
    const created = await createQuoteService({ prisma: db.prisma, clock }).create(sparseTrip);
    const [quotes, estimates] = [await db.prisma.quote.count(), await db.prisma.quoteEstimate.count()];
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { id, status, optionsAttempts, optionsLockedUntil, optionsError, createdAt, updatedAt, ...row } =
      created.quote;
    const again = await insertQuoteWithEstimates(db.prisma, { ...row, sessionIdHash: 'y'.repeat(64) }, [
      { ...created.estimates[0]! },
    ]);
    expect(again).toBeNull();
    expect([await db.prisma.quote.count(), await db.prisma.quoteEstimate.count()]).toEqual([quotes, estimates]);
  });
}

describe('quote insert on PGlite', () => suite('pglite'));
describeWithPostgres()('quote insert on PostgreSQL', () => suite('postgres'));
