import request from 'supertest';
import { composeWebhookDispatcher, loadDispatcherConfig } from '../src';
import { silentLogger, TEST_WEBHOOK_KEY_A } from './harness';
import { signEvent } from './processor-events';
import { createTestDatabase } from '@expedition/db/testing';
import type { Database } from '@expedition/db';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

describe('composeWebhookDispatcher', () => {
  it('builds the app with the configured processor, and workers that start and stop', async () => {
    const config = loadDispatcherConfig({
      SIMULATED_PROCESSOR_WEBHOOK_SECRET: 'whsec_compose_0123456789abcdef0123456789abcdef',
      WEBHOOK_WORKERS: '3',
      WEBHOOK_POLL_INTERVAL_MS: '10',
      WEBHOOK_SECRET_KEYS: TEST_WEBHOOK_KEY_A,
    });
    const { app, workers } = composeWebhookDispatcher({ config, db, logger: silentLogger });

    expect((await request(app).get('/readyz')).status).toBe(200);
    const other = {
      id: 'evt_compose_1',
      object: 'event',
      type: 'charge.updated',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: {} },
    };
    const good = signEvent(other, Math.floor(Date.now() / 1000), 'whsec_compose_0123456789abcdef0123456789abcdef');
    const bad = signEvent(other, Math.floor(Date.now() / 1000), 'whsec_other');
    const post = (s: typeof good) =>
      request(app).post('/processor/events').set('Stripe-Signature', s.header).send(s.body);
    expect((await post(bad)).status).toBe(400);
    expect((await post(good)).status).toBe(200);

    expect(workers.workers).toHaveLength(3);
    workers.start();
    await workers.stop();
  });

  it('with PAYMENTS_PROVIDER=stripe the simulated intake does not exist: only Stripe endpoint secrets are accepted', async () => {
    const simulatedSecret = 'whsec_sim_0123456789abcdef0123456789abcdef';
    const config = loadDispatcherConfig({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_TEST_SECRET_KEY: 'sk_test_compose',
      STRIPE_WEBHOOK_SECRET: 'whsec_stripe_endpoint',
      SIMULATED_PROCESSOR_WEBHOOK_SECRET: simulatedSecret,
      WEBHOOK_WORKERS: '0',
    });
    expect(config.payments.simulatedWebhookSecrets).toEqual([]);
    const { app } = composeWebhookDispatcher({ config, db, logger: silentLogger });
    const other = {
      id: 'evt_compose_2',
      object: 'event',
      type: 'charge.updated',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: {} },
    };
    const post = (s: ReturnType<typeof signEvent>) =>
      request(app).post('/processor/events').set('Stripe-Signature', s.header).send(s.body);
    expect((await post(signEvent(other, Math.floor(Date.now() / 1000), simulatedSecret))).status).toBe(400);
    expect((await post(signEvent(other, Math.floor(Date.now() / 1000), 'whsec_stripe_endpoint'))).status).toBe(200);
  });
});
