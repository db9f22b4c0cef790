import { deceptiveTextMessage, findDeceptiveCharacter, isDisplaySafeText } from './display-text';

describe('display text (names a person reads)', () => {
  it.each([
    ['202A', 'bidi control'],
    ['202B', 'bidi control'],
    ['202C', 'bidi control'],
    ['202D', 'bidi control'],
    ['202E', 'bidi control'],
    ['2066', 'bidi control'],
    ['2067', 'bidi control'],
    ['2068', 'bidi control'],
    ['2069', 'bidi control'],
    ['200E', 'bidi control'],
    ['200F', 'bidi control'],
    ['061C', 'bidi control'],
    ['200B', 'invisible character'],
    ['200C', 'invisible character'],
    ['200D', 'invisible character'],
    ['2060', 'invisible character'],
    ['FEFF', 'invisible character'],
    ['00AD', 'invisible character'],
    ['3164', 'invisible character'],
    ['E0041', 'invisible character'],
    ['0000', 'control character'],
    ['0007', 'control character'],
    ['000A', 'control character'],
    ['0085', 'control character'],
    ['2028', 'control character'],
  ])('refuses U+%s as a %s, anywhere in a name', (hex, kind) => {
    const char = String.fromCodePoint(parseInt(hex, 16));
    for (const text of [`${char}Polar Horizons`, `Polar${char} Horizons`, `Polar Horizons${char}`]) {
      expect(isDisplaySafeText(text)).toBe(false);
      expect(findDeceptiveCharacter(text)?.kind).toBe(kind);
    }
  });

  it('names the code point and why in its message', () => {
    const found = findDeceptiveCharacter('Polar\u202Esnoziroh')!;
    expect(found).toEqual({ codePoint: 'U+202E', kind: 'bidi control' });
    expect(deceptiveTextMessage(found)).toBe(
      'contains U+202E (a bidi control), which changes how it reads without being seen',
    );
  });

  it.each([
    'Polar Horizons Expeditions (demo)',
    'Ana Lima',
    'Zoë Ørsted-Ångström',
    'Ice & Fire Tours, Ltd.',
    'Ōkami 北極ツアー',
    'نجمة القطب',
    'שלום',
    'Ελληνικά Ταξίδια',
    'Polar 🐧 Tours',
  ])('accepts %s', (name) => {
    expect(isDisplaySafeText(name)).toBe(true);
    expect(findDeceptiveCharacter(name)).toBeNull();
  });
});
