import { QUOTE_LIMITS } from '@expedition/contracts/rules';
import { PricingError } from './errors';
import { findDestination, getPlan } from './catalog/catalog';
import { priceQuote, recommendPlanId, type QuoteInput } from './quote';

const base: QuoteInput = {
  destination: 'Antarctica',
  startDate: '2027-01-10',
  durationDays: 14,
  tripCostCents: 2_400_000,
  travelers: 2,
  travelerAges: [45, 50],
  residence: 'US',
  state: 'CA',
  today: '2026-11-20',
};

const estimateOf = (input: QuoteInput, planId: string) => {
  const found = priceQuote(input).estimates.find((e) => e.planId === planId);
  if (!found) throw new Error(`${planId} was not priced`);
  return found;
};

describe('priceQuote: defaults and assumptions', () => {
  it.each([
    ['Antarctica', 14],
    ['Arctic', 10],
    ['Svalbard', 8],
    ['Galápagos', 10],
    ['African Safari', 12],
  ])('uses %s default of %i days when no duration is given, and flags it', (destination, days) => {
    const result = priceQuote({ ...base, destination, durationDays: undefined });
    expect(result.durationDays).toBe(days);
    expect(result.durationDefaulted).toBe(true);
    expect(result.assumptions[0]).toMatch(new RegExp(`${days} days`));
  });

  it('treats a duration of 0 or null as not given', () => {
    expect(priceQuote({ ...base, durationDays: 0 }).durationDefaulted).toBe(true);
    expect(priceQuote({ ...base, durationDays: null }).durationDefaulted).toBe(true);
    expect(priceQuote({ ...base, durationDays: 9 })).toMatchObject({ durationDays: 9, durationDefaulted: false });
  });

  it('assumes age 45 for missing or zero ages and flags which travelers', () => {
    const result = priceQuote({ ...base, travelers: 3, travelerAges: [70, 0, null] });
    expect(result.travelerAges).toEqual([70, 45, 45]);
    expect(result.assumedAgeIndexes).toEqual([1, 2]);
    expect(result.agesAssumed).toBe(true);
    expect(priceQuote({ ...base, travelerAges: undefined }).travelerAges).toEqual([45, 45]);
  });

  it('splits the trip cost across travelers to the cent', () => {
    expect(priceQuote({ ...base, travelers: 3, travelerAges: null, tripCostCents: 100 }).tripCostSharesCents).toEqual([
      34, 33, 33,
    ]);
  });
});

describe('priceQuote: premiums', () => {
  it('prices per traveler and sums exactly to the total', () => {
    for (const e of priceQuote(base).estimates) {
      expect(e.travelerPremiumsCents).toHaveLength(2);
      expect(e.travelerPremiumsCents.reduce((a, b) => a + b, 0)).toBe(e.premiumCents);
      expect(Number.isSafeInteger(e.premiumCents)).toBe(true);
      expect(e.premiumPerTravelerCents).toBe(Math.round(e.premiumCents / 2));
    }
  });

  it('matches the documented formula for one traveler', () => {
    // Polar Shield Standard: $12,000 × 5.5 % × 1.00 × 1.35 (Antarctica) × 1.00 (14 days) × 1.30 (age 50)
    // = $1,158.30, + $95 evacuation loading = $1,253.30
    const e = estimateOf(
      { ...base, travelers: 1, travelerAges: [50], tripCostCents: 1_200_000 },
      'polar-shield-standard',
    );
    expect(e.premiumCents).toBe(125_330);
  });

  it('charges a traveler aged 70 significantly more than one aged 69 on the same trip', () => {
    const at = (age: number) =>
      estimateOf({ ...base, travelers: 1, travelerAges: [age], tripCostCents: 1_500_000 }, 'polar-shield-standard')
        .premiumCents;
    expect(at(70) / at(69)).toBeGreaterThan(1.2);
    expect(at(75)).toBeGreaterThan(at(74));
    expect(at(80)).toBeGreaterThan(at(79));
    expect(at(80) / at(45)).toBeGreaterThan(3);
  });

  it('applies the per-traveler minimum premium on a cheap trip', () => {
    const e = estimateOf({ ...base, destination: 'galapagos', tripCostCents: 0 }, 'savanna-explorer');
    expect(e.travelerPremiumsCents).toEqual([8_900, 8_900]);
  });

  it('charges only the insured part of a cost above the plan cancellation limit, and says so', () => {
    const capped = estimateOf(
      { ...base, travelers: 1, travelerAges: [45], tripCostCents: 2_000_000 },
      'polar-shield-essential',
    );
    const higher = estimateOf(
      { ...base, travelers: 1, travelerAges: [45], tripCostCents: 4_000_000 },
      'polar-shield-essential',
    );
    expect(higher.premiumCents).toBe(capped.premiumCents);
    expect(capped.notes).toMatch(/insured up to \$15,000 per traveler/);
  });
});

