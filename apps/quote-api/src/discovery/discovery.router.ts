import { Router, type Response } from 'express';
import {
  agentRules,
  describeDestinations,
  QUOTE_API_SANDBOX,
  QUOTE_API_LIMITS,
  type AgentCatalog,
} from '@expedition/contracts';

/** RFC 9727: the catalog's media type, with the profile that says it is an API catalog. */
const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
const API_CATALOG_PATH = '/.well-known/api-catalog';
const LLMS_TXT_PATH = '/llms.txt';
const MCP_PATH = '/mcp';
const OPENAPI_PATH = '/api/v1/openapi.json';
const ACP_PATH = '/acp/v1';
const ACP_OPENAPI_PATH = `${ACP_PATH}/openapi.json`;

/** The `Link` header that points at the catalog (RFC 9727 §3), sent with both discovery documents. */
const apiCatalogLink = (publicUrl: string) => `<${publicUrl}${API_CATALOG_PATH}>; rel="api-catalog"`;

/**
 * The API catalog (RFC 9727): an RFC 9264 linkset. The first context is the catalog itself, listing each API as an
 * `item`; then one context per API with its machine-readable description (`service-desc`), its documentation for
 * people and agents (`service-doc`) and its status (`status`): /api/v1, the MCP server, and the Agentic Commerce
 * Protocol's checkout sessions (/acp/v1).
 */
function buildApiCatalog(publicUrl: string) {
  const api = `${publicUrl}/api/v1`;
  const mcp = `${publicUrl}${MCP_PATH}`;
  const acp = `${publicUrl}${ACP_PATH}`;
  const doc = [{ href: `${publicUrl}${LLMS_TXT_PATH}`, type: 'text/plain' }];
  const status = [{ href: `${publicUrl}/healthz`, type: 'application/json' }];
  return {
    linkset: [
      {
        anchor: `${publicUrl}${API_CATALOG_PATH}`,
        item: [
          { href: api, title: 'Quoting API' },
          { href: mcp, title: 'MCP server' },
          { href: acp, title: 'Agentic Commerce Protocol checkout' },
        ],
      },
      {
        anchor: api,
        'service-desc': [{ href: `${publicUrl}${OPENAPI_PATH}`, type: 'application/vnd.oai.openapi+json;version=3.1' }],
        'service-doc': doc,
        status,
      },
      { anchor: mcp, 'service-doc': doc, status },
      {
        anchor: acp,
        'service-desc': [
          { href: `${publicUrl}${ACP_OPENAPI_PATH}`, type: 'application/vnd.oai.openapi+json;version=3.1' },
        ],
        'service-doc': doc,
        status,
      },
    ],
  };
}

/**
 * /llms.txt (llmstxt.org): an H1, a blockquote summary, free text without headings (the rules for agents, generated
 * from the contracts; conventions; sandbox values), then H2 sections that are lists of links.
 */
function buildLlmsTxt(publicUrl: string, catalog: AgentCatalog): string {
  const rules = agentRules(catalog).map((rule, i) => `${i + 1}. ${rule}`);
  const s = QUOTE_API_SANDBOX;
  return [
    '# Expedition Travel Insurance',
    '',
    `> Quotes and sells travel insurance for polar and safari expeditions (${describeDestinations(catalog)}), built to be ` +
      'called by AI agents on behalf of a traveler: list destinations and plans, create a quote, compare a credit card, ' +
      'then hand the traveler a 30-minute checkout link (it charges nothing; the person pays there) or pay by machine ' +
      'payment (HTTP 402, MPP "Payment" scheme).',
    '',
    'Rules for AI agents:',
    '',
    ...rules,
    '',
    'Conventions:',
    '',
    `- No authentication. ${QUOTE_API_LIMITS.requestsPerMinutePerClient} requests per minute per client (429 with ` +
      'Retry-After beyond that). Errors are `{ "error", "code", "details"? }`.',
    '- After the sale, the traveler gets one confirmation e-mail (certificate attached, link to the policy page) at the ' +
      "quote's `email` or the address typed on the checkout page; with no address, no e-mail is sent: give the " +
      'traveler the policy number and `documentUrl`.',
    '- A quote holds its premiums until its `expiresAt` (30 days, or the departure if sooner). After that, checkout ' +
      'and purchase answer 410 `quote_expired`: create a new quote; nothing is repriced silently.',
    '- Send `Idempotency-Key` (a new UUID per intended action) on POST /api/v1/checkout and POST /api/v1/purchase; ' +
      'a retry with the same key and body gets the same answer, the same key with another body is 422.',
    '',
    'Sandbox inputs (test mode, the default; a live deployment treats them normally):',
    '',
    `- Quote refused on purpose: \`tripCost\` exactly ${s.quoteRefusal.tripCost}, or \`email\` ` +
      `\`${s.quoteRefusal.email}\` → 400 \`invalid_request\` whose message starts "Sandbox:".`,
    `- Payment declined: on the checkout page the card ${s.declinedCard}; on POST /api/v1/purchase a Shared ` +
      `Payment Token starting \`${s.declinedSptPrefix}\` → 402 \`verification-failed\`. Any other \`spt_test_…\` ` +
      `token and the card ${s.successCard} succeed.`,
    `- ACP (${ACP_PATH}, test agent keys): complete with a Shared Payment Token starting \`${s.declinedSptPrefix}\` → ` +
      'the session stays open with a `payment_declined` message; any other `spt_test_…` token completes it.',
    '',
    '## API',
    '',
    `- [OpenAPI 3.1 document of /api/v1](${publicUrl}${OPENAPI_PATH}): every operation, schema, status code and header`,
    `- [MCP server](${publicUrl}${MCP_PATH}): Streamable HTTP; the same operations as MCP tools`,
    `- [ACP checkout sessions, OpenAPI 3.1](${publicUrl}${ACP_OPENAPI_PATH}): Agentic Commerce Protocol at ${publicUrl}${ACP_PATH} ` +
      '(Bearer agent key from the provider; one plan for one trip per session; pays with a Shared Payment Token)',
    `- [API catalog](${publicUrl}${API_CATALOG_PATH}): RFC 9727 linkset of the APIs above`,
    '',
  ].join('\n');
}

/** GET (and HEAD) /llms.txt and /.well-known/api-catalog; public, cacheable for 5 minutes like the OpenAPI document. */
export function discoveryRouter(deps: { publicUrl: string; catalog: AgentCatalog }): Router {
  const router = Router();
  const llms = buildLlmsTxt(deps.publicUrl, deps.catalog);
  const catalog = JSON.stringify(buildApiCatalog(deps.publicUrl));
  const link = apiCatalogLink(deps.publicUrl);

  // Express answers HEAD with GET's headers and no body, as RFC 9727 §2 asks of the catalog.
  router.get(LLMS_TXT_PATH, (_req, res) => {
    publicHeaders(res, link);
    res.type('text/plain; charset=utf-8').send(llms);
  });
  router.get(API_CATALOG_PATH, (_req, res) => {
    publicHeaders(res, link);
    res.setHeader('Content-Type', API_CATALOG_TYPE);
    res.send(catalog);
  });
  return router;
}

/** Public documents: any origin may read them (an agent in a browser), cached 5 minutes, pointing at the catalog. */
function publicHeaders(res: Response, link: string): void {
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Link', link);
}
