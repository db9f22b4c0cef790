import pino from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serviceDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import type { Env } from '@expedition/platform';
import { loadConfig } from '../config';
import { quoteApiDeps } from '../quote-api.runtime';
import { createQuoteApiServices } from '../quote-api.services';
import { createMcpServer } from './mcp.server';

/**
 * The MCP server over stdio, for desktop agents: the same tools and services as /mcp, on the database the config
 * names (DATABASE_URL, or PGlite under DATA_DIR, as `npm start`). stdout is the protocol: logs go to stderr.
 */
export async function runMcpStdio(env: Env = process.env): Promise<void> {
  const config = loadConfig(env);
  const logger = pino(
    { name: 'quote-api-mcp', level: config.logLevel, base: { service: 'quote-api-mcp' } },
    pino.destination(2),
  );
  for (const warning of config.payments.warnings) logger.warn(warning);
  // Built (dist/apps/quote-api/mcp.js): the migrations copied beside the bundle; from source: the repository's.
  const database = serviceDatabase(config, { catalog: catalogSnapshot, mainDir: __dirname });
  const db = await database.open();
  await database.prepare(db);
  // The wiring of the HTTP app (quote-api.runtime.ts), so a challenge from here verifies there too.
  const services = createQuoteApiServices(quoteApiDeps({ config, db, logger }));
  const server = createMcpServer(services);
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    await db.close();
    process.exit(0);
  };
  transport.onclose = () => void shutdown();
  process.stdin.on('end', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await server.connect(transport);
  logger.info({ db: db.kind, publicUrl: config.publicUrl }, 'quote-api MCP server on stdio');
}
