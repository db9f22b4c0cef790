import type { PolicyLookup } from '@expedition/contracts';
import { renderCertificate } from './certificate.pdf';

const samplePolicy = (over: Partial<PolicyLookup> = {}): PolicyLookup => ({
  policyNumber: 'POL-2027-ABCDEF',
  status: 'issued',
  mode: 'test',
  quoteNumber: 'Q-2027-000001',
  plan: { planId: 'plan-x', planName: 'Plan X', carrier: 'Carrier' },
  trip: {
    destination: 'Antarctica',
    destinationSlug: 'antarctica',
    startDate: '2027-01-10',
    endDate: '2027-01-24',
    durationDays: 15,
  },
  travelers: { count: 1, ages: [40] },
  premiumCents: 12345,
  currency: 'USD',
  issuedAt: '2026-12-01T10:00:00.000Z',
  documentUrl: 'http://quote.test/api/v1/policies/POL-2027-ABCDEF/certificate.pdf?access_token=pat_x',
  disclaimer: 'd',
  ...over,
});

describe('renderCertificate', () => {
  it('gives the same PDF bytes for the same policy (dates come from issuedAt, not the clock)', async () => {
    const a = await renderCertificate(samplePolicy());
    const b = await renderCertificate(samplePolicy());
    expect(a.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(a.equals(b)).toBe(true);
  });
});
