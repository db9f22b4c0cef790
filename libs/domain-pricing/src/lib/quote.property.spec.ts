import fc from 'fast-check';
import { allPlans, isPubliclyListed } from './catalog/catalog';
import { DESTINATION_SLUGS } from './catalog/destinations.catalog';
import { checkEligibility } from './eligibility';
import { priceQuote, travelerPremiumsFor, type QuoteInput } from './quote';
import { getDestination } from './catalog/catalog';
import { US_STATE_CODES } from './residence';

const TODAY = '2026-11-20';

const ageArb = fc.oneof(fc.integer({ min: 1, max: 110 }), fc.constant(null), fc.constant(0));

const quoteInputArb: fc.Arbitrary<QuoteInput> = fc
  .record({
    destination: fc.constantFrom(...DESTINATION_SLUGS, 'Galápagos', 'Safari', 'Antarctica'),
    durationDays: fc.oneof(fc.integer({ min: 1, max: 365 }), fc.constant(null), fc.constant(0)),
    tripCostCents: fc.integer({ min: 0, max: 1_000_000_000 }),
    travelers: fc.integer({ min: 1, max: 14 }),
    residence: fc.constantFrom('US', 'us', 'CA', 'GB', 'DE', 'AU', 'IR'),
    state: fc.option(fc.constantFrom(...US_STATE_CODES), { nil: undefined }),
    depositPaidDate: fc.option(fc.constantFrom('2026-10-01', '2026-10-30', '2026-11-20', '2026-12-01'), {
      nil: undefined,
    }),
  })
  .chain((r) =>
    fc
      .array(ageArb, { minLength: r.travelers, maxLength: r.travelers })
      .map((travelerAges) => ({ ...r, travelerAges, today: TODAY })),
  );

describe('priceQuote properties', () => {
  it('premiums are never negative and always safe integers; per-traveler amounts sum exactly to the total', () => {
    fc.assert(
      fc.property(quoteInputArb, (input) => {
        for (const e of priceQuote(input).estimates) {
          if (!Number.isSafeInteger(e.premiumCents) || e.premiumCents < 0) return false;
          if (e.travelerPremiumsCents.length !== input.travelers) return false;
          if (!e.travelerPremiumsCents.every((p) => Number.isSafeInteger(p) && p > 0)) return false;
          if (e.travelerPremiumsCents.reduce((a, b) => a + b, 0) !== e.premiumCents) return false;
          if (!Number.isSafeInteger(e.premiumPerTravelerCents)) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('prices every eligible public plan for the destination and never an ineligible one', () => {
    fc.assert(
      fc.property(quoteInputArb, (input) => {
        const result = priceQuote(input);
        const priced = new Set(result.estimates.map((e) => e.planId));
        const refused = new Set(result.ineligible.map((i) => i.planId));
        const candidates = allPlans().filter(
          (p) => isPubliclyListed(p) && p.destinations.includes(result.destination.slug),
        );
        return (
          candidates.every((plan) => {
            const eligible = checkEligibility(plan, {
              destination: result.destination.slug,
              residence: result.residence,
              state: result.state,
              travelerAges: result.travelerAges,
              durationDays: result.durationDays,
              travelers: result.travelers,
            }).eligible;
            return eligible
              ? priced.has(plan.id) && !refused.has(plan.id)
              : refused.has(plan.id) && !priced.has(plan.id);
          }) && priced.size + refused.size === candidates.length
        );
      }),
      { numRuns: 300 },
    );
  });

  it('puts the recommended estimate first and orders the rest by premium', () => {
    fc.assert(
      fc.property(quoteInputArb, (input) => {
        const { estimates, recommendedPlanId } = priceQuote(input);
        const rest = recommendedPlanId === null ? estimates : estimates.slice(1);
        if (recommendedPlanId !== null && estimates[0]?.planId !== recommendedPlanId) return false;
        if (estimates.filter((e) => e.isRecommended).length !== (recommendedPlanId === null ? 0 : 1)) return false;
        return rest.every((e, i) => i === 0 || rest[i - 1]!.premiumCents <= e.premiumCents);
      }),
      { numRuns: 200 },
    );
  });

  it('the total premium never decreases when the trip cost increases', () => {
    fc.assert(
      fc.property(quoteInputArb, fc.integer({ min: 0, max: 50_000_000 }), (input, extra) => {
        const cheaper = priceQuote(input);
        const dearer = priceQuote({ ...input, tripCostCents: Math.min(1_000_000_000, input.tripCostCents + extra) });
        return cheaper.estimates.every((e) => {
          const other = dearer.estimates.find((d) => d.planId === e.planId);
          return (
            other !== undefined &&
            other.premiumCents >= e.premiumCents &&
            other.travelerPremiumsCents.every((p, i) => p >= e.travelerPremiumsCents[i]!)
          );
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('per-plan premium properties', () => {
  const planArb = fc.constantFrom(...allPlans());
  const factsArb = fc.record({
    destination: fc.constantFrom(...DESTINATION_SLUGS),
    durationDays: fc.integer({ min: 1, max: 365 }),
    shares: fc.array(fc.integer({ min: 0, max: 100_000_000 }), { minLength: 1, maxLength: 10 }),
  });

  it("never decreases when one traveler's age increases", () => {
    fc.assert(
      fc.property(
        planArb,
        factsArb,
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 120 }),
        (plan, f, index, a, b) => {
          const i = index % f.shares.length;
          const ages = f.shares.map(() => 45);
          const younger = [...ages];
          const older = [...ages];
          younger[i] = Math.min(a, b);
          older[i] = Math.max(a, b);
          const trip = { destination: getDestination(f.destination), durationDays: f.durationDays, shares: f.shares };
          const lo = travelerPremiumsFor(plan, { ...trip, ages: younger });
          const hi = travelerPremiumsFor(plan, { ...trip, ages: older });
          return hi.every((p, j) => (j === i ? p >= lo[j]! : p === lo[j]));
        },
      ),
    );
  });

  it("never decreases when a traveler's share of the cost or the trip length increases", () => {
    fc.assert(
      fc.property(
        planArb,
        factsArb,
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        (plan, f, extraCents, extraDays) => {
          const trip = {
            destination: getDestination(f.destination),
            durationDays: f.durationDays,
            shares: f.shares,
            ages: f.shares.map(() => 60),
          };
          const baseline = travelerPremiumsFor(plan, trip);
          const dearer = travelerPremiumsFor(plan, { ...trip, shares: f.shares.map((s) => s + extraCents) });
          const longer = travelerPremiumsFor(plan, {
            ...trip,
            durationDays: Math.min(365, f.durationDays + extraDays),
          });
          return baseline.every((p, j) => dearer[j]! >= p && longer[j]! >= p && p >= 0 && Number.isSafeInteger(p));
        },
      ),
    );
  });
});
