import fc from 'fast-check';
import { computeCommissionCents } from './commission';

describe('computeCommissionCents', () => {
  it('rounds a fraction of a cent down (operator disfavour)', () => {
    // 12 345 × 12.5 % = 1 543.125 cents
    expect(computeCommissionCents(12_345, 1_250)).toBe(1_543);
    // 999 × 10 % = 99.9 cents
    expect(computeCommissionCents(999, 1_000)).toBe(99);
  });

  it('is exact when there is no fraction', () => {
    expect(computeCommissionCents(20_000, 1_000)).toBe(2_000);
    expect(computeCommissionCents(20_000, 0)).toBe(0);
    expect(computeCommissionCents(20_000, 10_000)).toBe(20_000);
  });

  it('never exceeds the exact share and loses less than one cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000_000 }), fc.integer({ min: 0, max: 10_000 }), (premium, bps) => {
        const commission = computeCommissionCents(premium, bps);
        const exactTimes10000 = BigInt(premium) * BigInt(bps);
        expect(Number.isSafeInteger(commission)).toBe(true);
        expect(BigInt(commission) * 10_000n <= exactTimes10000).toBe(true);
        expect(exactTimes10000 - BigInt(commission) * 10_000n < 10_000n).toBe(true);
      }),
    );
  });

  it('rejects rates outside 0..10000 bps and non-integer money', () => {
    expect(() => computeCommissionCents(100, 10_001)).toThrow(RangeError);
    expect(() => computeCommissionCents(100, -1)).toThrow(RangeError);
    expect(() => computeCommissionCents(10.5, 100)).toThrow(RangeError);
  });
});
