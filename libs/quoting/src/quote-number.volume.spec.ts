import { addDays } from '@expedition/contracts';
import { Prisma, queryRows, syncCatalog, type Database } from '@expedition/db';
import { createTestDatabase, describeWithPostgres } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { QUOTE_NUMBER_ALPHABET, randomQuoteNumber } from './identifiers';
import { createQuoteService } from './quote.service';
import { findQuoteByNumber } from './quote-number-lookup';

/**
 * Quote numbers at volume (docs/decisions.md, "Quote numbers"): 1,000,000 quotes made in the last 30 days, 33,334 on
 * each day, today included, as one set-based INSERT (a day's numbers are a permutation of the 810,000, so no two of
 * one day are equal, and every number recurs on other days). New quotes then still get a number on the first draw
 * or the next, and a number with its day names one quote. The scheme depends on a quote's day only, so older quotes
 * (10,000,000 in all) change nothing a new draw sees; they add about a dozen index entries per number, which the
 * look-ups read.
 */
const TODAY = '2027-03-01';
const clock = { now: () => new Date(`${TODAY}T23:30:00Z`) };
const DAYS = 30;
const RECENT = 1_000_000;
const NEW_QUOTES = 300;
const NUMBER = new RegExp(`^EXP-[${QUOTE_NUMBER_ALPHABET}]{4}$`);

const trip = {
  source: 'embed' as const,
  mode: 'live' as const,
  destination: 'Antarctica',
  startDate: '2027-12-01',
  durationDays: 14,
  tripCostCents: 2_400_000,
  travelers: 1,
  travelerAges: [45],
  residence: 'US',
  state: 'CA',
};

/**
 * Row g is made on day g % 30 before TODAY (0: today), the (g / 30)th of its day; its number is the day's
 * permutation `(k * 7919 + day * 104729) mod 810000` (7919 is prime to 810,000 = 2^4 * 3^4 * 5^4) spelled in the
 * alphabet, and its e-mail one of 250,000 travelers (about four quotes each). Rows go in sorted by number and day,
 * with ids in that order, so each index is appended to rather than written at random: about half the time.
 */
async function seedRecentQuotes(db: Database): Promise<void> {
  const a = QUOTE_NUMBER_ALPHABET;
  await db.prisma.$executeRaw(Prisma.sql`
    INSERT INTO quotes (id, quote_number, quote_day, session_id_hash, source, mode, options_status, destination_slug,
      other_countries, duration_days, trip_cost_cents, travelers, traveler_ages, residence, email, expires_at,
      created_at, updated_at)
    SELECT 'seed-' || lpad(r::text, 7, '0'), quote_number, day, 'seed-' || lpad(r::text, 7, '0'),
      (CASE WHEN g % 3 = 0 THEN 'api' ELSE 'embed' END)::quote_source, 'live', 'not_eligible', 'antarctica', '{}',
      14, 2400000, 1, '{45}', 'US', 'traveler' || g % 250000 || '@example.com', at + interval '30 days', at, at
    FROM (
      SELECT g, day, at, quote_number, row_number() OVER (ORDER BY quote_number, day) AS r
      FROM (
        SELECT g, day, day + (g / ${DAYS}) * interval '2.5 seconds' AS at,
          'EXP-' || substr(${a}, n / 27000 + 1, 1) || substr(${a}, n / 900 % 30 + 1, 1)
            || substr(${a}, n / 30 % 30 + 1, 1) || substr(${a}, n % 30 + 1, 1) AS quote_number
        FROM (
          SELECT g, (g / ${DAYS} * 7919 + g % ${DAYS} * 104729) % 810000 AS n, ${TODAY}::date - g % ${DAYS} AS day
          FROM generate_series(0, ${RECENT - 1}) AS g
        ) AS numbered
      ) AS spelled
    ) AS ranked
    ORDER BY r`);
  await db.prisma.$executeRaw`ANALYZE quotes`;
}

