import { getPlan } from './catalog/catalog';
import type { Plan } from './catalog/plans.catalog';
import { checkEligibility, type EligibilityTrip } from './eligibility';
import { PricingError } from './errors';
import { listPlans } from './plan-queries';

const plan = (id: string): Plan => {
  const found = getPlan(id);
  if (!found) throw new Error(`test needs plan ${id}`);
  return found;
};

const okTrip: EligibilityTrip = {
  destination: 'antarctica',
  residence: 'US',
  state: 'CA',
  travelerAges: [45, 50],
  durationDays: 14,
  travelers: 2,
};

describe('checkEligibility', () => {
  it('accepts a trip that meets every rule', () => {
    expect(checkEligibility(plan('polar-shield-standard'), okTrip)).toEqual({ eligible: true });
  });

  it('refuses a US resident without a state, for every plan', () => {
    const result = checkEligibility(plan('meridian-expedition-premium'), { ...okTrip, state: undefined });
    expect(result).toEqual({
      eligible: false,
      reasons: ['US residents must give their state of residence to check availability.'],
      reasonCodes: ['state_required'],
    });
    expect(checkEligibility(plan('polar-shield-standard'), { ...okTrip, state: '  ' }).eligible).toBe(false);
  });

  it('refuses residents of an excluded state and accepts other states', () => {
    const ny = checkEligibility(plan('polar-shield-standard'), { ...okTrip, state: 'ny' });
    expect(ny.eligible).toBe(false);
    if (!ny.eligible) {
      expect(ny.reasonCodes).toEqual(['state_excluded']);
      expect(ny.reasons[0]).toMatch(/NY/);
    }
    expect(checkEligibility(plan('polar-shield-premium'), { ...okTrip, state: 'WA' }).eligible).toBe(false);
    expect(checkEligibility(plan('polar-shield-premium'), { ...okTrip, state: 'TX' }).eligible).toBe(true);
  });

  it('flags an unknown US state code', () => {
    const result = checkEligibility(plan('polar-shield-standard'), { ...okTrip, state: 'ZZ' });
    expect(result.eligible ? [] : result.reasonCodes).toEqual(['unknown_state']);
  });

  it('applies country rules: US-only plans, US/Canada plans and exclusions', () => {
    expect(checkEligibility(plan('polar-shield-premium'), { ...okTrip, residence: 'CA', state: null }).eligible).toBe(
      false,
    );
    expect(checkEligibility(plan('polar-shield-standard'), { ...okTrip, residence: 'ca', state: null }).eligible).toBe(
      true,
    );
    expect(checkEligibility(plan('polar-shield-standard'), { ...okTrip, residence: 'GB' }).eligible).toBe(false);
    expect(checkEligibility(plan('austral-voyager-basic'), { ...okTrip, residence: 'GB' }).eligible).toBe(true);
    const us = checkEligibility(plan('austral-voyager-basic'), okTrip);
    expect(us.eligible ? [] : us.reasonCodes).toEqual(['residence_not_allowed']);
    expect(checkEligibility(plan('meridian-expedition-premium'), { ...okTrip, residence: 'IR' }).eligible).toBe(false);
  });

  it('does not ask non-US residents for a state', () => {
    expect(
      checkEligibility(plan('meridian-expedition-premium'), { ...okTrip, residence: 'DE', state: undefined }).eligible,
    ).toBe(true);
  });

  it('refuses when any traveler is over the maximum age, naming the traveler', () => {
    const result = checkEligibility(plan('polar-shield-essential'), { ...okTrip, travelerAges: [45, 75] });
    expect(result).toEqual({
      eligible: false,
      reasons: ['Traveler 2 is 75; Polar Shield Essential covers ages 0–74.'],
      reasonCodes: ['age_above_maximum'],
    });
    expect(checkEligibility(plan('polar-shield-essential'), { ...okTrip, travelerAges: [74, 74] }).eligible).toBe(true);
  });

  it('refuses travelers under the minimum age and ignores ages not given', () => {
    const staffPlan = plan('polar-shield-expedition-staff');
    const result = checkEligibility(staffPlan, { ...okTrip, residence: 'DE', travelerAges: [16, null] });
    expect(result.eligible ? [] : result.reasonCodes).toEqual(['plan_admin_only', 'age_below_minimum']);
    expect(checkEligibility(plan('polar-shield-essential'), { ...okTrip, travelerAges: [0, null] }).eligible).toBe(
      true,
    );
  });

  it('refuses a trip longer than the plan maximum', () => {
    const result = checkEligibility(plan('polar-shield-essential'), { ...okTrip, durationDays: 31 });
    expect(result.eligible ? [] : result.reasonCodes).toEqual(['trip_too_long']);
    expect(checkEligibility(plan('polar-shield-essential'), { ...okTrip, durationDays: 30 }).eligible).toBe(true);
  });

  it('refuses more travelers than the plan allows; unlimited plans accept any count', () => {
    const tooMany = checkEligibility(plan('polar-shield-essential'), {
      ...okTrip,
      travelers: 11,
      travelerAges: undefined,
    });
    expect(tooMany.eligible ? [] : tooMany.reasonCodes).toEqual(['too_many_travelers']);
    expect(
      checkEligibility(plan('meridian-expedition-premium'), { ...okTrip, travelers: 60, travelerAges: undefined })
        .eligible,
    ).toBe(true);
  });

  it('refuses a destination the plan does not cover, and an unknown destination', () => {
    const safari = checkEligibility(plan('polar-shield-standard'), { ...okTrip, destination: 'Safari' });
    expect(safari.eligible ? [] : safari.reasons).toEqual(['Polar Shield Standard does not cover African Safari.']);
    const unknown = checkEligibility(plan('polar-shield-standard'), { ...okTrip, destination: 'Mars' });
    expect(unknown.eligible ? [] : unknown.reasonCodes).toEqual(['unknown_destination']);
  });

  it('refuses admin-only and disabled plans, collecting every reason', () => {
    const admin = checkEligibility(plan('polar-shield-expedition-staff'), { ...okTrip, residence: 'DE' });
    expect(admin.eligible ? [] : admin.reasonCodes).toEqual(['plan_admin_only']);
    const retired = checkEligibility(plan('austral-classic'), { ...okTrip, travelerAges: [45, 80], durationDays: 40 });
    expect(retired.eligible ? [] : retired.reasonCodes).toEqual([
      'plan_disabled',
      'age_above_maximum',
      'trip_too_long',
    ]);
  });
});

