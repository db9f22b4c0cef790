/**
 * The short lines a plan card shows under its limits ("highlights"), in English, each under a stable key. Plan rows
 * name their highlights by key; libs/i18n's catalog namespace holds each key's text in every language
 * (`catalog.highlights.<key>`), so the embed options answer carries them in the quote's language. The API for agents
 * (REST, MCP) gives the English.
 */
export const PLAN_HIGHLIGHTS = {
  lowestCostPolar: 'Lowest-cost polar option',
  coversPolarRegions: 'Covers Antarctica, the Arctic and Svalbard',
  meetsPolarMinimums: 'Meets polar operator minimums',
  cfarWithin21Days: 'Cancel-for-any-reason when bought within 21 days of deposit',
  highestPolarLimits: 'Highest polar limits',
  noDeductible: 'No deductible',
  usResidentsOnly: 'US residents only',
  mostCountriesResidents: 'Open to residents of most countries',
  searchAndRescue: 'Search and rescue included',
  allFiveDestinations: 'Covers all five destinations',
  agesUpTo99: 'Ages up to 99',
  noTravelerLimit: 'No traveler limit',
  underwrittenOnRequest: 'Underwritten on request',
  chartersUpTo120Days: 'Charters and expeditions up to 120 days',
  nonUsResidents: 'For residents outside the United States',
  lowPrice: 'Low price',
  secureWithDeposit: 'Secure with a deposit',
  lowestCostSafari: 'Lowest-cost safari option',
  usCanadaResidents: 'US and Canadian residents',
  meetsSafariMinimums: 'Meets safari operator minimums',
  highestSafariLimits: 'Highest safari limits',
  staffAndGuidesOnly: 'Staff and guides only',
  issuedByAdministrator: 'Issued by an administrator',
  noLongerSold: 'No longer sold',
} as const;

export type HighlightKey = keyof typeof PLAN_HIGHLIGHTS;
