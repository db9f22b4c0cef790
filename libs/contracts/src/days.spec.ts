import { addDays, ageOn, DAY_MS, daysBetween, isoDay, parseIsoDay } from './days';

describe('UTC day arithmetic', () => {
  it('reads an instant or epoch milliseconds as its UTC day', () => {
    expect(isoDay(new Date('2026-11-21T23:30:00-05:00'))).toBe('2026-11-22');
    expect(isoDay(Date.UTC(2028, 1, 29))).toBe('2028-02-29');
    expect(isoDay(new Date('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
    expect(DAY_MS).toBe(24 * 60 * 60 * 1000);
  });

  it('parses only real calendar days', () => {
    expect(parseIsoDay('2028-02-29')).toBe(Date.UTC(2028, 1, 29));
    expect(parseIsoDay('2027-02-29')).toBeUndefined();
    expect(parseIsoDay('2027-1-05')).toBeUndefined();
    expect(parseIsoDay('2027-01-05T00:00:00Z')).toBeUndefined();
    expect(parseIsoDay('')).toBeUndefined();
  });

  it('adds and counts days across month and leap-year ends', () => {
    expect(addDays('2028-02-28', 2)).toBe('2028-03-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2027-01-10', '2027-01-01')).toBe(-9);
  });

  it('counts completed years; a 29 February birthday counts from 1 March in common years', () => {
    expect(ageOn('1980-01-11', '2027-01-10')).toBe(46);
    expect(ageOn('1980-01-10', '2027-01-10')).toBe(47);
    expect(ageOn('2027-01-10', '2027-01-10')).toBe(0);
    expect(ageOn('2000-02-29', '2027-02-28')).toBe(26);
    expect(ageOn('2000-02-29', '2027-03-01')).toBe(27);
    expect(ageOn('2000-02-29', '2028-02-29')).toBe(28);
  });

  it('has no age for an unreadable day or a birth after the day', () => {
    expect(ageOn('nope', '2027-03-01')).toBeUndefined();
    expect(ageOn('1980-03-01', '2027-02-30')).toBeUndefined();
    expect(ageOn('2027-01-11', '2027-01-10')).toBeUndefined();
  });
});
