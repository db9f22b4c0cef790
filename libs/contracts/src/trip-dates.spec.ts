import { quoteRequestSchemaAt } from './quote-api/quote.schema';
import { addDays, TRIP_DATE_WINDOW } from './rules';
import { tripDateProblems } from './trip-dates';

const now = new Date('2026-11-21T23:30:00Z');
const today = '2026-11-21';
const paths = (dates: Parameters<typeof tripDateProblems>[0]) =>
  tripDateProblems(dates, now).map((p) => p.path.join('.'));

describe('TRIP_DATE_WINDOW', () => {
  it('is two years of departures, trips up to a year, ages up to 120, deposits up to two years back', () => {
    expect(TRIP_DATE_WINDOW).toEqual({
      maxDaysAhead: 730,
      maxTripDays: 365,
      maxAgeYears: 120,
      maxDepositDaysBack: 730,
    });
  });
});

describe('tripDateProblems', () => {
  it('accepts a departure from today (UTC) to 730 days ahead', () => {
    expect(paths({ startDate: today })).toEqual([]);
    expect(paths({ startDate: addDays(today, 730) })).toEqual([]);
  });

  it('refuses a departure in the past, beyond two years, or in 9999', () => {
    expect(tripDateProblems({ startDate: addDays(today, -1) }, now)).toEqual([
      { path: ['startDate'], message: 'is in the past' },
    ]);
    expect(tripDateProblems({ startDate: addDays(today, 731) }, now)).toEqual([
      { path: ['startDate'], message: 'must be at most 730 days after today' },
    ]);
    expect(paths({ startDate: '9999-01-01' })).toEqual(['startDate']);
  });

  it('takes today from the clock it is given, in UTC', () => {
    expect(tripDateProblems({ startDate: '2026-11-22' }, new Date('2026-11-22T00:00:00Z'))).toEqual([]);
    expect(paths({ startDate: '2026-11-21' })).toEqual([]);
    expect(tripDateProblems({ startDate: '2026-11-21' }, new Date('2026-11-22T00:30:00+02:00'))).toEqual([]);
  });

  it('wants endDate 1 to 365 days after startDate', () => {
    expect(paths({ startDate: today, endDate: addDays(today, 1) })).toEqual([]);
    expect(paths({ startDate: today, endDate: addDays(today, 365) })).toEqual([]);
    expect(tripDateProblems({ startDate: today, endDate: today }, now)).toEqual([
      { path: ['endDate'], message: 'must be after startDate' },
    ]);
    expect(paths({ startDate: '2027-01-10', endDate: '2027-01-01' })).toEqual(['endDate']);
    expect(paths({ startDate: today, endDate: addDays(today, 366) })).toEqual(['endDate']);
  });

  it('keeps an endDate without startDate where a trip in the window could end', () => {
    expect(paths({ endDate: addDays(today, 1) })).toEqual([]);
    expect(paths({ endDate: addDays(today, 730 + 365) })).toEqual([]);
    expect(paths({ endDate: today })).toEqual(['endDate']);
    expect(paths({ endDate: '9999-12-31' })).toEqual(['endDate']);
  });

  it('wants depositPaidDate in the last two years, not in the future', () => {
    expect(paths({ depositPaidDate: today })).toEqual([]);
    expect(paths({ depositPaidDate: addDays(today, -730) })).toEqual([]);
    expect(paths({ depositPaidDate: addDays(today, 1) })).toEqual(['depositPaidDate']);
    expect(paths({ depositPaidDate: addDays(today, -731) })).toEqual(['depositPaidDate']);
  });

  it('wants dates of birth giving an age of 0 to 120 today, naming each refused one', () => {
    expect(paths({ travelerDobs: [today, '1906-11-22', '1905-11-22'] })).toEqual([]);
    expect(paths({ travelerDobs: ['1980-01-01', addDays(today, 1), '1905-11-21', '0001-01-01'] })).toEqual([
      'travelerDobs.1',
      'travelerDobs.2',
      'travelerDobs.3',
    ]);
  });
});

describe('quoteRequestSchemaAt', () => {
  const body = {
    destination: 'Antarctica',
    startDate: '2027-01-10',
    durationDays: 14,
    tripCost: 1,
    travelers: 1,
    travelerAges: [40],
    residence: 'GB',
  };
  it('adds the date window to QuoteRequestSchema, as of the given instant', () => {
    expect(quoteRequestSchemaAt(now).safeParse(body).success).toBe(true);
    const late = quoteRequestSchemaAt(now).safeParse({
      ...body,
      startDate: '9999-01-01',
      depositPaidDate: '2030-01-01',
    });
    expect(late.error?.issues.map((i) => i.path.join('.'))).toEqual(['startDate', 'depositPaidDate']);
    expect(quoteRequestSchemaAt(new Date('2027-01-11T00:00:00Z')).safeParse(body).error?.issues[0]).toMatchObject({
      path: ['startDate'],
      message: 'is in the past',
    });
  });

  it('is made once per UTC day (zod compiles a schema on its first parse): the same day reuses it, the next day does not', () => {
    const morning = quoteRequestSchemaAt(new Date('2027-03-01T00:10:00Z'));
    expect(quoteRequestSchemaAt(new Date('2027-03-01T23:50:00Z'))).toBe(morning);
    const nextDay = quoteRequestSchemaAt(new Date('2027-03-02T00:00:00Z'));
    expect(nextDay).not.toBe(morning);
    const body = {
      destination: 'Antarctica',
      startDate: '2027-03-01',
      durationDays: 14,
      tripCost: 24000,
      travelers: 1,
      travelerAges: [40],
      residence: 'GB',
    };
    expect(morning.safeParse(body).success).toBe(true);
    expect(nextDay.safeParse(body).error?.issues[0]).toMatchObject({ path: ['startDate'], message: 'is in the past' });
  });
});
