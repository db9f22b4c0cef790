/**
 * The names of the platform's own HTTP headers, one home for each: the servers that read or write them, the browser
 * code that sends them (the widget iframe, the portal UI) and the public contracts (OpenAPI documents, the webhook
 * contract) take them from here. Part of the zod-free `@expedition/contracts/rules` entry.
 */

/** The publishable key a widget sends with every embed API call (`pk_<op>_<mode>_…`). */
export const PUBLISHABLE_KEY_HEADER = 'X-SVC-Publishable-Key';
/** The portal session's CSRF token, sent back with every state-changing request (docs/portal-api.md). */
export const PORTAL_CSRF_HEADER = 'X-CSRF-Token';
/** The signature of a `policy.issued` webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256 over "t.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-SVC-Signature';
/** The `eventId` of a `policy.issued` webhook, also in its body (docs/contract.md): receivers dedupe on it. */
export const WEBHOOK_EVENT_ID_HEADER = 'X-SVC-Event-Id';
/** The protocol's signature header on ACP order events: `t=<unix seconds>,v1=<hex HMAC-SHA256 over "t.body">`. */
export const ACP_MERCHANT_SIGNATURE_HEADER = 'Merchant-Signature';
