import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { syncCatalog, type Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { composeEmbedApi } from '../src/compose';
import { loadConfig as loadConfigFrom } from '../src/config';
import { capturingProcessor, fullQuote, seedTenant, testClock } from './harness';

// Embedded mode keeps its processor secret under DATA_DIR: this file's own temporary folder, never the working tree.
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'embed-api-compose-'));
const loadConfig = (env: Record<string, string | undefined>) => loadConfigFrom({ DATA_DIR, ...env });

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await syncCatalog(db.prisma, catalogSnapshot());
});
afterAll(() => db.close());

const SITE = 'http://localhost:3003'; // the default widget origin: first party

async function payWith(embed: ReturnType<typeof composeEmbedApi>, key: string) {
  const quote = await request(embed.app)
    .post('/api/embed/quote')
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', SITE)
    .send(fullQuote);
  await embed.optionsWorker.runOnce();
  const options = await request(embed.app)
    .get(`/api/embed/options?quoteId=${quote.body.quoteId}`)
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', SITE);
  const planId = options.body.options.find(
    (o: { checkout: { purchasable: boolean } }) => o.checkout.purchasable,
  ).planId;
  return request(embed.app)
    .post('/api/embed/payments')
    .set('X-SVC-Publishable-Key', key)
    .set('Origin', SITE)
    .send({ quoteId: quote.body.quoteId, planId });
}

describe('composeEmbedApi: payments', () => {
  it('uses the processor the runtime passes (the launcher shares one)', async () => {
    const clock = testClock();
    const sim = capturingProcessor(clock);
    const embed = composeEmbedApi({
      config: loadConfig({}),
      db,
      logger: pino({ level: 'silent' }),
      clock,
      processor: sim.processor,
    });
    const { testKey } = await seedTenant(db.prisma);
    const res = await payWith(embed, testKey);
    expect(res.status).toBe(200);
    const confirmed = await request(embed.app)
      .post('/api/embed/payments/confirm')
      .set('X-SVC-Publishable-Key', testKey)
      .set('Origin', SITE)
      .send({ paymentId: res.body.paymentId, paymentMethod: '4242424242424242' });
    expect(confirmed.body.status).toBe('succeeded');
    expect(sim.events).toHaveLength(1);
  });

  it('builds the processor from the config otherwise (simulated by default)', async () => {
    const embed = composeEmbedApi({
      config: loadConfig({ SIMULATED_PROCESSOR_WEBHOOK_URL: 'http://127.0.0.1:9/processor/events' }),
      db,
      logger: pino({ level: 'silent' }),
      clock: testClock(),
    });
    const { testKey } = await seedTenant(db.prisma);
    const res = await payWith(embed, testKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: 'simulated', mode: 'test' });
    expect(res.body.stripePublishableKey).toBeUndefined();
  });
});