describe('listPlans', () => {
  const ids = (plans: readonly Plan[]) => plans.map((p) => p.id);

  it('excludes admin-only and disabled plans by default', () => {
    const listed = ids(listPlans());
    expect(listed).not.toContain('polar-shield-expedition-staff');
    expect(listed).not.toContain('austral-classic');
    expect(listed).toContain('meridian-private-charter');
  });

  it('includes admin-only and disabled plans with includeDisabled', () => {
    const listed = ids(listPlans({ includeDisabled: true }));
    expect(listed).toContain('polar-shield-expedition-staff');
    expect(listed).toContain('austral-classic');
  });

  it('filters by destination (slug or name) and tier', () => {
    expect(ids(listPlans({ destination: 'Safari', tier: 'premium' }))).toEqual([
      'meridian-expedition-premium',
      'savanna-ultimate',
    ]);
    expect(listPlans({ destination: 'svalbard' }).every((p) => p.destinations.includes('svalbard'))).toBe(true);
  });

  it('filters by residence and state with the eligibility rules', () => {
    const ny = ids(listPlans({ destination: 'antarctica', residence: 'us', state: 'NY' }));
    expect(ny).not.toContain('polar-shield-standard');
    expect(ny).not.toContain('polar-shield-premium');
    expect(ny).toContain('meridian-expedition-standard');
    const wa = ids(listPlans({ destination: 'antarctica', residence: 'US', state: 'WA' }));
    expect(wa).not.toContain('meridian-expedition-standard');
    expect(wa).toContain('polar-shield-standard');
    expect(listPlans({ residence: 'US' })).toEqual([]);
    const gb = ids(listPlans({ destination: 'antarctica', residence: 'GB' }));
    expect(gb).toContain('austral-voyager-basic');
    expect(gb).not.toContain('polar-shield-standard');
  });

  it('throws unknown_destination for a destination it does not know', () => {
    expect(() => listPlans({ destination: 'Hawaii' })).toThrow(
      expect.objectContaining({ code: 'unknown_destination' }),
    );
    expect(() => listPlans({ destination: 'Hawaii' })).toThrow(PricingError);
  });
});
