import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { prepareDatabase, type Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { listen, type RunningServer } from '@expedition/http-kit';
import { createSecretBox, ensureDemoOperator, resolveWebhookSecretKeys } from '@expedition/operators';
import {
  createInMemorySimulatedPaymentStore,
  createSimulatedProcessor,
  type InMemorySimulatedPaymentStore,
  type SimulatedProcessor,
} from '@expedition/payments';
import { hashToken, randomToken, systemClock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { composeEmbedApi, loadEmbedApiConfig, type EmbedApi } from '@expedition/app-embed-api';
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';
import {
  composeWebhookDispatcher,
  loadDispatcherConfig,
  type ComposedDispatcher,
} from '@expedition/app-webhook-dispatcher';

/**
 * The money path of the whole platform in one process: quote-api, embed-api and the dispatcher on one database and
 * ONE simulated processor, whose books (`store`) are the processor's own ("charges at the processor"). The simulated
 * processor reports every result to the dispatcher's intake on a loopback port, signed, as in production.
 */
export interface MoneyPlatform {
  db: Database;
  store: InMemorySimulatedPaymentStore;
  processor: SimulatedProcessor;
  quoteApi: ReturnType<typeof composeQuoteApi>;
  embed: EmbedApi;
  dispatcher: ComposedDispatcher;
  demo: Awaited<ReturnType<typeof ensureDemoOperator>>;
  secret: string;
  close(): Promise<void>;
}

export const SITE = 'http://site.test';
const silent = pino({ level: 'silent' });

export async function startMoneyPlatform(
  options: {
    wrap?: (processor: SimulatedProcessor) => SimulatedProcessor;
    /** Every processor event is lost on its way (the intake never hears of a payment). */
    dropEvents?: boolean;
  } = {},
): Promise<MoneyPlatform> {
  const secret = `whsec_sim_money_platform_${randomToken('s', 16)}`;
  const db = await createTestDatabase();
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'money-platform-'));
  const env = { DATA_DIR: dataDir, SIMULATED_PROCESSOR_WEBHOOK_SECRET: secret, LOG_LEVEL: 'silent' };
  const store = createInMemorySimulatedPaymentStore();
  const keys = resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir });
  let intakeUrl = '';
  const real = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unset',
    webhookSecret: secret,
    store,
    fetch: async (url, init) => (options.dropEvents ? { status: 200 } : fetch(intakeUrl || url, init)),
  });
  const processor = options.wrap ? options.wrap(real) : real;
  const dispatcher = composeWebhookDispatcher({
    config: loadDispatcherConfig(env),
    db,
    logger: silent,
    webhookSecretKeys: keys,
    processor,
  });
  const server: RunningServer = await listen(dispatcher.app, { port: 0, host: '127.0.0.1' });
  intakeUrl = `${server.url}/processor/events`;
  const quoteApi = composeQuoteApi({
    config: loadQuoteApiConfig({ ...env, MPP_NETWORK_ID: 'profile_test' }),
    db,
    logger: silent,
    processor,
  });
  const embed = composeEmbedApi({ config: loadEmbedApiConfig(env), db, logger: silent, processor });
  const demo = await ensureDemoOperator({
    prisma: db.prisma,
    dataDir,
    demoOrigin: SITE,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    secretBox: createSecretBox(keys),
  });
  return {
    db,
    store,
    processor,
    quoteApi,
    embed,
    dispatcher,
    demo,
    secret,
    async close() {
      await server.close();
      await db.close();
    },
  };
}

/** A quote of the demo operator that every channel can pay: estimates for links and MPP, ready options for Tier 3. */
export async function payableQuote(p: MoneyPlatform) {
  const created = await createQuoteService({ prisma: p.db.prisma, clock: systemClock }).create({
    source: 'embed',
    operatorId: p.demo.operatorId,
    mode: 'test',
    destination: 'Antarctica',
    startDate: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
    durationDays: 14,
    tripCostCents: 2_400_000,
    travelers: 2,
    travelerAges: [45, 52],
    residence: 'GB',
  });
  await p.embed.optionsWorker.runOnce();
  const option = await p.db.prisma.quoteOption.findFirstOrThrow({
    where: { quoteId: created.quote.id },
    orderBy: { rank: 'asc' },
  });
  return {
    quoteId: created.quote.id,
    sessionId: created.sessionId,
    planId: option.planId,
    premiumCents: option.premiumCents,
  };
}

/** An agent platform's ACP key (no signing key: its requests need no signature). */
export async function acpKey(p: MoneyPlatform): Promise<string> {
  const secret = randomToken('acpk_test', 32);
  await p.db.prisma.agentKey.create({
    data: { name: 'Crash platform', mode: 'test', prefix: secret.slice(0, 16), hash: hashToken(secret) },
  });
  return secret;
}

/** What the processor's own books say of a quote: charges made, and charges kept (made and not refunded). */
export function chargesAtProcessor(store: InMemorySimulatedPaymentStore, quoteId: string) {
  const charged = store
    .all()
    .filter((r) => r.intent.metadata['quoteId'] === quoteId && r.intent.status === 'succeeded');
  const refunded = (r: (typeof charged)[number]) => (r.refunds ?? []).reduce((sum, x) => sum + x.amount, 0);
  return {
    made: charged.map((r) => r.intent.id),
    kept: charged.filter((r) => refunded(r) < r.intent.amount).map((r) => r.intent.id),
  };
}
