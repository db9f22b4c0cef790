import type { QuoteApiServices } from '../quote-api.services';

/**
 * What the MCP tools call: quote-api's use cases, the very instances behind /api/v1 and /acp/v1 (never HTTP to
 * ourselves), built once by createQuoteApiServices for the HTTP endpoint at /mcp and for the stdio entry alike.
 */
export type McpServices = Pick<
  QuoteApiServices,
  'logger' | 'logFailure' | 'publicUrl' | 'metrics' | 'catalog' | 'quotes' | 'checkout' | 'purchases' | 'policies'
>;
