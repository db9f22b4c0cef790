import {
  AGE_BANDS,
  DURATION_BANDS,
  EVACUATION_LOADING_CENTS,
  MIN_PREMIUM_CENTS_PER_TRAVELER,
  TIER_BASE_RATES,
} from './rates.table';
import { allPlans, findDestination, getPlan, listDestinations } from './catalog';
import { DESTINATION_TABLE } from './destinations.catalog';
import { PLAN_HIGHLIGHTS } from './highlights.table';

const hasAtMostFourDecimals = (value: number) => Math.abs(value * 10_000 - Math.round(value * 10_000)) < 1e-6;

describe('destinations', () => {
  it('lists exactly the five expedition destinations with their documented defaults', () => {
    const bySlug = Object.fromEntries(listDestinations().map((d) => [d.slug, d.defaultDurationDays]));
    expect(bySlug).toEqual({ antarctica: 14, arctic: 10, svalbard: 8, galapagos: 10, 'african-safari': 12 });
  });

  it('gives every destination a sentence of description, a region and requirements', () => {
    for (const d of listDestinations()) {
      expect(d.description).toMatch(/^[A-Z].{30,}\.$/);
      expect(d.region).toEqual(expect.any(String));
      expect(d.requirements.medicalEvacuationUsd).toBeGreaterThan(0);
      expect(d.requirements.emergencyMedicalUsd).toBeGreaterThan(0);
    }
    expect(findDestination('antarctica')?.requirements).toEqual({
      medicalEvacuationUsd: 500_000,
      emergencyMedicalUsd: 100_000,
    });
  });

  it.each([
    ['antarctica', 'antarctica'],
    ['Antarctica', 'antarctica'],
    ['  ARCTIC ', 'arctic'],
    ['Galápagos', 'galapagos'],
    ['galapagos', 'galapagos'],
    ['Galápagos Islands', 'galapagos'],
    ['GALAPAGOS islands', 'galapagos'],
    ['African Safari', 'african-safari'],
    ['african-safari', 'african-safari'],
    ['Safari', 'african-safari'],
    ['Africa safari', 'african-safari'],
    ['Spitsbergen', 'svalbard'],
    ['Svalbard', 'svalbard'],
  ])('finds %p as %p', (input, slug) => {
    expect(findDestination(input)?.slug).toBe(slug);
  });

  it('returns undefined for an unknown or blank destination', () => {
    expect(findDestination('Hawaii')).toBeUndefined();
    expect(findDestination('  ')).toBeUndefined();
  });

  it('keeps every rate a documented decimal with at most four places', () => {
    const factors = [
      ...DESTINATION_TABLE.map((d) => d.riskFactor),
      ...Object.values(TIER_BASE_RATES),
      ...AGE_BANDS.map((b) => b.factor),
      ...DURATION_BANDS.map((b) => b.factor),
      ...allPlans().map((p) => p.rateAdjustment),
    ];
    expect(factors.every(hasAtMostFourDecimals)).toBe(true);
    expect(Object.values(EVACUATION_LOADING_CENTS).every(Number.isSafeInteger)).toBe(true);
    expect(Object.values(MIN_PREMIUM_CENTS_PER_TRAVELER).every(Number.isSafeInteger)).toBe(true);
  });

  it('has contiguous, non-decreasing age and duration bands; 70+ far above 60-69', () => {
    AGE_BANDS.forEach((band, i) => {
      const next = AGE_BANDS[i + 1];
      if (next) {
        expect(next.minAge).toBe(band.maxAge + 1);
        expect(next.factor).toBeGreaterThanOrEqual(band.factor);
      }
    });
    DURATION_BANDS.forEach((band, i) => {
      const next = DURATION_BANDS[i + 1];
      if (next) {
        expect(next.minDays).toBe(band.maxDays + 1);
        expect(next.factor).toBeGreaterThanOrEqual(band.factor);
      }
    });
    const sixties = AGE_BANDS.find((b) => b.minAge === 60)!.factor;
    const seventies = AGE_BANDS.find((b) => b.minAge === 70)!.factor;
    expect(seventies / sixties).toBeGreaterThan(1.2);
  });
});

