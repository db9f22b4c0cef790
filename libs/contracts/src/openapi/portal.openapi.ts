import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { API_LICENSE } from './document-info';
import { PORTAL_SECURITY, PORTAL_SECURITY_SCHEMES, portalAuthPaths } from './portal-auth.paths';
import { adminPaths } from './portal-admin.paths';
import { operatorPaths } from './portal-operator.paths';

/** Version of the portal API's contract (`info.version`); paths are prefixed `/api/portal/v1`. */
export const PORTAL_API_VERSION = '1.1.0';

/**
 * Every operation declares its security: as given (the public account routes), else a read needs the session cookie
 * and a write also the CSRF header (and an Origin equal to the portal's, which OpenAPI cannot express).
 */
function withSecurity(paths: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const secured = { ...item };
      for (const method of methods) {
        const operation = item[method];
        if (!operation || operation.security) continue;
        secured[method] = {
          ...operation,
          security: method === 'get' ? PORTAL_SECURITY.session : PORTAL_SECURITY.sessionAndCsrf,
        };
      }
      return [path, secured];
    }),
  );
}

/** The OpenAPI 3.1 document served at /api/portal/v1/openapi.json: accounts and team, operator and admin routes. */
export function buildPortalOpenApi(options: { serverUrl?: string } = {}) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Expedition Travel Insurance — Operator portal API',
      version: PORTAL_API_VERSION,
      description: [
        'The JSON API behind the operator portal: accounts, team, keys, allowed origins, integration snippets, the',
        'webhook delivery log and the provider admin. Cookie session (__Host-svc_portal_session behind https,',
        'svc_portal_session over plain-HTTP development); every POST/PUT/PATCH/DELETE',
        'sends X-CSRF-Token (from GET /auth/session) and an Origin equal to the portal. Request bodies are strict: a',
        'field the contract does not name is 400 invalid_request. Errors are',
        "`{ error, code, details?, requestId? }`. Another operator's data is always 404. Dates are RFC 3339; money is",
        'integer minor units. Ignore response fields you do not know: new optional fields are added without notice.',
      ].join(' '),
      license: API_LICENSE,
    },
    servers: options.serverUrl ? [{ url: options.serverUrl }] : undefined,
    components: { securitySchemes: PORTAL_SECURITY_SCHEMES },
    tags: [
      { name: 'accounts', description: 'Sign-up, log-in, sessions, passwords.' },
      { name: 'team', description: 'Owners, members and invitations.' },
      {
        name: 'operator',
        description: "The operator's own keys, origins, integration, webhook log, dashboard and audit.",
      },
      { name: 'admin', description: 'Provider admins: onboarding and oversight of every operator.' },
    ],
    paths: withSecurity({ ...portalAuthPaths, ...operatorPaths, ...adminPaths }),
  });
}
