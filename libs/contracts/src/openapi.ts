/**
 * `@expedition/contracts/openapi`: the OpenAPI 3.1 document of /api/v1, built from the contracts' zod schemas.
 * A separate entry so that importing a schema does not pull zod-openapi in; only the app that serves the document
 * (quote-api) and the contract checks import it.
 */
export { buildQuoteApiOpenApi } from './openapi/quote-api.openapi';
export { buildPortalOpenApi } from './openapi/portal.openapi';
export { buildAcpOpenApi } from './acp/acp.openapi';
