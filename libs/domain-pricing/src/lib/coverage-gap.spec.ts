import { getPlan } from './catalog/catalog';
import { CREDIT_CARD_TABLE } from './catalog/credit-cards.table';
import { analyzeCoverageGap, matchCreditCard } from './coverage-gap';
import { PricingError } from './errors';

const gapOf = (result: ReturnType<typeof analyzeCoverageGap>, coverage: string) =>
  result.gaps.find((g) => g.coverage === coverage);

describe('credit card table', () => {
  it('lists at least 10 real cards with sourced, dated figures', () => {
    expect(CREDIT_CARD_TABLE.length).toBeGreaterThanOrEqual(10);
    for (const card of CREDIT_CARD_TABLE) {
      expect(card.source.length).toBeGreaterThan(5);
      expect(card.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(card.benefits.notes.length).toBeGreaterThan(0);
    }
  });
});

describe('matchCreditCard', () => {
  it.each([
    ['Chase Sapphire Reserve', 'chase-sapphire-reserve'],
    ['CSR', 'chase-sapphire-reserve'],
    ['my sapphire reserve card', 'chase-sapphire-reserve'],
    ['Chase Sapphire Reserve® for Business', 'chase-sapphire-reserve-business'],
    ['sapphire preferred', 'chase-sapphire-preferred'],
    ['Amex Platinum', 'amex-platinum'],
    ['The Platinum Card® from American Express', 'amex-platinum'],
    ['amex business platinum', 'amex-business-platinum'],
    ['Capital One Venture X Rewards Credit Card', 'capital-one-venture-x'],
    ['venture x', 'capital-one-venture-x'],
    ['Capital One Venture', 'capital-one-venture'],
    ['Citi Premier', 'citi-strata-premier'],
    ['United Club Infinite', 'united-club-infinite'],
    ['Delta Reserve', 'delta-skymiles-reserve'],
    ['Chase Ink Business Preferred', 'chase-ink-business-preferred'],
  ])('matches %p to %p', (input, id) => {
    expect(matchCreditCard(input)?.id).toBe(id);
  });

  it('does not guess from an ambiguous or unknown name', () => {
    expect(matchCreditCard('sapphire')).toBeUndefined();
    expect(matchCreditCard('sapphire reserve or sapphire preferred')).toBeUndefined();
    expect(matchCreditCard('Discover it')).toBeUndefined();
    expect(matchCreditCard('')).toBeUndefined();
  });
});

describe('analyzeCoverageGap', () => {
  it('finds all three gaps for Chase Sapphire Reserve on an Antarctic trip and the plans that close them', () => {
    const result = analyzeCoverageGap({ destination: 'Antarctica', creditCardName: 'CSR', tripCostCents: 2_500_000 });
    expect(result.card).toMatchObject({ input: 'CSR', matched: true, name: 'Chase Sapphire Reserve', issuer: 'Chase' });
    expect(result.requirements).toEqual({
      tripCancellationUsd: 25_000,
      emergencyMedicalUsd: 100_000,
      evacuationUsd: 500_000,
    });
    expect(gapOf(result, 'trip_cancellation')).toMatchObject({
      requiredUsd: 25_000,
      cardCoversUsd: 10_000,
      gapUsd: 15_000,
    });
    expect(gapOf(result, 'emergency_medical')).toMatchObject({
      requiredUsd: 100_000,
      cardCoversUsd: 2_500,
      gapUsd: 97_500,
    });
    expect(gapOf(result, 'medical_evacuation')).toMatchObject({
      requiredUsd: 500_000,
      cardCoversUsd: 100_000,
      gapUsd: 400_000,
    });
    expect(result.fullyCovered).toBe(false);

    const evacuation = gapOf(result, 'medical_evacuation')!;
    expect(evacuation.closedBy.map((c) => c.planId)).not.toContain('polar-shield-essential');
    expect(evacuation.closedBy.every((c) => c.limitUsd >= 500_000)).toBe(true);
    // Only purchasable plans: never the inquiry charter, the staff plan or the retired plan.
    const closers = result.gaps.flatMap((g) => g.closedBy.map((c) => c.planId));
    expect(closers).not.toContain('meridian-private-charter');
    expect(closers).not.toContain('polar-shield-expedition-staff');
    expect(closers).not.toContain('austral-classic');

    const recommended = getPlan(result.recommendedPlanId!)!;
    expect(recommended.tier).toBe('standard');
    for (const gap of result.gaps) expect(gap.closedBy.map((c) => c.planId)).toContain(recommended.id);
    expect(result.summary).toMatch(/^Chase Sapphire Reserve leaves gaps for Antarctica: /);
    expect(result.summary).toMatch(new RegExp(`${recommended.name} closes all of them\\.$`));
    expect(result.knownCards).toBeUndefined();
  });

  it('reports only the gaps left by a card that meets some requirements', () => {
    const result = analyzeCoverageGap({
      destination: 'galapagos',
      creditCardName: 'Chase Sapphire Preferred',
      tripCostCents: 1_500_000,
      travelers: 2,
    });
    // $10,000 per person × 2 = $20,000, within the $20,000 per-trip cap: covers the $15,000 trip.
    expect(result.gaps.map((g) => g.coverage)).toEqual(['emergency_medical', 'medical_evacuation']);
    expect(gapOf(result, 'emergency_medical')).toMatchObject({ requiredUsd: 50_000, cardCoversUsd: 0, gapUsd: 50_000 });
  });

  it('caps a per-person card limit at its per-trip maximum', () => {
    const result = analyzeCoverageGap({
      destination: 'arctic',
      creditCardName: 'CSR',
      tripCostCents: 4_000_000,
      travelers: 4,
    });
    expect(gapOf(result, 'trip_cancellation')).toMatchObject({
      requiredUsd: 40_000,
      cardCoversUsd: 20_000,
      gapUsd: 20_000,
    });
  });

  it('counts a per-trip card limit once whatever the travelers', () => {
    const result = analyzeCoverageGap({
      destination: 'arctic',
      creditCardName: 'amex platinum',
      tripCostCents: 1_200_000,
      travelers: 3,
    });
    expect(gapOf(result, 'trip_cancellation')).toMatchObject({ cardCoversUsd: 10_000, gapUsd: 2_000 });
  });

  it('treats an unknown card as no coverage and lists the known cards, without an error', () => {
    const result = analyzeCoverageGap({ destination: 'Safari', creditCardName: 'Discover it', tripCostCents: 800_000 });
    expect(result.card).toEqual({ input: 'Discover it', matched: false });
    expect(result.gaps.map((g) => [g.coverage, g.requiredUsd, g.cardCoversUsd, g.gapUsd])).toEqual([
      ['trip_cancellation', 8_000, 0, 8_000],
      ['emergency_medical', 100_000, 0, 100_000],
      ['medical_evacuation', 250_000, 0, 250_000],
    ]);
    expect(result.knownCards).toContain('Chase Sapphire Reserve');
    expect(result.knownCards).toHaveLength(CREDIT_CARD_TABLE.length);
    expect(result.summary).toMatch(/^Without a recognized card there are gaps for African Safari/);
  });

  it('treats a missing card the same way', () => {
    const result = analyzeCoverageGap({ destination: 'svalbard', creditCardName: '  ' });
    expect(result.card).toEqual({ input: null, matched: false });
    expect(result.gaps).toHaveLength(3);
    expect(result.knownCards?.length).toBeGreaterThan(0);
  });

  it.each([
    ['under-10k', 10_000],
    ['10k-20k', 20_000],
    ['over-20k', 30_000],
  ] as const)('assumes USD %s trips cost %i for the cancellation requirement', (range, assumed) => {
    const result = analyzeCoverageGap({ destination: 'antarctica', creditCardName: 'Venture X', tripCostRange: range });
    expect(result.tripCost).toEqual({ amountUsd: null, range, assumedUsd: assumed, basis: 'range' });
    expect(gapOf(result, 'trip_cancellation')).toMatchObject({
      requiredUsd: assumed,
      cardCoversUsd: 2_000,
      gapUsd: assumed - 2_000,
    });
  });

  it('prefers the exact trip cost over the range and rounds cents up to a whole dollar', () => {
    const result = analyzeCoverageGap({
      destination: 'antarctica',
      tripCostCents: 1_234_550,
      tripCostRange: 'over-20k',
    });
    expect(result.tripCost).toEqual({ amountUsd: 12_345.5, range: 'over-20k', assumedUsd: 12_346, basis: 'exact' });
  });

  it('assumes USD 10,000 when neither cost nor range is given, and says so', () => {
    const result = analyzeCoverageGap({ destination: 'antarctica', creditCardName: 'CSR' });
    expect(result.tripCost).toEqual({ amountUsd: null, range: null, assumedUsd: 10_000, basis: 'default' });
    expect(result.summary).toMatch(/trip cost not given: USD 10,000 assumed/);
  });

  it('limits gap-closing plans to what the resident can buy when a residence is given', () => {
    const us = analyzeCoverageGap({ destination: 'antarctica', residence: 'US', state: 'NY' });
    const closers = us.gaps.flatMap((g) => g.closedBy.map((c) => c.planId));
    expect(closers).not.toContain('polar-shield-standard');
    expect(closers).not.toContain('austral-voyager-basic');
    expect(closers).toContain('meridian-expedition-standard');
  });

  it('throws for an unknown destination or an invalid range', () => {
    expect(() => analyzeCoverageGap({ destination: 'Hawaii' })).toThrow(
      expect.objectContaining({ code: 'unknown_destination' }),
    );
    expect(() => analyzeCoverageGap({ destination: 'arctic', tripCostRange: 'lots' as never })).toThrow(PricingError);
    expect(() => analyzeCoverageGap({ destination: 'arctic', tripCostCents: -5 })).toThrow(PricingError);
  });
});
