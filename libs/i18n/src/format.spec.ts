import { formatDay, formatList, formatMoney, formatWholeMoney } from './format';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney (integer minor units in the quote currency)', () => {
  it('writes cents in each language', () => {
    expect(nbsp(formatMoney(123450, 'USD', 'en'))).toBe('$1,234.50');
    expect(nbsp(formatMoney(123450, 'USD', 'de'))).toBe('1.234,50 $');
    expect(nbsp(formatMoney(123450, 'USD', 'fr'))).toBe('1 234,50 $US');
    expect(nbsp(formatMoney(123450, 'EUR', 'es'))).toBe('1234,50 €');
  });

  it('writes the currency code when asked (documents read abroad)', () => {
    expect(nbsp(formatMoney(123450, 'usd', 'en', { code: true }))).toBe('USD 1,234.50');
    expect(nbsp(formatMoney(123450, 'USD', 'de', { code: true }))).toBe('1.234,50 USD');
  });

  it('knows a currency without minor units (JPY: the amount is in yen)', () => {
    expect(nbsp(formatMoney(1500, 'JPY', 'en'))).toBe('¥1,500');
  });

  it('writes whole amounts without decimals', () => {
    expect(nbsp(formatWholeMoney(500000, 'USD', 'fr', { code: true }))).toBe('500 000 USD');
    expect(nbsp(formatWholeMoney(500000, 'USD', 'en', { code: true }))).toBe('USD 500,000');
  });
});

describe('formatDay', () => {
  it('writes a calendar day in words, never shifted by time zones', () => {
    expect(formatDay('2027-01-10', 'en')).toBe('10 January 2027');
    expect(formatDay('2027-01-10', 'de')).toBe('10. Januar 2027');
    expect(formatDay('2027-01-10', 'fr')).toBe('10 janvier 2027');
    expect(formatDay('2027-01-10', 'es')).toBe('10 de enero de 2027');
    expect(formatDay('2026-12-31T23:30:00.000Z', 'en')).toBe('31 December 2026');
    expect(formatDay('not a date', 'de')).toBe('not a date');
    expect(formatDay(new Date('2027-01-10T00:00:00Z'), 'en', 'short')).toBe('10 Jan 2027');
    expect(formatDay('2027-01-10', 'de', 'short')).toBe('10. Jan. 2027');
  });
});

describe('formatList', () => {
  it("joins with the language's conjunction", () => {
    expect(formatList(['A', 'B', 'C'], 'de')).toBe('A, B und C');
    expect(formatList(['A', 'B'], 'es')).toBe('A y B');
  });
});
