import { HOSTED_KEYS, PREFILL_KEYS } from '../src/loader';
import { FIELD_NAMES } from '../src/validate';

/**
 * The loader slices its field lists out of validate.ts's FIELDS (one copy of the names in the bundle): these pin the
 * slices, so reordering FIELDS cannot silently send the e-mail to the hosted page's URL or drop a prefill field.
 */
describe("the loader's field lists (sliced from validate.ts FIELDS)", () => {
  it('the fallback link carries exactly the hosted quote page parameters (documents.ts prefillFromQuery, and locale)', () => {
    expect([...HOSTED_KEYS].sort()).toEqual(
      [
        'currency',
        'destination',
        'endDate',
        'locale',
        'residence',
        'startDate',
        'state',
        'travelers',
        'tripCost',
      ].sort(),
    );
    for (const personal of ['email', 'name', 'travelerAges', 'travelerDobs', 'publishableKey', 'pk'])
      expect(HOSTED_KEYS).not.toContain(personal);
  });

  it('the frame gets every WidgetPrefill field as prefill, and nothing else', () => {
    expect([...PREFILL_KEYS].sort()).toEqual(
      [
        'destination',
        'startDate',
        'endDate',
        'tripCost',
        'travelers',
        'travelerAges',
        'travelerDobs',
        'residence',
        'state',
        'email',
        'name',
        'currency',
      ].sort(),
    );
  });

  it('every MountConfig field is validated, once', () => {
    expect(new Set(FIELD_NAMES).size).toBe(FIELD_NAMES.length);
    expect([...FIELD_NAMES].sort()).toEqual(
      [
        'publishableKey',
        'pk',
        ...PREFILL_KEYS,
        'tier',
        'locale',
        'appearance',
        'autoResize',
        'title',
        'loadTimeoutMs',
      ].sort(),
    );
  });
});
