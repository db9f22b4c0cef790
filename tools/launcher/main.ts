/**
 * `npm start`: every app in ONE process on its own port, sharing one database (PGlite under DATA_DIR unless
 * DATABASE_URL is set), in-memory rate limits and the simulated payment processor, plus the demo operator's site.
 * A composition root like each app's main.ts; nothing here runs in production.
 */
import { createDatabase, prepareDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import {
  createLogger,
  listen,
  onShutdownSignal,
  postgresAt,
  reachAtStart,
  type RunningServer,
} from '@expedition/http-kit';
import {
  createSecretBox,
  ensureDemoOperator,
  ensureDemoPortalOwner,
  ensureProviderAdmin,
  resolveWebhookSecretKeys,
} from '@expedition/operators';
import { createPaymentProcessor, simulatedBooks } from '@expedition/payments';
import { startObservability } from '@expedition/observability';
import { composeQuoteApi } from '@expedition/app-quote-api';
import { composeEmbedApi } from '@expedition/app-embed-api';
import { composeWebhookDispatcher } from '@expedition/app-webhook-dispatcher';
import { composePortal } from '@expedition/app-operator-portal';
import { composeWidgetIframe } from '@expedition/app-widget-iframe';
import { createDemoSite, DEMO_WEBHOOK_PATH } from '../demo-site/demo-site';
import { loadLauncherConfig } from './config';
import { ensureDemoAgentKey } from './demo-agent-key';

interface Started {
  name: string;
  server: RunningServer;
  note: string;
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  // The one reading of the environment: the launcher's variables and every app's config, parsed once.
  const config = loadLauncherConfig(process.env);
  const { dataDir } = config;
  const { url: demoUrl } = config.demo;
  const logger = createLogger({ name: 'launcher', level: config.logLevel });
  // One registry and one tracer for the process: METRICS_PORT serves every app's series (label `app`), traces export
  // as service `expedition` when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md).
  const obs = startObservability('expedition', process.env);
  const { observability } = obs;
  // An unreachable DATABASE_URL is one line saying where and what to check (libs/http-kit/src/start.ts).
  const postgres = postgresAt(config.databaseUrl);
  const db = await reachAtStart(postgres, logger, () => createDatabase({ databaseUrl: config.databaseUrl, dataDir }));
  const prepared = await reachAtStart(postgres, logger, () => prepareDatabase(db, { catalog: catalogSnapshot() }));
  // Seals operators' webhook secrets at rest: WEBHOOK_SECRET_KEYS, or a key generated into DATA_DIR on first start.
  const webhookSecretKeys = resolveWebhookSecretKeys({
    configured: config.webhookSecretKeys,
    embedded: config.databaseUrl === undefined,
    dataDir,
  });
  const secretBox = createSecretBox(webhookSecretKeys);
  const demoOperator = await ensureDemoOperator({
    prisma: db.prisma,
    dataDir,
    demoOrigin: demoUrl,
    webhookUrl: `${demoUrl}${DEMO_WEBHOOK_PATH}`,
    secretBox,
    // The demo site listens on localhost: allowed unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=false or NODE_ENV=production.
    allowPrivateWebhookUrls: config.apps.dispatcher.delivery.allowPrivateNetworks,
  });
  // The operator portal: its accounts service gives the demo operator a portal owner (log-in written into
  // demo-operator.json) and creates the first provider admin (log-in kept in DATA_DIR/provider-admin.json, 0600).
  const portalConfig = config.apps.portal;
  const portal = composePortal({
    config: portalConfig,
    db,
    logger: logger.child({ app: 'operator-portal' }),
    secretBox,
    observability,
  });
  const demoPortal = await ensureDemoPortalOwner({ accounts: portal.accounts, dataDir });
  const demo = { ...demoOperator, portalEmail: demoPortal.portalEmail, portalPassword: demoPortal.portalPassword };
  const providerAdmin = await ensureProviderAdmin({ accounts: portal.accounts, dataDir });
  const demoAgentKey = await ensureDemoAgentKey({ prisma: db.prisma, dataDir });

  const servers: Started[] = [];
  const workers: { stop(): Promise<void> }[] = [];
  // Registered before the first port opens: a SIGTERM that arrives while the apps are still starting (a health
  // check can already answer) stops what has started, gracefully, instead of killing the process.
  onShutdownSignal(logger, async () => {
    await Promise.all(servers.map((s) => s.server.close(5_000)));
    await Promise.all(workers.map((w) => w.stop()));
    await obs.close();
    await db.close();
  });
  const start = async (
    name: string,
    note: string,
    app: Parameters<typeof listen>[0],
    config: { port: number; host: string },
  ) => {
    servers.push({
      name,
      note,
      server: await listen(app, { port: config.port, host: config.host, logger: logger.child({ app: name }) }),
    });
  };

  const { quote: quoteConfig, embed: embedConfig, dispatcher: dispatcherConfig } = config.apps;
  // ONE processor for every app of the process: an intent created by one app (a checkout link) is the one another
  // confirms or refunds (the dispatcher refunding a second charge).
  const processor = createPaymentProcessor(quoteConfig.payments, { simulatedStore: simulatedBooks(db) });
  await start(
    'quote-api',
    'AI agents: /api/v1 (OpenAPI at /api/v1/openapi.json)',
    composeQuoteApi({ config: quoteConfig, db, logger: logger.child({ app: 'quote-api' }), processor, observability }),
    quoteConfig,
  );

  const embed = composeEmbedApi({
    config: embedConfig,
    db,
    logger: logger.child({ app: 'embed-api' }),
    processor,
    observability,
  });
  await start('embed-api', "operators' pages: /api/embed/quote, /api/embed/options", embed.app, embedConfig);
  workers.push({ stop: () => embed.keyUsage.flush() });

  // The widget server resolves keys through embed-api's cache: one process, one cache, one revocation bound.
  const widgetConfig = config.apps.widget;
  const widget = composeWidgetIframe({
    config: widgetConfig,
    db,
    logger: logger.child({ app: 'widget-iframe' }),
    keys: embed.keys,
    observability,
  });
  await start(
    'widget-iframe',
    'the embeddable widget: /widget.js, /frame, /quote (hosted Tier 1 page)',
    widget.app,
    widgetConfig,
  );

  const dispatcher = composeWebhookDispatcher({
    config: dispatcherConfig,
    db,
    logger: logger.child({ app: 'webhook-dispatcher' }),
    webhookSecretKeys,
    processor,
    observability,
    // One mail stack: the policyholders' confirmations go through the portal's mailer (SMTP_URL, or the same outbox).
    mailer: portal.mailer,
  });
  await start(
    'webhook-dispatcher',
    'processor events → policies → signed policy.issued',
    dispatcher.app,
    dispatcherConfig,
  );
  await start(
    'operator-portal',
    'operators and the provider: sign up, keys, origins, webhooks',
    portal.app,
    portalConfig,
  );

  // The demo operator's trip page mounts the real widget from WIDGET_URL (Tier 3; /?tier=2 and /?tier=1 switch).
  const site = createDemoSite({
    widgetUrl: widgetConfig.publicUrl,
    defaultTier: 3,
    publishableKey: demo.publishableKey,
    webhookSecret: demo.webhookSecret,
    operatorName: demo.name,
    logger: logger.child({ app: 'demo-site' }),
  });
  await start(
    'demo operator site',
    "a tour seller's page with the widget (Tier 3; ?tier=2, ?tier=1); receives policy.issued",
    site.app,
    {
      port: config.demo.port,
      host: config.host,
    },
  );

  const metricsUrl = await obs.listen(config.host);
  embed.optionsWorker.start();
  dispatcher.workers.start();
  workers.push(embed.optionsWorker, dispatcher.workers);

  const url = (name: string) => servers.find((s) => s.name === name)?.server.url ?? '';
  const where = db.kind === 'pglite' ? `PGlite in ${dataDir}/pglite` : 'PostgreSQL (DATABASE_URL)';
  const lines = [
    '',
    'Expedition insurance platform — every app in one process (embedded mode)',
    `  database   ${where}; ${prepared.applied.length} migration(s) applied now; ${prepared.plans} plans in the catalog`,
    `  payments   ${quoteConfig.payments.provider === 'simulated' ? 'simulated test mode (no real money moves; card 4242 4242 4242 4242 succeeds)' : 'Stripe'}`,
    `  limits     in memory${config.redisIgnored ? ' (REDIS_URL is ignored by the launcher)' : ''}`,
    '',
    ...servers.map((s) => `  ${s.name.padEnd(20)} ${s.server.url.padEnd(24)} ${s.note}`),
    ...(metricsUrl ? [`  ${'metrics'.padEnd(20)} ${metricsUrl.padEnd(24)} Prometheus, every app (label app)`] : []),
    '',
    `Demo operator "${demo.name}" (${dataDir}/demo-operator.json)`,
    `  publishable key  ${demo.publishableKey}   allowed origins ${demo.allowedOrigins.join(', ')}`,
    `  operator id      ${demo.operatorId}   (send it as "operator" in /api/v1 quotes to attribute them)`,
    `  open ${url('demo operator site')} to quote, buy with a test card and watch policy.issued arrive`,
    `  portal log-in    ${demo.portalEmail} / ${demo.portalPassword}`,
    '',
    `Operator portal ${url('operator-portal')}`,
    providerAdmin.password
      ? `  provider admin   ${providerAdmin.email} / ${providerAdmin.password}   (kept in ${providerAdmin.file})`
      : `  provider admin   ${providerAdmin.email} (password not stored here; npm run admin -- create-provider-admin makes another)`,
    portal.outboxDir
      ? `  e-mail outbox    ${url('operator-portal')}/dev/outbox   (no SMTP_URL: portal mails and policy confirmations are files in ${portal.outboxDir})`
      : '  e-mail           sent through SMTP_URL',
    '',
    `Agents: MCP ${url('quote-api')}/mcp · ACP ${url('quote-api')}/acp/v1 (docs/acp.md)`,
    `  demo agent key   ${demoAgentKey.key}   (test mode; ${demoAgentKey.file})`,
    '',
    'Try the quoting API:',
    `  curl ${url('quote-api')}/api/v1/destinations`,
    `  curl -X POST ${url('quote-api')}/api/v1/quotes -H 'Content-Type: application/json' \\`,
    `    -d '{"destination":"Antarctica","startDate":"${new Date().getUTCFullYear() + 1}-01-10","durationDays":14,"tripCost":24000,"travelers":2,"travelerAges":[45,72],"residence":"US","state":"CA"}'`,
    '',
    `Ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s. Ctrl+C stops everything; data stays in ${dataDir}/.`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

main().catch((err) => {
  console.error('Failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
