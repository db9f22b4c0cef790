import { listPlans, getPlan, isPurchasable } from '@expedition/domain-pricing';
import { instantQuoteEligibility } from './instant-eligibility';
import { optionRowsFromEstimates, toEmbedOptionsReady } from './option-rows';

const purchasable = listPlans({ includeDisabled: true }).find((p) => isPurchasable(p))!;
const inquiry = listPlans({ includeDisabled: true }).find((p) => p.availabilityMode === 'inquiry');

describe('instantQuoteEligibility', () => {
  it('is eligible with a start date and a purchasable plan priced on complete data (confidence high)', () => {
    expect(
      instantQuoteEligibility({ startDate: new Date(), estimates: [{ planId: purchasable.id, confidence: 'high' }] }),
    ).toEqual({
      eligible: true,
      reasons: [],
    });
  });

  it('names every reason it is not', () => {
    expect(instantQuoteEligibility({ startDate: null, estimates: [] }).reasons).toEqual([
      'no_start_date',
      'no_purchasable_plan',
    ]);
    expect(
      instantQuoteEligibility({
        startDate: '2027-01-10',
        estimates: [{ planId: purchasable.id, confidence: 'medium' }],
      }).reasons,
    ).toEqual(['traveler_data_incomplete']);
  });

  it('never counts an inquiry plan (an underwriter sets its price)', () => {
    if (!inquiry) return;
    expect(
      instantQuoteEligibility({ startDate: '2027-01-10', estimates: [{ planId: inquiry.id, confidence: 'high' }] })
        .eligible,
    ).toBe(false);
  });
});

describe('option rows and the ready payload', () => {
  const estimates = [
    { planId: purchasable.id, premiumCents: 81_234, currency: 'USD', rank: 0, isRecommended: true },
    ...(inquiry ? [{ planId: inquiry.id, premiumCents: 99_000, currency: 'USD', rank: 1, isRecommended: false }] : []),
    { planId: 'no-such-plan', premiumCents: 1, currency: 'USD', rank: 2, isRecommended: false },
  ];

  it('freezes one row per known plan with its premium and coverage figures', () => {
    const rows = optionRowsFromEstimates('q1', estimates);
    expect(rows.map((r) => r.planId)).toEqual(estimates.slice(0, -1).map((e) => e.planId));
    expect(rows[0]).toEqual({
      quoteId: 'q1',
      planId: purchasable.id,
      premiumCents: 81_234,
      currency: 'USD',
      rank: 0,
      isRecommended: true,
      coverage: {
        medicalExpenseLimit: purchasable.medicalExpenseLimit,
        evacuationCoverage: purchasable.evacuationCoverage,
        tripCancellationLimit: purchasable.tripCancellationLimit,
        deductible: purchasable.deductible,
      },
    });
  });

  it('maps rows to EmbedOptionsReady: purchasable plans charge the premium, inquiry plans charge nothing', () => {
    const createdAt = new Date('2026-11-21T10:00:01Z');
    const rows = optionRowsFromEstimates('q1', estimates).map((r) => ({ ...r, createdAt }));
    const ready = toEmbedOptionsReady(
      { id: 'q1', quoteNumber: 'EXP-ABCD', currency: 'USD', recommendedPlanId: purchasable.id },
      rows,
    );
    expect(ready).toMatchObject({ quoteId: 'q1', quoteNumber: 'EXP-ABCD', generatedAt: '2026-11-21T10:00:01.000Z' });
    expect(ready).not.toHaveProperty('pending');
    expect(ready.options[0]!.checkout).toEqual({ purchasable: true, amountCents: 81_234, currency: 'USD' });
    if (inquiry) expect(ready.options[1]!.checkout).toEqual({ purchasable: false, amountCents: 0, currency: 'USD' });
    expect(ready.options[0]!.name).toBe(getPlan(purchasable.id)!.name);
  });

  it('falls back to the catalog coverage when the stored JSON is unreadable', () => {
    const ready = toEmbedOptionsReady({ id: 'q', quoteNumber: 'EXP-2222', currency: 'USD', recommendedPlanId: null }, [
      {
        planId: purchasable.id,
        premiumCents: 5,
        currency: 'USD',
        isRecommended: false,
        coverage: 'garbage',
        createdAt: new Date(0),
      },
    ]);
    expect(ready.options[0]!.coverage.medicalExpenseLimit).toBe(purchasable.medicalExpenseLimit);
  });
});
