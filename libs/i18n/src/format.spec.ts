import { formatDay, formatList } from './format';

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
