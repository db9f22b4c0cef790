import { buildPortalOpenApi, PORTAL_API_VERSION } from './portal.openapi';
import { itIsAValidOpenApi31Document } from '../../test/openapi-validity';

describe('portal API OpenAPI document', () => {
  const doc = buildPortalOpenApi({ serverUrl: 'http://localhost:3004' });

  itIsAValidOpenApi31Document(doc, '/api/portal/v1/operator/keys');

  it('covers every operator and admin route of the api map, under /api/portal/v1', () => {
    expect(doc.info.version).toBe(PORTAL_API_VERSION);
    const ops = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(ops.every((o) => o.includes(' /api/portal/v1/'))).toBe(true);
    for (const expected of [
      'GET /api/portal/v1/operator',
      'POST /api/portal/v1/operator/keys/{id}/rotate',
      'POST /api/portal/v1/operator/secret-keys',
      'DELETE /api/portal/v1/operator/origins',
      'POST /api/portal/v1/operator/origins/test',
      'GET /api/portal/v1/operator/integration',
      'POST /api/portal/v1/operator/webhook/secret/reveal',
      'POST /api/portal/v1/operator/webhook-events/{id}/resend',
      'POST /api/portal/v1/operator/webhook-events/test',
      'GET /api/portal/v1/operator/dashboard',
      'GET /api/portal/v1/operator/audit',
      'PATCH /api/portal/v1/admin/operators/{id}',
      'PUT /api/portal/v1/admin/operators/{id}/webhook',
      'POST /api/portal/v1/admin/operators/{id}/webhook/secret',
      'POST /api/portal/v1/admin/operators/{id}/webhook-events/{eventId}/resend',
      'GET /api/portal/v1/admin/audit',
      'POST /api/portal/v1/auth/signup',
    ]) {
      expect(ops).toContain(expected);
    }
  });

  it('documents 401 and 403 on every operator and admin operation, and 404 where an id is taken', () => {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      if (!path.includes('/operator') && !path.includes('/admin')) continue;
      for (const [method, operation] of Object.entries(
        item as Record<string, { responses: Record<string, unknown> }>,
      )) {
        expect([method, path, Object.keys(operation.responses)]).toEqual([
          method,
          path,
          expect.arrayContaining(['401', '403']),
        ]);
        if (path.includes('{'))
          expect([method, path, Object.keys(operation.responses)]).toEqual([
            method,
            path,
            expect.arrayContaining(['404']),
          ]);
      }
    }
  });

  describe('the hardening rules (docs/security.md, "Hardening, round two")', () => {
    const json = JSON.stringify(doc);
    const schemas = (doc.components?.schemas ?? {}) as Record<string, Record<string, any>>;
    const operation = (path: string, method: string) =>
      (doc.paths as Record<string, Record<string, any>>)[`/api/portal/v1${path}`]![method]!;

    it('declares lookAlikes on GET /admin/operators/{id}, and on the PATCH that enables embedding', () => {
      expect(schemas['AdminOperatorDetail']!['required']).toContain('lookAlikes');
      expect(schemas['AdminOperatorPatchResponse']!['properties']).toHaveProperty('lookAlikes');
      expect(schemas['AdminLookAlikeOperator']!['required']).toEqual(['id', 'name', 'status', 'embeddingEnabled']);
    });

    it.each(['SignupRequest', 'LoginRequest', 'PasswordResetRequest', 'AcceptInviteRequest', 'CreateInviteRequest'])(
      '%s refuses unknown fields (additionalProperties: false)',
      (id) => expect(schemas[id]!['additionalProperties']).toBe(false),
    );

    it('answers 403 operator_suspended on accepting an invitation, and the weak password 400 has its own body', () => {
      expect(operation('/auth/invites/accept', 'post').responses['403'].description).toMatch(/operator_suspended/);
      expect(json).toContain('"#/components/schemas/PortalWeakPasswordError"');
      expect(schemas['PortalWeakPasswordError']!['properties']['code']).toMatchObject({ const: 'weak_password' });
    });
  });
});
