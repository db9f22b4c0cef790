import pino from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serviceDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createPolicyTokens } from '@expedition/fulfillment';
import { createPaymentProcessor } from '@expedition/payments';
import { createRateLimiter, systemClock, type Env } from '@expedition/platform';
import { DEV_MPP_SECRET, loadConfig } from '../config';
import { createMcpServer } from './mcp.server';
import { createMcpServices } from './mcp.services';

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
  const clock = systemClock;
  // The same settings composeQuoteApi gives createApp (compose.ts), so a challenge from here verifies there too.
  const services = createMcpServices({
    prisma: db.prisma,
    ready: () => db.ping(),
    logger,
    clock,
    publicUrl: config.publicUrl,
    rateLimiter: createRateLimiter({ points: config.rateLimitPerMinute, durationSec: 60 }),
    mode: config.mode,
    policyTokens: createPolicyTokens(config.policyTokens),
    payments: {
      processor: createPaymentProcessor(config.payments, { clock }),
      mpp: {
        secrets: [
          config.mpp.secret ?? DEV_MPP_SECRET,
          ...(config.mpp.previousSecret ? [config.mpp.previousSecret] : []),
        ],
        realm: new URL(config.publicUrl).host,
        networkId: config.mpp.networkId,
        paymentMethodTypes: ['card'],
        challengeTtlMs: config.mpp.challengeTtlMs,
      },
    },
  });
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
