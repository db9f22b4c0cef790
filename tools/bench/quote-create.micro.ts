/**
 * Micro-benchmark (in process, no HTTP), for profiling and for an A/B of the quote write on a noisy machine:
 * `QuoteService.create` (one SQL statement, quote-insert.ts) vs the ORM write it replaced (an interactive transaction
 * with `quote.create` + `quoteEstimate.createManyAndReturn`), same priced input, alternating rounds, concurrency 8.
 *
 *   TSX_TSCONFIG_PATH=tsconfig.base.json node [--cpu-prof] --import tsx tools/bench/quote-create.micro.ts
 *   (BENCH_QUOTES per round, default 500; BENCH_ROUNDS, default 5)
 */
import { randomBytes } from 'node:crypto';
import { syncCatalog, type PrismaClient } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot, priceQuote } from '@expedition/domain-pricing';
import { hashToken, randomToken, systemClock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';

const start = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
const input = {
  source: 'api' as const,
  destination: 'Antarctica',
  startDate: start,
  durationDays: 14,
  tripCostCents: 2_400_000,
  travelers: 2,
  travelerAges: [45, 52],
  residence: 'GB',
};

/** The write quote creation made before issue 13 (two ORM calls in an interactive transaction), for the A/B. */
function ormWrite(prisma: PrismaClient) {
  return async () => {
    const pricing = priceQuote({ ...input, today: new Date().toISOString().slice(0, 10) });
    await prisma.$transaction(async (tx) => {
      const quote = await tx.quote.create({
        data: {
          quoteNumber: `EXP-${randomBytes(6).toString('hex')}`,
          sessionIdHash: hashToken(randomToken('qs')),
          source: 'api',
          mode: 'test',
          destinationSlug: pricing.destination.slug,
          otherCountries: [],
          startDate: new Date(`${start}T00:00:00Z`),
          endDate: null,
          durationDays: pricing.durationDays,
          durationDefaulted: pricing.durationDefaulted,
          tripCostCents: input.tripCostCents,
          currency: pricing.currency,
          travelers: 2,
          travelerAges: [45, 52],
          residence: 'GB',
          recommendedPlanId: pricing.recommendedPlanId,
          instantQuoteEligible: false,
          optionsStatus: 'not_eligible',
          expiresAt: new Date(Date.now() + 30 * 86_400_000),
        },
      });
      await tx.quoteEstimate.createManyAndReturn({
        data: pricing.estimates.map((e, rank) => ({
          quoteId: quote.id,
          planId: e.planId,
          premiumCents: e.premiumCents,
          currency: quote.currency,
          travelerPremiumsCents: [...e.travelerPremiumsCents],
          confidence: e.confidence,
          isRecommended: e.isRecommended,
          rank,
          notes: e.notes,
          cfarEligible: e.cfarEligible,
        })),
      });
    });
  };
}

async function rate(n: number, task: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < n) await task();
    }),
  );
  return n / ((performance.now() - t) / 1000);
}

async function main(): Promise<void> {
  const n = Number(process.env['BENCH_QUOTES'] ?? 500);
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
  const db = await createTestDatabase();
  try {
    await syncCatalog(db.prisma, catalogSnapshot());
    const quotes = createQuoteService({ prisma: db.prisma, clock: systemClock });
    const ours = () => quotes.create(input);
    const orm = ormWrite(db.prisma);
    await rate(100, ours);
    await rate(100, orm);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      a.push(await rate(n, ours));
      b.push(await rate(n, orm));
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    console.log(
      `${db.kind}, ${rounds} alternating rounds of ${n}, medians: one statement ${median(a).toFixed(0)} quotes/s, ORM transaction ${median(b).toFixed(0)} quotes/s, ratio ${(median(a) / median(b)).toFixed(2)}`,
    );
  } finally {
    await db.close();
  }
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
