import { widgetMessages } from '@expedition/i18n/documents';
import widgetEn from '@expedition/i18n/widget/en';
import { applyPrefill, emptyValues, resizeAges, toQuoteBody, validate, type FormValues } from './validation';

const TODAY = '2026-11-23';
const m = widgetEn.validation;
const good: FormValues = {
  destination: 'antarctica',
  startDate: '2027-01-10',
  endDate: '2027-01-24',
  travelers: '2',
  ages: ['45', '72'],
  tripCost: '24000',
  currency: 'USD',
  residence: 'US',
  state: 'CA',
  email: 'ana@example.com',
  name: 'Ana',
};

describe('quote form validation', () => {
  it('accepts a complete trip and builds the embed quote body', () => {
    expect(validate(good, TODAY, m)).toEqual({});
    expect(toQuoteBody(good)).toEqual({
      destination: 'antarctica',
      startDate: '2027-01-10',
      endDate: '2027-01-24',
      travelers: 2,
      travelerAges: [45, 72],
      tripCost: 24000,
      currency: 'USD',
      residence: 'US',
      state: 'CA',
      email: 'ana@example.com',
      name: 'Ana',
    });
  });

  it('names every missing field', () => {
    const errors = validate(emptyValues(), TODAY, m);
    expect(Object.keys(errors).sort()).toEqual(
      ['age-0', 'destination', 'email', 'endDate', 'residence', 'startDate', 'tripCost'].sort(),
    );
  });

  it.each<[Partial<FormValues>, string]>([
    [{ startDate: '2026-11-22' }, 'startDate'],
    [{ startDate: '2029-01-01', endDate: '2029-01-10' }, 'startDate'],
    [{ endDate: '2027-01-10' }, 'endDate'],
    [{ endDate: '2028-02-01' }, 'endDate'],
    [{ travelers: '0' }, 'travelers'],
    [{ travelers: '21' }, 'travelers'],
    [{ ages: ['45', '121'] }, 'age-1'],
    [{ ages: ['45', ''] }, 'age-1'],
    [{ tripCost: '-5' }, 'tripCost'],
    [{ tripCost: '24,000' }, 'tripCost'],
    [{ currency: 'EUR' }, 'currency'],
    [{ residence: 'XX' }, 'residence'],
    [{ state: '' }, 'state'],
    [{ email: 'ana@' }, 'email'],
  ])('refuses %j on %s', (patch, field) => {
    expect(Object.keys(validate({ ...good, ...patch }, TODAY, m))).toEqual([field]);
  });

  it('asks for a US state only for US residents, and sends none otherwise', () => {
    const gb = { ...good, residence: 'GB', state: '' };
    expect(validate(gb, TODAY, m)).toEqual({});
    expect(toQuoteBody(gb)).not.toHaveProperty('state');
  });

  it('keeps one age input per traveler', () => {
    expect(resizeAges(['30'], '3')).toEqual(['30', '', '']);
    expect(resizeAges(['30', '40', '50'], '1')).toEqual(['30']);
    expect(resizeAges(['30'], 'abc')).toEqual(['30']);
  });

  it('fills the form from a prefill (slug or name, ages or dates of birth) and leaves the rest', () => {
    const v = applyPrefill(
      emptyValues(),
      {
        destination: 'Galápagos',
        startDate: '2027-03-01',
        travelerDobs: ['1980-03-02', '1950-01-01'],
        tripCost: 9000,
        residence: 'gb',
      },
      TODAY,
    );
    expect(v).toMatchObject({
      destination: 'galapagos',
      startDate: '2027-03-01',
      travelers: '2',
      ages: ['46', '77'],
      tripCost: '9000',
      residence: 'GB',
      email: '',
    });
    const again = applyPrefill(v, { email: 'x@y.zz' }, TODAY);
    expect(again).toMatchObject({ destination: 'galapagos', email: 'x@y.zz', ages: ['46', '77'] });
    expect(applyPrefill(emptyValues(), { destination: 'Mars', travelers: 3 }, TODAY)).toMatchObject({
      destination: '',
      travelers: '3',
      ages: ['', '', ''],
    });
  });
});

describe("the form in the traveler's language", () => {
  it('says what is wrong in German, and sends the language with the quote (never the pseudo-locale)', () => {
    const de = widgetMessages('de').validation;
    expect(validate({ ...good, startDate: '', tripCost: '20000000' }, TODAY, de)).toEqual({
      startDate: 'Geben Sie Ihr Abreisedatum ein.',
      tripCost: 'Geben Sie einen Betrag bis 10.000.000 ein.',
    });
    expect(toQuoteBody(good, 'de')).toMatchObject({ locale: 'de' });
    expect(toQuoteBody(good, 'en-XA')).not.toHaveProperty('locale');
  });
});