describeWithPostgres()('quote numbers with 1,000,000 quotes made in the last 30 days (PostgreSQL)', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase({ kind: 'postgres' });
    await syncCatalog(db.prisma, catalogSnapshot());
    await seedRecentQuotes(db);
  }, 180_000);
  afterAll(() => db?.close());

  it('seeds 33,334 quotes on each of the 30 days, no number twice on one day', async () => {
    const [row] = await queryRows<{ quotes: number; days: number; repeated: number }>(
      db.prisma,
      Prisma.sql`SELECT count(*)::int AS quotes, count(DISTINCT quote_day)::int AS days,
        (SELECT count(*)::int FROM (SELECT 1 FROM quotes GROUP BY quote_number, quote_day HAVING count(*) > 1) AS x)
          AS repeated
      FROM quotes`,
    );
    expect(row).toEqual({ quotes: RECENT, days: DAYS, repeated: 0 });
  });

  it('gives every new quote an EXP-XXXX number of today, nearly always on the first draw', async () => {
    let draws = 0;
    const quotes = createQuoteService({
      prisma: db.prisma,
      clock,
      newQuoteNumber: () => {
        draws += 1;
        return randomQuoteNumber();
      },
    });
    const created = [];
    for (let i = 0; i < NEW_QUOTES; i++) created.push(await quotes.create({ ...trip, email: `new${i}@example.com` }));

    for (const { quote } of created) {
      expect(quote.quoteNumber).toMatch(NUMBER);
      expect(quote).toMatchObject({ quoteDay: new Date(`${TODAY}T00:00:00Z`), numberSeries: 0 });
    }
    // Today holds 33,334 of 810,000 numbers (4.1 %): about 13 taken draws are expected in 300; 60 is far out of reach.
    expect(draws - NEW_QUOTES).toBeLessThan(60);
    const today = await db.prisma.quote.count({ where: { quoteDay: new Date(`${TODAY}T00:00:00Z`) } });
    const distinct = await queryRows<{ n: number }>(
      db.prisma,
      Prisma.sql`SELECT count(DISTINCT quote_number)::int AS n FROM quotes WHERE quote_day = ${TODAY}::date`,
    );
    expect(distinct[0]!.n).toBe(today);
  });

  it('finds exactly one quote by a number and its day, on every day the number was used', async () => {
    const shared = await queryRows<{ quoteNumber: string; days: string[] }>(
      db.prisma,
      Prisma.sql`SELECT quote_number AS "quoteNumber", array_agg(quote_day::text ORDER BY quote_day) AS days
        FROM quotes GROUP BY quote_number HAVING count(*) >= 3 ORDER BY quote_number LIMIT 5`,
    );
    expect(shared).toHaveLength(5);
    for (const { quoteNumber, days } of shared) {
      for (const day of days) {
        const found = await findQuoteByNumber({ prisma: db.prisma, clock }, { quoteNumber, day });
        expect(found).toMatchObject({ kind: 'one', quote: { quoteNumber, quoteDay: new Date(`${day}T00:00:00Z`) } });
      }
      // The number alone names several recent quotes: the caller is asked for the day (or the e-mail).
      const alone = await findQuoteByNumber({ prisma: db.prisma, clock }, { quoteNumber });
      expect(alone.kind).toBe('several');
      if (alone.kind === 'several') expect(alone.quotes.map((q) => isoDayOf(q.quoteDay))).toEqual([...days].reverse());
    }
  });

  it('finds one quote by a number read aloud and the e-mail it was made with', async () => {
    const [quote] = await queryRows<{ quoteNumber: string; email: string; id: string }>(
      db.prisma,
      Prisma.sql`SELECT quote_number AS "quoteNumber", email, id FROM quotes
        WHERE quote_day = ${addDays(TODAY, -3)}::date ORDER BY id LIMIT 1`,
    );
    const spoken = quote!.quoteNumber.toLowerCase().replace('exp-', 'exp ').split('').join(' ');
    const found = await findQuoteByNumber(
      { prisma: db.prisma, clock },
      { quoteNumber: spoken, email: quote!.email.toUpperCase() },
    );
    expect(found).toMatchObject({ kind: 'one', quote: { id: quote!.id } });
  });

  it('answers none for a number outside the alphabet, a day it was not used, and an e-mail that did not make it', async () => {
    const deps = { prisma: db.prisma, clock };
    expect(await findQuoteByNumber(deps, { quoteNumber: 'EXP-0OIL' })).toEqual({ kind: 'none' });
    const [quote] = await queryRows<{ quoteNumber: string }>(
      db.prisma,
      Prisma.sql`SELECT quote_number AS "quoteNumber" FROM quotes WHERE quote_day = ${TODAY}::date LIMIT 1`,
    );
    expect(await findQuoteByNumber(deps, { quoteNumber: quote!.quoteNumber, day: addDays(TODAY, -400) })).toEqual({
      kind: 'none',
    });
    expect(await findQuoteByNumber(deps, { quoteNumber: quote!.quoteNumber, email: 'nobody@example.com' })).toEqual({
      kind: 'none',
    });
  });

  it('moves to the next number series when sixteen draws in a row are taken, and stays there for the day', async () => {
    const taken = await queryRows<{ quoteNumber: string }>(
      db.prisma,
      Prisma.sql`SELECT quote_number AS "quoteNumber" FROM quotes WHERE quote_day = ${TODAY}::date
        ORDER BY quote_number LIMIT 17`,
    );
    // The first 17 draws are numbers today's quotes hold (as on a day with every number taken); then random ones.
    const replay = taken.map((t) => t.quoteNumber);
    const quotes = createQuoteService({
      prisma: db.prisma,
      clock,
      newQuoteNumber: () => replay.shift() ?? randomQuoteNumber(),
    });
    const spilled = await quotes.create({ ...trip, email: 'spill@example.com' });
    // Sixteen taken draws in series 0, then the 17th number is free in series 1: the same number, a second quote today.
    expect(spilled.quote).toMatchObject({ quoteNumber: taken[16]!.quoteNumber, numberSeries: 1 });
    expect((await quotes.create(trip)).quote.numberSeries).toBe(1);

    const deps = { prisma: db.prisma, clock };
    const byDay = await findQuoteByNumber(deps, { quoteNumber: taken[16]!.quoteNumber, day: TODAY });
    expect(byDay.kind === 'several' && byDay.quotes.map((q) => q.numberSeries).sort()).toEqual([0, 1]);
    const byEmail = { quoteNumber: taken[16]!.quoteNumber, day: TODAY, email: 'spill@example.com' };
    expect(await findQuoteByNumber(deps, byEmail)).toMatchObject({ kind: 'one', quote: { id: spilled.quote.id } });
  });
});

function isoDayOf(day: Date): string {
  return day.toISOString().slice(0, 10);
}