describe('priceQuote: eligibility in quotes', () => {
  it('lists ineligible public plans with reasons and never prices them', () => {
    const result = priceQuote({ ...base, travelerAges: [45, 76] });
    const ineligibleIds = result.ineligible.map((i) => i.planId);
    expect(ineligibleIds).toEqual(expect.arrayContaining(['polar-shield-essential', 'austral-voyager-basic']));
    expect(result.estimates.map((e) => e.planId)).not.toEqual(expect.arrayContaining(ineligibleIds));
    const essential = result.ineligible.find((i) => i.planId === 'polar-shield-essential');
    expect(essential?.reasons).toEqual(['Traveler 2 is 76; Polar Shield Essential covers ages 0–74.']);
  });

  it('never prices or lists admin-only and retired plans', () => {
    const result = priceQuote({ ...base, residence: 'DE', state: null });
    const all = [...result.estimates.map((e) => e.planId), ...result.ineligible.map((i) => i.planId)];
    expect(all).not.toContain('polar-shield-expedition-staff');
    expect(all).not.toContain('austral-classic');
  });

  it('finds no plan and no recommendation for a US resident without a state', () => {
    const result = priceQuote({ ...base, state: undefined });
    expect(result.estimates).toEqual([]);
    expect(result.recommendedPlanId).toBeNull();
    const stateRequired = result.ineligible.filter((i) => i.reasonCodes.includes('state_required'));
    // Plans closed to US residents altogether say so instead.
    expect(result.ineligible.filter((i) => !stateRequired.includes(i)).map((i) => i.reasonCodes)).toEqual([
      ['residence_not_allowed'],
    ]);
    expect(stateRequired.length).toBeGreaterThan(4);
  });
});

describe('priceQuote: recommendation and order', () => {
  it('recommends the cheapest plan meeting the destination requirements and lists it first', () => {
    const result = priceQuote(base);
    const [first, ...rest] = result.estimates;
    expect(first?.planId).toBe(result.recommendedPlanId);
    expect(first?.isRecommended).toBe(true);
    expect(rest.every((e) => !e.isRecommended)).toBe(true);
    const meeting = result.estimates.filter(
      (e) =>
        e.plan.availabilityMode !== 'inquiry' &&
        e.plan.evacuationCoverage >= 500_000 &&
        e.plan.medicalExpenseLimit >= 100_000,
    );
    expect(first?.premiumCents).toBe(Math.min(...meeting.map((e) => e.premiumCents)));
    // The basic polar plan is cheaper but its USD 250,000 evacuation misses the Antarctic minimum.
    const essential = result.estimates.find((e) => e.planId === 'polar-shield-essential');
    expect(essential!.premiumCents).toBeLessThan(first!.premiumCents);
  });

  it('orders the other estimates by premium ascending', () => {
    const rest = priceQuote(base)
      .estimates.slice(1)
      .map((e) => e.premiumCents);
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
  });

  it('falls back to the highest evacuation limit when no eligible plan meets the requirements', () => {
    const antarctica = findDestination('antarctica')!;
    const estimate = (planId: string, premiumCents: number) => ({ planId, plan: getPlan(planId)!, premiumCents });
    // Neither meets Antarctica's USD 500,000 evacuation minimum: the higher evacuation limit wins over price.
    const pick = recommendPlanId(
      [estimate('austral-voyager-basic', 10_000), estimate('polar-shield-essential', 90_000)],
      antarctica,
    );
    expect(pick).toBe('polar-shield-essential');
    expect(recommendPlanId([], antarctica)).toBeNull();
  });

  it('breaks a premium tie between plans meeting the requirements by the higher evacuation limit', () => {
    const antarctica = findDestination('antarctica')!;
    const estimate = (planId: string) => ({ planId, plan: getPlan(planId)!, premiumCents: 100_000 });
    expect(recommendPlanId([estimate('polar-shield-standard'), estimate('polar-shield-premium')], antarctica)).toBe(
      'polar-shield-premium',
    );
  });

  it('never recommends an inquiry plan, even when it is the only one left', () => {
    const result = priceQuote({
      ...base,
      destination: 'arctic',
      durationDays: 100,
      travelerAges: [45, 45],
      residence: 'DE',
      state: null,
    });
    expect(result.estimates.map((e) => e.planId)).toEqual(['meridian-private-charter']);
    expect(result.recommendedPlanId).toBeNull();
    expect(result.estimates[0]?.isRecommended).toBe(false);
  });
});

