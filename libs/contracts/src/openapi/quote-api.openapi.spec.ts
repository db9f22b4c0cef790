import { QUOTE_API_VERSION } from '../quote-api/quote-api.constants';
import { buildQuoteApiOpenApi } from './quote-api.openapi';
import { QUOTE_DISCLAIMER } from '../agent-guidance';
import { itIsAValidOpenApi31Document } from '../../test/openapi-validity';

// Made-up catalog facts: the text must be generated from what is passed in (the app passes domain-pricing's catalog).
const catalog = {
  destinations: [
    { name: 'Antarctica', defaultDurationDays: 14 },
    { name: 'Testland', defaultDurationDays: 7 },
  ],
};

describe('quote API OpenAPI document', () => {
  const doc = buildQuoteApiOpenApi({ serverUrl: 'http://localhost:3001', catalog });

  itIsAValidOpenApi31Document(doc, '/api/v1/quotes');

  it('carries version 1.0.0 and only /api/v1 paths', () => {
    expect(doc.info.version).toBe('1.0.0');
    expect(QUOTE_API_VERSION).toBe('1.0.0');
    expect(Object.keys(doc.paths ?? {}).sort()).toEqual([
      '/api/v1/checkout',
      '/api/v1/coverage-gap',
      '/api/v1/destinations',
      '/api/v1/policies/{policyNumber}',
      '/api/v1/policies/{policyNumber}/certificate.pdf',
      '/api/v1/products',
      '/api/v1/products/{planId}',
      '/api/v1/purchase',
      '/api/v1/quotes',
    ]);
  });

  it('tells an agent the rules for AI agents of docs/contract.md', () => {
    const text = doc.info.description ?? '';
    expect(text).toMatch(/destination.*departure date.*travelers.*trip cost.*residence/s);
    expect(text).toContain('expeditions: Antarctica and Testland.');
    expect(text).toContain('use the default: Antarctica 14 days, Testland 7 — and tell the user you assumed it.');
    expect(text).toMatch(/70 and over cost significantly more/);
    expect(text).toMatch(/recommended plan first/);
    expect(text).toContain(QUOTE_DISCLAIMER);
    expect(doc.paths?.['/api/v1/quotes']?.post?.description).toContain(QUOTE_DISCLAIMER);
  });

  it('leaves out the safe-integer bounds zod writes on every integer, and keeps real bounds', () => {
    expect(JSON.stringify(doc)).not.toContain('9007199254740991');
    const schemas = doc.components?.schemas as Record<string, { properties: Record<string, object> }>;
    expect(schemas['PaymentProblem']!.properties['status']).toEqual({
      type: 'integer',
      minimum: 400,
      maximum: 599,
      description: expect.any(String),
    });
  });

  it('documents every status of the spec for each operation', () => {
    const statuses = (path: string, method: 'get' | 'post') =>
      Object.keys((doc.paths?.[path] as Record<string, { responses: object }>)[method]!.responses);
    expect(statuses('/api/v1/products/{planId}', 'get')).toEqual(expect.arrayContaining(['200', '404']));
    expect(statuses('/api/v1/quotes', 'post')).toEqual(expect.arrayContaining(['200', '400']));
    expect(statuses('/api/v1/purchase', 'post')).toEqual(expect.arrayContaining(['200', '400', '402', '404']));
    expect(statuses('/api/v1/checkout', 'post')).toEqual(expect.arrayContaining(['200']));
  });

  it('documents the policy look-up and certificate behind the policy token, with the same 404 for both', () => {
    const schemes = doc.components?.securitySchemes as Record<
      string,
      { type: string; scheme?: string; in?: string; name?: string }
    >;
    expect(schemes['policyAccessToken']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes['policyAccessTokenQuery']).toMatchObject({ type: 'apiKey', in: 'query', name: 'access_token' });
    const lookup = doc.paths?.['/api/v1/policies/{policyNumber}']?.get;
    const certificate = doc.paths?.['/api/v1/policies/{policyNumber}/certificate.pdf']?.get;
    expect(lookup?.security).toEqual([{ policyAccessToken: [] }]);
    expect(Object.keys(lookup?.responses ?? {}).sort()).toEqual(['200', '401', '404', '429']);
    expect(
      Object.keys(
        certificate?.responses?.['200'] && 'content' in certificate.responses['200']
          ? (certificate.responses['200'].content ?? {})
          : {},
      ),
    ).toEqual(['application/pdf']);
    expect(certificate?.responses?.['404']).toEqual(lookup?.responses?.['404']);
    const receipt = (doc.components?.schemas as Record<string, { properties: Record<string, object> }>)[
      'PurchaseReceipt'
    ]!;
    expect(Object.keys(receipt.properties)).toEqual(
      expect.arrayContaining(['policyNumber', 'accessToken', 'documentUrl']),
    );
  });
});
