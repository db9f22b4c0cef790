import { lintPublicOpenApiDocuments, publicOpenApiDocuments } from './openapi-lint';

type Operation = { security?: unknown[] };
type Document = { security?: unknown[]; info: { license?: unknown }; paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('the public OpenAPI documents (npm run openapi:lint)', () => {
  it('pass Redocly’s recommended rules with no error and no warning', () => {
    expect(lintPublicOpenApiDocuments()).toEqual({ 'quote-api': [], acp: [], portal: [] });
  });

  it('declare a licence and, for every operation, its security (an empty list for the public ones)', () => {
    const undeclared: string[] = [];
    for (const [name, raw] of Object.entries(publicOpenApiDocuments())) {
      const document = raw as Document;
      expect(document.info.license).toBeDefined();
      for (const [path, item] of Object.entries(document.paths)) {
        for (const method of METHODS.filter((m) => item[m])) {
          if (!item[method]!.security && !document.security) undeclared.push(`${name} ${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('describe the portal’s session cookie (either name) and CSRF header as security schemes, writes needing both', () => {
    const portal = publicOpenApiDocuments()['portal'] as Document & {
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(portal.components.securitySchemes).toMatchObject({
      portalSessionHttps: { type: 'apiKey', in: 'cookie', name: '__Host-svc_portal_session' },
      portalSession: { type: 'apiKey', in: 'cookie', name: 'svc_portal_session' },
      csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
    });
    const keys = portal.paths['/api/portal/v1/operator/keys']!;
    expect(keys['get']!.security).toEqual([{ portalSessionHttps: [] }, { portalSession: [] }]);
    expect(keys['post']!.security).toEqual([
      { portalSessionHttps: [], csrfToken: [] },
      { portalSession: [], csrfToken: [] },
    ]);
    expect(portal.paths['/api/portal/v1/auth/login']!['post']!.security).toEqual([]);
  });
});
