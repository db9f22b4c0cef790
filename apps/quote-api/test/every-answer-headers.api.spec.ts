import request from 'supertest';
import { ACP_API_VERSION } from '@expedition/contracts';
import { boughtPolicy, certificate, h, usePoliciesHarness } from './policies-harness';

/** Every answer carries X-Content-Type-Options: nosniff (libs/http-kit security-headers.ts; docs/security.md). */
usePoliciesHarness();

describe('X-Content-Type-Options on every quote-api answer', () => {
  it('the certificate PDF, and a refused certificate, carry nosniff', async () => {
    const { receipt } = await boughtPolicy();
    const pdf = await certificate(receipt.documentUrl!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    const refused = await certificate(`/api/v1/policies/${receipt.policyNumber}/certificate.pdf?token=pat_wrong`);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['GET', '/api/v1/products', 200],
    ['GET', '/llms.txt', 200],
    ['GET', '/api/v1/no-such-route', 404],
    ['GET', '/no-such-page', 404],
    ['GET', '/acp/v1/checkout_sessions/acs_x', 401],
    ['GET', '/healthz', 200],
  ] as const)('%s %s (%i) carries nosniff', async (method, path, status) => {
    const res = await request(h.app)[method === 'GET' ? 'get' : 'post'](path).set('API-Version', ACP_API_VERSION);
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