describe('plans', () => {
  const plans = allPlans();

  it('holds 10 to 14 plans with unique slug ids', () => {
    expect(plans.length).toBeGreaterThanOrEqual(10);
    expect(plans.length).toBeLessThanOrEqual(14);
    expect(new Set(plans.map((p) => p.id)).size).toBe(plans.length);
    for (const p of plans) expect(p.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('covers the availability modes, a retired plan and the residence rules the spec needs', () => {
    const modes = new Set(plans.map((p) => p.availabilityMode));
    expect([...modes].sort()).toEqual(['admin_only', 'deposit', 'full', 'inquiry']);
    expect(plans.some((p) => !p.enabled)).toBe(true);
    expect(plans.some((p) => p.eligibility.residenceType === 'US' && p.enabled)).toBe(true);
    expect(plans.some((p) => p.eligibility.excludedStates.includes('NY'))).toBe(true);
    expect(plans.some((p) => p.eligibility.excludedStates.includes('WA'))).toBe(true);
    expect(plans.some((p) => p.eligibility.excludedResidences.length > 0)).toBe(true);
  });

  it('offers at least two public plans per destination across tiers', () => {
    for (const d of listDestinations()) {
      const publicPlans = plans.filter(
        (p) => p.enabled && p.availabilityMode !== 'admin_only' && p.destinations.includes(d.slug),
      );
      expect(publicPlans.length).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(plans.map((p) => p.tier))).toEqual(new Set(['basic', 'standard', 'premium']));
  });

  it('fills every summary and detail field meaningfully', () => {
    for (const p of plans) {
      expect(p.name.length).toBeGreaterThan(3);
      expect(p.brand.length).toBeGreaterThan(1);
      expect(p.carrier).toMatch(/illustrative/);
      expect(p.description.length).toBeGreaterThan(40);
      expect(p.features.length).toBeGreaterThan(1);
      expect(p.highlights.length).toBeGreaterThan(0);
      expect(p.countriesCovered.length).toBeGreaterThan(0);
      expect(p.basePrice).toBeGreaterThan(0);
      expect(p.coverage).toEqual({
        medicalExpenseLimit: p.medicalExpenseLimit,
        evacuationCoverage: p.evacuationCoverage,
        tripCancellation: p.tripCancellationLimit,
        deductible: p.deductible,
        cancelReason: expect.any(String),
      });
      expect(p.eligibility.minAge).toBeLessThan(p.eligibility.maxAge);
    }
  });

  it('derives allowed residences from the residence type', () => {
    expect(getPlan('polar-shield-premium')?.eligibility.allowedResidences).toEqual(['US']);
    expect(getPlan('polar-shield-standard')?.eligibility.allowedResidences).toEqual(['US', 'CA']);
    expect(getPlan('meridian-expedition-premium')?.eligibility.allowedResidences).toBeNull();
    expect(getPlan('austral-voyager-basic')?.eligibility.excludedResidences).toContain('US');
  });

  it("names each plan's highlights by key, in English, and uses every highlight of the table", () => {
    for (const p of plans) {
      expect(p.highlights).toEqual(p.highlightKeys.map((key) => PLAN_HIGHLIGHTS[key]));
      expect(new Set(p.highlightKeys).size).toBe(p.highlightKeys.length);
    }
    expect([...new Set(plans.flatMap((p) => p.highlightKeys))].sort()).toEqual(Object.keys(PLAN_HIGHLIGHTS).sort());
    expect(getPlan('polar-shield-premium')?.highlights).toEqual([
      'Highest polar limits',
      'No deductible',
      'US residents only',
    ]);
  });

  it('returns admin-only and disabled plans by id and frozen catalog objects', () => {
    expect(getPlan('polar-shield-expedition-staff')?.availabilityMode).toBe('admin_only');
    expect(getPlan('austral-classic')?.enabled).toBe(false);
    expect(getPlan('no-such-plan')).toBeUndefined();
    expect(Object.isFrozen(getPlan('polar-shield-standard'))).toBe(true);
  });
});
