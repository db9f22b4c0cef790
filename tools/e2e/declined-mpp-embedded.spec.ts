import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { prepareDatabase, type Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { listen, type RunningServer } from '@expedition/http-kit';
import { resolveWebhookSecretKeys } from '@expedition/operators';
import {
  createSimulatedProcessor,
  formatAuthorizationPayment,
  parsePaymentChallenges,
  type EventDeliveryResult,
  type SimulatedProcessor,
} from '@expedition/payments';
import { composeQuoteApi, loadQuoteApiConfig } from '@expedition/app-quote-api';
import { composeWebhookDispatcher, loadDispatcherConfig } from '@expedition/app-webhook-dispatcher';

/**
 * Embedded mode has ONE database connection (PGlite): a declined machine payment's failure event must be recorded
 * by the dispatcher without waiting on a second connection (it once deadlocked for 20 s per delivery, answering 500).
 */
const SECRET = 'whsec_sim_declined_mpp_embedded_0123456789abcdef';
let db: Database;
let dispatcher: RunningServer;
let processor: SimulatedProcessor;
let quoteApi: ReturnType<typeof composeQuoteApi>;
const deliveries: EventDeliveryResult[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ kind: 'pglite' });
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'declined-mpp-'));
  const env = { DATA_DIR: dataDir, SIMULATED_PROCESSOR_WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'silent' };
  let intakeUrl = '';
  processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/unset',
    webhookSecret: SECRET,
    fetch: (url, init) => fetch(intakeUrl || url, init),
    delivery: { maxAttempts: 1, onResult: (r) => deliveries.push(r) },
  });
  const keys = resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir });
  const composed = composeWebhookDispatcher({
    config: loadDispatcherConfig(env),
    db,
    logger: pino({ level: 'silent' }),
    webhookSecretKeys: keys,
    processor,
  });
  dispatcher = await listen(composed.app, { port: 0, host: '127.0.0.1' });
  intakeUrl = `${dispatcher.url}/processor/events`;
  quoteApi = composeQuoteApi({ config: loadQuoteApiConfig(env), db, logger: pino({ level: 'silent' }), processor });
});
afterAll(async () => {
  await dispatcher?.close();
  await db?.close();
});

it('a declined MPP payment answers 402 and its failure event is recorded (200), on PGlite', async () => {
  const quote = await request(quoteApi)
    .post('/api/v1/quotes')
    .send({
      destination: 'Antarctica',
      startDate: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
      durationDays: 14,
      tripCost: 24000,
      travelers: 2,
      travelerAges: [45, 52],
      residence: 'GB',
    });
  const body = { quoteId: quote.body.quoteId as string, planId: quote.body.plans[0].planId as string };
  const unpaid = await request(quoteApi).post('/api/v1/purchase').send(body);
  const challenge = parsePaymentChallenges(unpaid.headers['www-authenticate'] as string)[0]!;
  const declined = await request(quoteApi)
    .post('/api/v1/purchase')
    .set('Authorization', formatAuthorizationPayment({ challenge, payload: { spt: 'spt_test_decline_embedded' } }))
    .send(body);
  expect(declined.status).toBe(402);
  expect(deliveries.map((d) => d.delivered)).toEqual([true]);
  expect(await db.prisma.payment.count({ where: { quoteId: body.quoteId, status: 'failed' } })).toBe(1);
  // The quote can still be bought, and the quoting API still answers.
  expect(
    (
      await request(quoteApi)
        .post('/api/v1/quotes')
        .send({
          destination: 'Arctic',
          startDate: new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10),
          durationDays: 10,
          tripCost: 9000,
          travelers: 1,
          travelerAges: [40],
          residence: 'GB',
        })
    ).status,
  ).toBe(200);
});
