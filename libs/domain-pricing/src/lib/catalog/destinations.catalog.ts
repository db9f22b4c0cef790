/**
 * The five expedition destinations the service quotes (spec §1).
 *
 * `riskFactor` multiplies the trip-cost part of every premium. It reflects how remote the region is and how
 * likely and costly a claim is there: Antarctica (Drake Passage crossings, no hospitals, evacuation by ship or
 * ski-plane to South America) carries the highest load; the High Arctic is almost as remote; Svalbard has a
 * hospital in Longyearbyen and Norwegian air-ambulance cover nearby; the Galápagos and East/Southern African
 * safaris have established air-evacuation services (e.g. to Guayaquil or Nairobi/Johannesburg).
 *
 * `requirements` are the minimum per-person limits that expedition operators typically ask travelers to hold
 * (they drive the recommendation and the coverage-gap analysis). Polar operators commonly require
 * USD 500,000 of medical evacuation and USD 100,000 of emergency medical cover. The other values are our
 * documented choices, set in the same spirit but scaled to how far help is.
 */
export const DESTINATION_TABLE = [
  {
    slug: 'antarctica',
    name: 'Antarctica',
    description:
      'Expedition cruises to the Antarctic Peninsula, South Georgia and the Ross Sea, usually crossing the Drake Passage from Ushuaia.',
    region: 'Southern Ocean',
    /** Highest load: no hospitals, evacuation can take days and costs six figures. */
    riskFactor: 1.35,
    /** Spec §1 rule 2. */
    defaultDurationDays: 14,
    requirements: { medicalEvacuationUsd: 500_000, emergencyMedicalUsd: 100_000 },
    aliases: ['Antarctic', 'Antarctic Peninsula', 'Antartica', 'South Pole', 'Ross Sea', 'South Georgia'],
  },
  {
    slug: 'arctic',
    name: 'Arctic',
    description:
      'Expedition voyages to Greenland, the Canadian Arctic, Franz Josef Land and the North Pole, far from mainland hospitals.',
    region: 'High Arctic',
    /** Nearly as remote as Antarctica, slightly shorter evacuation routes. */
    riskFactor: 1.25,
    /** Spec §1 rule 2. */
    defaultDurationDays: 10,
    requirements: { medicalEvacuationUsd: 500_000, emergencyMedicalUsd: 100_000 },
    aliases: ['High Arctic', 'North Pole', 'Greenland', 'Northwest Passage', 'Canadian Arctic'],
  },
  {
    slug: 'svalbard',
    name: 'Svalbard',
    description:
      'Expedition cruises around Spitsbergen and the Svalbard archipelago from Longyearbyen, looking for polar bears along the pack ice.',
    region: 'Norway',
    /** Remote, but Longyearbyen has a hospital and Norwegian air ambulances reach the mainland in hours. */
    riskFactor: 1.2,
    /**
     * Not set by the spec. 8 days: the typical Spitsbergen expedition cruise from Longyearbyen runs 7 to 10
     * days (a week-long circumnavigation plus embarkation day), so 8 is the common length.
     */
    defaultDurationDays: 8,
    /** Closer to hospitals than the High Arctic: a lower evacuation minimum, same medical minimum. */
    requirements: { medicalEvacuationUsd: 300_000, emergencyMedicalUsd: 100_000 },
    aliases: ['Spitsbergen', 'Spitzbergen', 'Longyearbyen', 'Svalbard Norway'],
  },
  {
    slug: 'galapagos',
    name: 'Galápagos',
    description:
      'Small-ship expedition cruises between the Galápagos Islands, a national park of Ecuador about 1,000 km off the mainland.',
    region: 'Ecuador',
    /** Island clinics only; serious cases fly to Guayaquil or Quito. */
    riskFactor: 1.1,
    /** Spec §1 rule 2. */
    defaultDurationDays: 10,
    /** Ecuador requires health insurance for Galápagos visitors; evacuation to the mainland is a short flight. */
    requirements: { medicalEvacuationUsd: 250_000, emergencyMedicalUsd: 50_000 },
    aliases: ['Galapagos', 'Galápagos Islands', 'Galapagos Islands', 'Islas Galapagos', 'Ecuador Galapagos'],
  },
  {
    slug: 'african-safari',
    name: 'African Safari',
    description:
      'Overland and fly-in safaris through the game reserves of East and Southern Africa, such as the Serengeti, Masai Mara and Okavango Delta.',
    region: 'East & Southern Africa',
    /** Well-served by air-ambulance networks; road and wildlife risks keep it above 1. */
    riskFactor: 1.05,
    /** Spec §1 rule 2. */
    defaultDurationDays: 12,
    requirements: { medicalEvacuationUsd: 250_000, emergencyMedicalUsd: 100_000 },
    aliases: ['Safari', 'Africa Safari', 'Africa', 'African Safaris', 'Kenya', 'Tanzania', 'Botswana', 'Serengeti'],
  },
] as const;

export type DestinationSlug = (typeof DESTINATION_TABLE)[number]['slug'];

export interface DestinationRequirements {
  /** Minimum medical-evacuation limit per person, USD. */
  readonly medicalEvacuationUsd: number;
  /** Minimum emergency-medical limit per person, USD. */
  readonly emergencyMedicalUsd: number;
}

export interface Destination {
  readonly slug: DestinationSlug;
  readonly name: string;
  readonly description: string;
  readonly region: string | null;
  readonly riskFactor: number;
  readonly defaultDurationDays: number;
  readonly requirements: DestinationRequirements;
  readonly aliases: readonly string[];
}

export const DESTINATION_SLUGS: readonly DestinationSlug[] = DESTINATION_TABLE.map((d) => d.slug);
