import { contrastWithWhite, optionalBrandColor, optionalLogoUrl } from '../src/lib/branding';

describe('checkout page branding inputs', () => {
  it('measures contrast with white as WCAG does (#767676 is the lightest AA grey)', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#767676')).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite('#777777')).toBeLessThan(4.5);
  });

  it('takes a dark #rrggbb colour (lower-cased) and clears with null or empty', () => {
    expect(optionalBrandColor('#0B5CAD')).toBe('#0b5cad');
    expect(optionalBrandColor(' #767676 ')).toBe('#767676');
    expect(optionalBrandColor(null)).toBeNull();
    expect(optionalBrandColor('')).toBeNull();
  });

  it.each(['#777777', '#ffff00', 'red', '#fff', '#0b5cad80', '#000;}', 'url(x)', 42, `#${'0'.repeat(500)}`])(
    'refuses %p',
    (value) => {
      expect(() => optionalBrandColor(value)).toThrow(/brandColor/);
    },
  );

  it('takes an https logo URL and refuses anything else', () => {
    expect(optionalLogoUrl('https://cdn.example/logo.png')).toBe('https://cdn.example/logo.png');
    expect(optionalLogoUrl('')).toBeNull();
    for (const bad of [
      'javascript:alert(1)',
      'http://cdn.example/logo.png',
      'data:image/png;base64,AAAA',
      'https://user:pw@cdn.example/l.png',
      'https://cdn.example/l.png#x',
      'not a url',
      `https://cdn.example/${'a'.repeat(2100)}`,
      7,
    ]) {
      expect(() => optionalLogoUrl(bad)).toThrow(/logoUrl/);
    }
  });
});