describe('priceQuote: confidence', () => {
  const polarStandard = (input: QuoteInput) => estimateOf(input, 'polar-shield-standard').confidence;

  it('is high when duration and every age were given', () => {
    expect(polarStandard(base)).toBe('high');
  });

  it('drops one step for a defaulted duration or a missing age, two for both', () => {
    expect(polarStandard({ ...base, durationDays: undefined })).toBe('medium');
    expect(polarStandard({ ...base, travelerAges: [45, 0] })).toBe('medium');
    expect(polarStandard({ ...base, durationDays: undefined, travelerAges: undefined })).toBe('low');
  });

  it('is always low for inquiry plans, which note that an underwriter confirms the price', () => {
    const charter = estimateOf({ ...base, residence: 'DE', state: null }, 'meridian-private-charter');
    expect(charter.confidence).toBe('low');
    expect(charter.notes).toMatch(/underwriter confirms the final premium/);
  });
});

describe('priceQuote: cancel-for-any-reason', () => {
  const cfar = (depositPaidDate: string | undefined, today = '2026-11-20') =>
    estimateOf({ ...base, depositPaidDate, today, startDate: '2027-02-01' }, 'polar-shield-standard');

  it('is available inside the 21-day window and says the buy-by date', () => {
    const e = cfar('2026-11-14', '2026-11-20');
    expect(e.cfarEligible).toBe(true);
    expect(e.notes).toBe(
      'Cancel-for-any-reason available: buy by 2026-12-05 (21 days after your deposit on 2026-11-14).',
    );
  });

  it('is available on day 21 itself and on the deposit day', () => {
    expect(cfar('2026-11-14', '2026-12-05').cfarEligible).toBe(true);
    expect(cfar('2026-11-14', '2026-11-14').cfarEligible).toBe(true);
  });

  it('is not available on day 22, and says when the window closed', () => {
    const e = cfar('2026-11-14', '2026-12-06');
    expect(e.cfarEligible).toBe(false);
    expect(e.notes).toBe(
      'Cancel-for-any-reason not available: the 21-day window after your deposit on 2026-11-14 closed on 2026-12-05.',
    );
  });

  it('is not promised without a deposit date, and asks for it', () => {
    const e = cfar(undefined);
    expect(e.cfarEligible).toBe(false);
    expect(e.notes).toBe(
      'Cancel-for-any-reason requires purchase within 21 days of your first trip deposit; tell us your deposit date to confirm.',
    );
  });

  it('is never offered by plans without CFAR, whose notes stay silent about it', () => {
    const e = estimateOf({ ...base, depositPaidDate: '2026-11-14' }, 'meridian-expedition-standard');
    expect(e.cfarEligible).toBe(false);
    expect(e.notes).toBeNull();
  });

  it('crosses month and year ends correctly', () => {
    expect(cfar('2026-12-20', '2027-01-10').cfarEligible).toBe(true);
    expect(cfar('2026-12-20', '2027-01-11').cfarEligible).toBe(false);
  });
});

