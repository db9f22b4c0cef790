/**
 * `npm run mcp`: the quote-api MCP server over stdio, for desktop agents. Configured by the quote-api's environment
 * (DATABASE_URL or DATA_DIR, QUOTE_API_URL for checkout links, PAYMENTS_PROVIDER…). stdout carries the protocol;
 * errors and logs go to stderr. An entry point of the quote-api (a second `bin` beside main.ts).
 */
import { ConfigError } from '@expedition/platform';
import { runMcpStdio } from './mcp.stdio';

runMcpStdio().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
