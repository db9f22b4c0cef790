/** USPS codes of the 50 states and the District of Columbia: the `state` values accepted for US residents. */
export const US_STATE_CODES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;

export type UsStateCode = (typeof US_STATE_CODES)[number];

const COUNTRY_CODE = /^[A-Z]{2}$/;

/** Upper-cases and trims an ISO 3166-1 alpha-2 code; null when the value is not of that shape. */
export function normalizeCountryCode(value: string): string | null {
  const code = value.trim().toUpperCase();
  return COUNTRY_CODE.test(code) ? code : null;
}

/** Upper-cases and trims a state code; null when blank. */
export function normalizeStateCode(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const code = value.trim().toUpperCase();
  return code === '' ? null : code;
}

export function isUsStateCode(code: string): code is UsStateCode {
  return (US_STATE_CODES as readonly string[]).includes(code);
}
