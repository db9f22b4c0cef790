import path from 'node:path';

/**
 * What the widget frame's Chromium suites know of their world (harness.ts starts it): its origins, the publishable
 * keys the fake embed API knows, the plans it offers, and what it records.
 */

/** The policy the fake embed API reports on a successful payment (the success view links its certificate). */
export const CERTIFICATE = {
  policyNumber: 'POL-2026-TESTAB',
  token: 'pat_widgetHarnessToken',
  url: 'http://quote.test/api/v1/policies/POL-2026-TESTAB/certificate.pdf?access_token=pat_widgetHarnessToken',
};

export interface WorldUrls {
  ports: { widget: number; embed: number; host: number; foreign: number };
  /** The widget server: the iframe document /frame, the hosted page /quote, the bundle's assets. */
  WIDGET: string;
  /** The fake embed API. */
  EMBED: string;
  /** The host page, another origin, playing the loader's part of the protocol. */
  HOST: string;
  /** A third origin. */
  FOREIGN: string;
}

/** The four origins of a world on basePort … basePort + 3; each suite its own (jest runs suites side by side). */
export function worldUrls(basePort: number): WorldUrls {
  const ports = { widget: basePort, embed: basePort + 1, host: basePort + 2, foreign: basePort + 3 };
  return {
    ports,
    WIDGET: `http://localhost:${ports.widget}`,
    EMBED: `http://localhost:${ports.embed}`,
    HOST: `http://127.0.0.1:${ports.host}`,
    FOREIGN: `http://127.0.0.1:${ports.foreign}`,
  };
}

export const DIST = path.resolve(__dirname, '../../../../dist/browser/widget-frame');

export const KEYS = {
  tier3: 'pk_op_test_' + '3'.repeat(48),
  tier2: 'pk_op_test_' + '2'.repeat(48),
  tier1: 'pk_op_test_' + '1'.repeat(48),
  revoked: 'pk_op_test_' + 'dead'.repeat(12),
} as const;

export interface RecordedRequest {
  method: string;
  path: string;
  origin?: string;
  key?: string;
  body?: Record<string, unknown>;
}

/** What the fake embed API does next; tests change it between steps. */
export interface Scenario {
  /** Status the gate answers on the next POST /api/embed/quote (401, 403, 429) instead of the route. */
  quoteGate?: 401 | 403 | 429;
  /** Pending polls before a quote's options are ready. */
  pendingPolls: number;
  /** Answer the first options poll of each quote with 429 Retry-After: 1. */
  options429Once: boolean;
}

export const OPTIONS = [
  {
    planId: 'austral-voyager-basic',
    name: 'Austral Voyager Basic',
    brand: 'Austral',
    carrier: 'Austral Mutual Insurance Co.',
    tier: 'basic',
    premiumCents: 28950,
    currency: 'USD',
    coverage: {
      medicalExpenseLimit: 100000,
      evacuationCoverage: 250000,
      tripCancellationLimit: 24000,
      deductible: 250,
    },
    highlights: ['Emergency evacuation from the ice', 'Trip cancellation for covered reasons'],
    isRecommended: false,
    availabilityMode: 'full',
    checkout: { purchasable: true, amountCents: 28950, currency: 'USD' },
  },
  {
    planId: 'polar-shield-standard',
    name: 'Polar Shield Standard',
    brand: 'Polar Shield',
    carrier: 'Polar Shield Underwriters Ltd.',
    tier: 'standard',
    premiumCents: 41234,
    currency: 'USD',
    coverage: {
      medicalExpenseLimit: 250000,
      evacuationCoverage: 500000,
      tripCancellationLimit: 24000,
      deductible: 100,
    },
    highlights: ['Helicopter evacuation included', 'Cover up to age 85', '24/7 polar assistance line'],
    isRecommended: true,
    availabilityMode: 'full',
    policyTermsUrl: 'http://quote.test/policy-wording/polar-shield-standard',
    checkout: { purchasable: true, amountCents: 41234, currency: 'USD' },
  },
  {
    planId: 'meridian-private-charter',
    name: 'Meridian Private Charter',
    brand: 'Meridian',
    carrier: 'Meridian Specialty Insurance',
    tier: 'premium',
    premiumCents: 61875,
    currency: 'USD',
    coverage: {
      medicalExpenseLimit: 1000000,
      evacuationCoverage: 1000000,
      tripCancellationLimit: 24000,
      deductible: 0,
    },
    highlights: ['Cancel for any reason (75%)'],
    isRecommended: false,
    availabilityMode: 'inquiry',
    checkout: { purchasable: false, amountCents: 0, currency: 'USD' },
  },
] as const;
