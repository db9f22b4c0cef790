import {
  DURATION_MISMATCH_ERROR,
  EmbedInputError,
  resolveDurationDays,
  resolveTravelerAges,
  toNewQuote,
} from './embed-quote.input';

describe('resolveDurationDays', () => {
  it('keeps a positive value without both dates', () => {
    expect(resolveDurationDays({ durationDays: 9, startDate: '2027-01-01' })).toBe(9);
    expect(resolveDurationDays({ durationDays: 9 })).toBe(9);
  });
  it.each([undefined, 0, -3, 8])('computes whole days between the dates when durationDays is %p', (durationDays) => {
    expect(resolveDurationDays({ durationDays, startDate: '2027-02-25', endDate: '2027-03-05' })).toBe(8);
  });
  it('refuses a positive durationDays that contradicts both dates', () => {
    expect(() => resolveDurationDays({ durationDays: 9, startDate: '2027-01-01', endDate: '2027-01-30' })).toThrow(
      DURATION_MISMATCH_ERROR,
    );
  });
  it('refuses an end date that is not after the start date', () => {
    expect(() => resolveDurationDays({ startDate: '2027-01-10', endDate: '2027-01-01' })).toThrow(
      'endDate must be after startDate',
    );
    expect(() => resolveDurationDays({ startDate: '2027-01-10', endDate: '2027-01-10' })).toThrow(EmbedInputError);
  });
  it('is 0 ("not given") without both dates and without a positive durationDays', () => {
    expect(resolveDurationDays({ startDate: '2027-01-01' })).toBe(0);
    expect(resolveDurationDays({ endDate: '2027-01-01' })).toBe(0);
    expect(resolveDurationDays({ durationDays: -1 })).toBe(0);
  });
});

describe('resolveTravelerAges', () => {
  it('zero-fills to `travelers` when omitted', () => {
    expect(resolveTravelerAges({ travelers: 3 }, '2027-01-10')).toEqual([0, 0, 0]);
  });
  it('keeps explicit ages, fills zeros from dates of birth at the reference day', () => {
    expect(
      resolveTravelerAges(
        { travelers: 3, travelerAges: [30, 0, 0], travelerDobs: ['1990-01-01', '1957-01-10'] },
        '2027-01-10',
      ),
    ).toEqual([30, 70, 0]);
  });
  it('passes a wrong-length age list through for the engine to refuse', () => {
    expect(resolveTravelerAges({ travelers: 2, travelerAges: [30] }, '2027-01-10')).toEqual([30]);
  });
  it('refuses more dates of birth than travelers', () => {
    expect(() =>
      resolveTravelerAges({ travelers: 1, travelerDobs: ['1990-01-01', '1991-01-01'] }, '2027-01-10'),
    ).toThrow(EmbedInputError);
  });
});

describe('ages from dates of birth', () => {
  it('counts completed years at the reference day (ageOn of @expedition/contracts/rules)', () => {
    const dobs = ['1980-01-11', '1980-01-10', '2027-01-10'];
    expect(resolveTravelerAges({ travelers: 3, travelerDobs: dobs }, '2027-01-10')).toEqual([46, 47, 0]);
  });
  it('refuses a date of birth after the reference day, naming the traveler', () => {
    expect(() =>
      resolveTravelerAges({ travelers: 2, travelerDobs: ['1980-01-01', '2027-01-11'] }, '2027-01-10'),
    ).toThrow("traveler 2's date of birth is after departure");
  });
});

describe('toNewQuote', () => {
  const NOW = new Date('2026-11-21T10:00:00Z');
  const base = { destination: 'Arctic', tripCost: 1234.5, travelers: 1, residence: ' de ', email: 'a@b.co' };
  it('attributes to the operator and mode, converts dollars to cents and applies defaults', () => {
    expect(toNewQuote(base, { operatorId: 'op', mode: 'live' }, NOW)).toMatchObject({
      source: 'embed',
      operatorId: 'op',
      mode: 'live',
      tripCostCents: 123_450,
      residence: 'DE',
      durationDays: 0,
      travelerAges: [0],
      name: 'Embedded quote',
      state: null,
      phone: null,
      otherCountries: [],
    });
  });
  it('passes the currency through: pricing owns the USD rule (the API test checks the 400)', () => {
    expect(toNewQuote({ ...base, currency: 'eur' }, { operatorId: 'op', mode: 'test' }, NOW).currency).toBe('eur');
    expect(toNewQuote(base, { operatorId: 'op', mode: 'test' }, NOW).currency).toBeUndefined();
  });
  it('refuses a date outside the window as of its clock, naming the field', () => {
    const who = { operatorId: 'op', mode: 'test' } as const;
    expect(() => toNewQuote({ ...base, startDate: '9999-01-01' }, who, NOW)).toThrow(
      'startDate must be at most 730 days after today',
    );
    expect(() => toNewQuote({ ...base, travelerDobs: ['2026-11-22'] }, who, NOW)).toThrow(
      'travelerDobs.0 is in the future',
    );
    expect(toNewQuote({ ...base, startDate: '2026-11-22' }, who, NOW).startDate).toBe('2026-11-22');
    expect(() => toNewQuote({ ...base, startDate: '2026-11-22' }, who, new Date('2026-11-23T00:00:00Z'))).toThrow(
      'startDate is in the past',
    );
  });
});
