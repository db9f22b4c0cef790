/**
 * ILLUSTRATIVE carriers. These names are invented for this project and are not real insurers; no real
 * company underwrites the plans in this catalog.
 */
export const CARRIER_TABLE = [
  { id: 'polar-shield', brand: 'Polar Shield', legalName: 'Polar Shield Mutual Insurance Company (illustrative)' },
  {
    id: 'meridian',
    brand: 'Meridian',
    legalName: 'Meridian Expedition Underwriters Ltd. (illustrative)',
  },
  { id: 'austral', brand: 'Austral', legalName: 'Austral Assurance Company (illustrative)' },
  { id: 'savanna', brand: 'Savanna Guard', legalName: 'Savanna Travel Guard Insurance Co. (illustrative)' },
] as const;

export type CarrierId = (typeof CARRIER_TABLE)[number]['id'];
