import { buildAcpOpenApi } from './acp.openapi';
import { ACP_API_VERSION, AcpCreateSessionRequestSchema, AcpUpdateSessionRequestSchema } from './acp.schema';

describe('ACP OpenAPI document', () => {
  const doc = buildAcpOpenApi({ serverUrl: 'http://localhost:3001/' });

  it('is a valid OpenAPI 3.1 document', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('serves the protocol paths under {base_url}/acp/v1 with bearer security and the dated version', () => {
    expect(doc.info.version).toBe(ACP_API_VERSION);
    expect(doc.servers).toEqual([{ url: 'http://localhost:3001/acp/v1' }]);
    expect(Object.keys(doc.paths ?? {}).sort()).toEqual([
      '/checkout_sessions',
      '/checkout_sessions/{checkout_session_id}',
      '/checkout_sessions/{checkout_session_id}/cancel',
      '/checkout_sessions/{checkout_session_id}/complete',
    ]);
    expect(doc.security).toEqual([{ bearer: [] }]);
    const create = doc.paths?.['/checkout_sessions']?.post;
    const headers = (create?.parameters ?? []).map((p) => ('name' in p ? p.name : ''));
    expect(headers).toEqual(expect.arrayContaining(['API-Version', 'Idempotency-Key', 'Request-Id']));
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual(['201', '400', '401', '403', '409', '422', '429']);
  });
});

describe('ACP request schemas', () => {
  const create = { line_items: [{ id: 'plan-a' }], currency: 'USD', capabilities: {} };

  it('take one plan in usd; currency answered lowercase', () => {
    expect(AcpCreateSessionRequestSchema.parse(create).currency).toBe('usd');
    for (const bad of [
      { ...create, line_items: [] },
      { ...create, line_items: [{ id: 'a' }, { id: 'b' }] },
      { ...create, currency: 'eur' },
      { ...create, line_items: [{ id: 'a', quantity: 2 }] },
    ]) {
      expect(AcpCreateSessionRequestSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('keep metadata scalars short and let the trip through for the quote to validate', () => {
    expect(
      AcpUpdateSessionRequestSchema.safeParse({ metadata: { trip: { destination: 'x' }, ref: 'abc' } }).success,
    ).toBe(true);
    expect(AcpUpdateSessionRequestSchema.safeParse({ metadata: { ref: { nested: true } } }).success).toBe(false);
    expect(AcpUpdateSessionRequestSchema.safeParse({ metadata: { ref: 'x'.repeat(501) } }).success).toBe(false);
  });
});
