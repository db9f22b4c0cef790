import { allocateCents, applyFactorsHalfUp, centsToDollars, dollarsToCents, toScaledFactor } from './money';
import { PricingError } from './errors';

describe('allocateCents', () => {
  it('splits evenly and gives leftover cents to the first parts', () => {
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateCents(101, [1, 1])).toEqual([51, 50]);
    expect(allocateCents(0, [1, 1, 1])).toEqual([0, 0, 0]);
  });

  it('gives leftover cents to the largest remainders first', () => {
    // exact shares 14.2857…, 28.5714…, 57.1428… → floors 14, 28, 57 (=99); the largest remainder (0.5714) gets +1
    expect(allocateCents(100, [1, 2, 4])).toEqual([14, 29, 57]);
  });

  it('handles zero weights and huge totals exactly', () => {
    expect(allocateCents(10, [0, 1])).toEqual([0, 10]);
    const total = Number.MAX_SAFE_INTEGER;
    const parts = allocateCents(total, [1, 1, 1]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('rejects negative totals, fractional weights and all-zero weights', () => {
    expect(() => allocateCents(-1, [1])).toThrow(PricingError);
    expect(() => allocateCents(1, [0.5, 1])).toThrow(PricingError);
    expect(() => allocateCents(1, [0, 0])).toThrow(PricingError);
    expect(() => allocateCents(1, [])).toThrow(PricingError);
  });
});

describe('applyFactorsHalfUp', () => {
  it('rounds half a cent up, exactly', () => {
    // 1 cent × 0.5 = 0.5 → 1; 3 × 0.5 = 1.5 → 2; 1 × 0.4999 → 0
    expect(applyFactorsHalfUp(1, [toScaledFactor(0.5)])).toBe(1);
    expect(applyFactorsHalfUp(3, [toScaledFactor(0.5)])).toBe(2);
    expect(applyFactorsHalfUp(1, [toScaledFactor(0.4999)])).toBe(0);
  });

  it('does not suffer binary floating-point error', () => {
    // 0.055 × 1.35 in floating point is 0.07425000000000001; 1000 cents × that = 74.25 → 74
    expect(applyFactorsHalfUp(1000, [toScaledFactor(0.055), toScaledFactor(1.35)])).toBe(74);
    // 2000 × 0.055 × 1.35 = 148.5 exactly → rounds up to 149
    expect(applyFactorsHalfUp(2000, [toScaledFactor(0.055), toScaledFactor(1.35)])).toBe(149);
  });
});

describe('centsToDollars', () => {
  it('gives the decimal dollars of a wire field, the inverse of dollarsToCents', () => {
    expect(centsToDollars(123_450)).toBe(1234.5);
    expect(centsToDollars(dollarsToCents(19.99))).toBe(19.99);
  });
});

describe('dollarsToCents', () => {
  it('converts decimal dollars to cents, half-up, without floating-point surprises', () => {
    expect(dollarsToCents(12_000)).toBe(1_200_000);
    expect(dollarsToCents(12.345)).toBe(1235);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(19.99)).toBe(1999);
  });

  it('rejects negative and non-finite amounts', () => {
    expect(() => dollarsToCents(-1)).toThrow(PricingError);
    expect(() => dollarsToCents(Number.NaN)).toThrow(PricingError);
    expect(() => dollarsToCents(Number.POSITIVE_INFINITY)).toThrow(PricingError);
  });
});
