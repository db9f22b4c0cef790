import { MountConfigSchema } from '@expedition/contracts';
import { validateMountConfig } from '../src/validate';

const KEY = `pk_op_test_${'ab'.repeat(24)}`;

/** [label, config]: each must be accepted by both validators, or refused by both. */
const GOOD: [string, Record<string, unknown>][] = [
  ['key only', { publishableKey: KEY }],
  ['pk alias', { pk: KEY }],
  ['both, equal', { pk: KEY, publishableKey: KEY }],
  ['live key', { publishableKey: `pk_op_${'0'.repeat(48)}` }],
  [
    'every field',
    {
      publishableKey: KEY,
      destination: 'Antarctica',
      startDate: '2027-01-10',
      endDate: '2027-01-22',
      tripCost: 29800,
      travelers: 2,
      travelerAges: [46, 71],
      travelerDobs: ['1980-02-01', '1955-06-30'],
      residence: 'GB',
      state: '',
      email: 'traveler@example.com',
      name: 'Ada Lovelace',
      currency: 'usd',
      tier: 3,
      locale: 'en-GB',
      appearance: {
        accentColor: '#0b5cad',
        backgroundColor: 'rgb(255 255 255)',
        textColor: 'hsl(200 40% 10%)',
        borderRadius: '12px',
        fontFamily: '"Inter", system-ui, sans-serif',
        theme: 'auto',
      },
      autoResize: false,
      title: 'Trip insurance',
      loadTimeoutMs: 15000,
    },
  ],
  ['trip cost zero', { publishableKey: KEY, tripCost: 0 }],
  ['fractional trip cost', { publishableKey: KEY, tripCost: 1234.5 }],
  ['tier 1', { publishableKey: KEY, tier: 1 }],
  ['empty appearance', { publishableKey: KEY, appearance: {} }],
  ['undefined optional', { publishableKey: KEY, destination: undefined }],
  ['locale zh-Hant-TW', { publishableKey: KEY, locale: 'zh-Hant-TW' }],
  ['20 ages', { publishableKey: KEY, travelerAges: Array(20).fill(30) }],
];

/** [label, config, the field the TypeError must name]. */
const BAD: [string, unknown, string][] = [
  ['no key', {}, 'config.publishableKey'],
  ['not an object', 'pk_op_test_x', 'config must be an object'],
  ['null', null, 'config must be an object'],
  ['array', [KEY], 'config must be an object'],
  ['secret key', { publishableKey: 'sk_op_test_123' }, 'config.publishableKey'],
  ['key not a string', { publishableKey: 42 }, 'config.publishableKey'],
  ['pk and publishableKey differ', { pk: KEY, publishableKey: `${KEY}0` }, 'config.pk'],
  ['empty destination', { publishableKey: KEY, destination: '  ' }, 'config.destination'],
  ['long destination', { publishableKey: KEY, destination: 'x'.repeat(101) }, 'config.destination'],
  ['date format', { publishableKey: KEY, startDate: '10/01/2027' }, 'config.startDate'],
  ['date as Date', { publishableKey: KEY, endDate: new Date() }, 'config.endDate'],
  ['trip cost string', { publishableKey: KEY, tripCost: '29800' }, 'config.tripCost'],
  ['trip cost negative', { publishableKey: KEY, tripCost: -1 }, 'config.tripCost'],
  ['trip cost NaN', { publishableKey: KEY, tripCost: NaN }, 'config.tripCost'],
  ['trip cost Infinity', { publishableKey: KEY, tripCost: Infinity }, 'config.tripCost'],
  ['travelers 0', { publishableKey: KEY, travelers: 0 }, 'config.travelers'],
  ['travelers 1.5', { publishableKey: KEY, travelers: 1.5 }, 'config.travelers'],
  ['travelers 21', { publishableKey: KEY, travelers: 21 }, 'config.travelers'],
  ['age 121', { publishableKey: KEY, travelerAges: [40, 121] }, 'config.travelerAges'],
  ['ages not an array', { publishableKey: KEY, travelerAges: 40 }, 'config.travelerAges'],
  ['21 ages', { publishableKey: KEY, travelerAges: Array(21).fill(30) }, 'config.travelerAges'],
  ['dob format', { publishableKey: KEY, travelerDobs: ['1980-2-1'] }, 'config.travelerDobs'],
  ['residence 1 char', { publishableKey: KEY, residence: 'G' }, 'config.residence'],
  ['email', { publishableKey: KEY, email: 'not an email' }, 'config.email'],
  ['name too long', { publishableKey: KEY, name: 'x'.repeat(201) }, 'config.name'],
  ['currency', { publishableKey: KEY, currency: 'US$' }, 'config.currency'],
  ['tier 4', { publishableKey: KEY, tier: 4 }, 'config.tier'],
  ['tier "3"', { publishableKey: KEY, tier: '3' }, 'config.tier'],
  ['locale', { publishableKey: KEY, locale: 'en_GB' }, 'config.locale'],
  ['appearance string', { publishableKey: KEY, appearance: 'dark' }, 'config.appearance'],
  ['appearance null', { publishableKey: KEY, appearance: null }, 'config.appearance'],
  [
    'css injection',
    { publishableKey: KEY, appearance: { accentColor: 'red; background: url(x)' } },
    'config.appearance.accentColor',
  ],
  ['css markup', { publishableKey: KEY, appearance: { fontFamily: '</style>' } }, 'config.appearance.fontFamily'],
  ['theme', { publishableKey: KEY, appearance: { theme: 'night' } }, 'config.appearance.theme'],
  ['autoResize string', { publishableKey: KEY, autoResize: 'false' }, 'config.autoResize'],
  ['empty title', { publishableKey: KEY, title: '' }, 'config.title'],
  ['timeout too small', { publishableKey: KEY, loadTimeoutMs: 10 }, 'config.loadTimeoutMs'],
  ['null field', { publishableKey: KEY, destination: null }, 'config.destination'],
];

describe('MountConfig validation (loader) agrees with MountConfigSchema (zod)', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => (warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)));
  afterEach(() => warn.mockRestore());

  it.each(GOOD)('accepts %s, like the schema', (_label, config) => {
    expect(MountConfigSchema.safeParse(config).success).toBe(true);
    expect(() => validateMountConfig(config, true)).not.toThrow();
  });

  it.each(BAD)('refuses %s with a TypeError naming the field, like the schema', (_label, config, field) => {
    expect(MountConfigSchema.safeParse(config).success).toBe(false);
    expect(() => validateMountConfig(config, true)).toThrow(TypeError);
    expect(() => validateMountConfig(config, true)).toThrow(field);
  });

  it('fills publishableKey from pk', () => {
    expect(validateMountConfig({ pk: KEY }, true).publishableKey).toBe(KEY);
  });

  it('ignores an unknown field with a console warning (a newer parameter must not break an older pinned loader)', () => {
    const config = { publishableKey: KEY, publishablekey: KEY, appearance: { accentColour: 'red' } };
    expect(() => validateMountConfig(config, true)).not.toThrow();
    expect(MountConfigSchema.safeParse(config).success).toBe(true);
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      'SvcWidget: unknown config.publishablekey ignored',
      'SvcWidget: unknown config.appearance.accentColour ignored',
    ]);
  });

  it('update() may leave the key out; mount() may not', () => {
    expect(() => validateMountConfig({ tier: 2 }, false)).not.toThrow();
    expect(() => validateMountConfig({ tier: 2 }, true)).toThrow('config.publishableKey must be set (required)');
  });
});
