import { createTestDatabase } from '@expedition/db/testing';
import { syncCatalog, type Database } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { normalizeQuoteNumber } from './identifiers';
import { createQuoteService } from './quote.service';
import { findQuoteByNumber } from './quote-number-lookup';

describe('normalizeQuoteNumber', () => {
  it.each([
    ['EXP-7KQ2', 'EXP-7KQ2'],
    ['exp-7kq2', 'EXP-7KQ2'],
    ['E X P 7 K Q 2', 'EXP-7KQ2'],
    ['7KQ2', 'EXP-7KQ2'],
    [' 7kq-2 ', 'EXP-7KQ2'],
  ])('reads %j as %s', (input, expected) => {
    expect(normalizeQuoteNumber(input)).toBe(expected);
  });

  it.each(['EXP-7KQ', 'EXP-7KQ22', 'EXP-0KQ2', 'EXP-OKQ2', 'EXP-1KQ2', 'EXP-UKQ2', 'POL-7KQ2', ''])(
    'refuses %j (not one of our numbers)',
    (input) => {
      expect(normalizeQuoteNumber(input)).toBeNull();
    },
  );
});

describe('findQuoteByNumber', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
    await syncCatalog(db.prisma, catalogSnapshot());
  });
  afterAll(() => db?.close());

  const trip = {
    source: 'api' as const,
    destination: 'Arctic',
    startDate: '2027-07-01',
    durationDays: 10,
    tripCostCents: 1_500_000,
    travelers: 1,
    residence: 'GB',
  };

  async function quoteOn(day: string, email: string, operatorId: string | null = null) {
    const clock = { now: () => new Date(`${day}T09:00:00Z`) };
    const quotes = createQuoteService({ prisma: db.prisma, clock, newQuoteNumber: () => 'EXP-HHHH' });
    return (await quotes.create({ ...trip, email, operatorId })).quote;
  }

  it('looks a number up among the last 60 days without a date, and on any day with one', async () => {
    const old = await quoteOn('2026-01-01', 'old@example.com');
    const recent = await quoteOn('2026-03-01', 'recent@example.com');
    const deps = { prisma: db.prisma, clock: { now: () => new Date('2026-03-02T12:00:00Z') } };

    expect(await findQuoteByNumber(deps, { quoteNumber: 'hhhh' })).toMatchObject({
      kind: 'one',
      quote: { id: recent.id },
    });
    expect(await findQuoteByNumber(deps, { quoteNumber: 'EXP-HHHH', day: '2026-01-01' })).toMatchObject({
      kind: 'one',
      quote: { id: old.id },
    });
    expect(await findQuoteByNumber(deps, { quoteNumber: 'EXP-HHHH', email: 'old@example.com' })).toEqual({
      kind: 'none',
    });
    expect(await findQuoteByNumber(deps, { quoteNumber: 'EXP-HHHH', day: '2026-02-30' })).toEqual({ kind: 'none' });
  });

  it('answers several when the number alone is shared, and one with the e-mail or the operator', async () => {
    const operator = await db.prisma.operator.create({ data: { name: 'Lookup Tours', status: 'active' } });
    const first = await quoteOn('2026-05-01', 'first@example.com', operator.id);
    const second = await quoteOn('2026-05-02', 'second@example.com');
    const deps = { prisma: db.prisma, clock: { now: () => new Date('2026-05-03T12:00:00Z') } };

    const alone = await findQuoteByNumber(deps, { quoteNumber: 'EXP-HHHH' });
    expect(alone.kind === 'several' && alone.quotes.map((q) => q.id)).toEqual([second.id, first.id]);
    expect(await findQuoteByNumber(deps, { quoteNumber: 'EXP-HHHH', email: 'FIRST@example.com ' })).toMatchObject({
      kind: 'one',
      quote: { id: first.id },
    });
    expect(await findQuoteByNumber(deps, { quoteNumber: 'EXP-HHHH', operatorId: operator.id })).toMatchObject({
      kind: 'one',
      quote: { id: first.id },
    });
  });
});
