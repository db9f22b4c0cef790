import { buyMode, canSelect, effectiveTier } from './tier';

describe('integration tier', () => {
  it('is min(config.tier ?? allowedTier, allowedTier)', () => {
    expect(effectiveTier(undefined, 3)).toBe(3);
    expect(effectiveTier(1, 3)).toBe(1);
    expect(effectiveTier(3, 2)).toBe(2);
    expect(effectiveTier(2, 1)).toBe(1);
    expect(effectiveTier(7, 2)).toBe(2);
    expect(effectiveTier('3', 1)).toBe(1);
  });

  it('decides what buying means: nothing at tier 1, a link at tier 2 and on the hosted page, in-frame checkout at tier 3', () => {
    expect(buyMode('frame', 1)).toBe('none');
    expect(buyMode('frame', 2)).toBe('link');
    expect(buyMode('frame', 3)).toBe('embedded');
    expect(buyMode('hosted', 1)).toBe('link');
    expect(buyMode('hosted', 3)).toBe('link');
  });

  it('offers Select apart from Buy only in an iframe: the hosted page has no page around it to tell', () => {
    expect(canSelect('frame')).toBe(true);
    expect(canSelect('hosted')).toBe(false);
  });
});