describe('priceQuote: input that cannot be priced', () => {
  const rejects = (input: QuoteInput, code: string, field?: string) => {
    let caught: unknown;
    try {
      priceQuote(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PricingError);
    expect(caught).toMatchObject({ code, ...(field ? { field } : {}) });
  };

  it('rejects an unknown destination', () =>
    rejects({ ...base, destination: 'Hawaii' }, 'unknown_destination', 'destination'));
  it('rejects fewer than one traveler', () =>
    rejects({ ...base, travelers: 0, travelerAges: [] }, 'invalid_input', 'travelers'));
  it('rejects a fractional traveler count', () =>
    rejects({ ...base, travelers: 1.5, travelerAges: null }, 'invalid_input', 'travelers'));
  it('prices as many travelers as the APIs accept (QUOTE_LIMITS.maxTravelers, 20) and refuses one more', () => {
    expect(priceQuote({ ...base, travelers: QUOTE_LIMITS.maxTravelers, travelerAges: null }).travelers).toBe(20);
    rejects({ ...base, travelers: 21, travelerAges: null }, 'invalid_input', 'travelers');
    expect(() => priceQuote({ ...base, travelers: 21, travelerAges: null })).toThrow(
      'travelers must be a whole number from 1 to 20',
    );
  });
  it('refuses an age over QUOTE_LIMITS.maxTravelerAge and a trip cost over QUOTE_LIMITS.maxTripCost', () => {
    rejects({ ...base, travelerAges: [45, 121] }, 'invalid_input', 'travelerAges');
    expect(priceQuote({ ...base, tripCostCents: 1_000_000_000 }).estimates.length).toBeGreaterThan(0);
    rejects({ ...base, tripCostCents: 1_000_000_001 }, 'invalid_input', 'tripCostCents');
  });
  it('rejects a negative trip cost', () => rejects({ ...base, tripCostCents: -1 }, 'invalid_input', 'tripCostCents'));
  it('rejects a fractional cent amount', () =>
    rejects({ ...base, tripCostCents: 10.5 }, 'invalid_input', 'tripCostCents'));
  it('rejects an ages list of the wrong length', () =>
    rejects({ ...base, travelerAges: [45] }, 'invalid_input', 'travelerAges'));
  it('rejects a negative age', () => rejects({ ...base, travelerAges: [45, -3] }, 'invalid_input', 'travelerAges'));
  it('rejects a malformed residence', () => rejects({ ...base, residence: 'USA' }, 'invalid_input', 'residence'));
  it('rejects an invalid US state', () => rejects({ ...base, state: 'XX' }, 'invalid_input', 'state'));
  it('rejects a malformed or impossible date', () => {
    rejects({ ...base, today: '20-11-2026' }, 'invalid_input', 'today');
    rejects({ ...base, startDate: '2027-02-30' }, 'invalid_input', 'startDate');
    rejects({ ...base, depositPaidDate: 'yesterday' }, 'invalid_input', 'depositPaidDate');
  });
  it('rejects a departure in the past', () =>
    rejects({ ...base, startDate: '2026-11-19' }, 'invalid_input', 'startDate'));
  it('rejects a trip longer than a year', () =>
    rejects({ ...base, durationDays: 366 }, 'invalid_input', 'durationDays'));
  it('rejects a non-USD currency', () => rejects({ ...base, currency: 'EUR' }, 'invalid_input', 'currency'));

  it('accepts lower-case codes and USD in any case', () => {
    const result = priceQuote({ ...base, residence: 'us', state: 'ca', currency: 'usd' });
    expect(result).toMatchObject({ residence: 'US', state: 'CA', currency: 'USD' });
  });
});
