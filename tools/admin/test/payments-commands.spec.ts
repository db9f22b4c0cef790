import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import type { Keyring } from '@expedition/operators';
import { createSimulatedProcessor, simulatedBooks, type PaymentsSettings } from '@expedition/payments';
import { systemClock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { type AdminDeps, runAdmin } from '../src/run-admin';

/**
 * `payments:charges` and `payments:reconcile`: support sees what the processor charged for a quote, and resolves an
 * attempt a crashed app left unfinished, from the simulated processor's books in the database (as the apps keep them).
 */
const SECRET = 'whsec_sim_admin_payments_0123456789abcdef';
let db: Database;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'admin-payments-'));
});
afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const settings: PaymentsSettings = {
  provider: 'simulated',
  simulatedWebhookUrl: 'http://127.0.0.1:9/nobody',
  simulatedWebhookSecrets: [SECRET],
  simulatedAllowLiveMode: false,
  warnings: [],
};
const deps = (): AdminDeps => ({
  openDatabase: async () => ({ ...db, close: async () => undefined }),
  prepareDatabase: async () => undefined,
  dataDir,
  usingDatabaseUrl: false,
  demoOrigin: 'http://localhost:4200',
  demoWebhookUrl: 'http://localhost:4200/webhooks/expedition',
  webhookSecretKeys: () => [] as unknown as Keyring,
  paymentsSettings: () => settings,
});
const admin = (...argv: string[]) => runAdmin(argv, deps());

it('lists what the processor charged for a quote, then reconciles the crashed attempt into the policy', async () => {
  const { quote, estimates } = await createQuoteService({ prisma: db.prisma, clock: systemClock }).create({
    source: 'api',
    destination: 'Antarctica',
    startDate: '2027-01-10',
    durationDays: 14,
    tripCostCents: 2_400_000,
    travelers: 2,
    travelerAges: [45, 52],
    residence: 'GB',
  });
  const estimate = estimates[0]!;
  // An app charged an MPP token under the quote's attempt key and died before recording anything.
  const key = `pay_${quote.id}_a1`;
  await db.prisma.paymentClaim.create({
    data: {
      quoteId: quote.id,
      holder: 'dead',
      channel: 'mpp',
      attemptStartedAt: new Date(Date.now() - 60_000),
      processorKey: key,
      leaseUntil: new Date(Date.now() - 1),
      updatedAt: new Date(),
    },
  });
  const charged = await createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/nobody',
    webhookSecret: SECRET,
    store: simulatedBooks(db),
    fetch: async () => ({ status: 200 }),
  }).settleSharedPaymentToken({
    amountCents: estimate.premiumCents,
    currency: 'usd',
    mode: 'test',
    // Single use, and the books outlive the test database: a token of this run only.
    spt: `spt_test_success_admin_${randomUUID()}`,
    challengeId: 'acp_session_like',
    idempotencyKey: key,
    metadata: { quoteId: quote.id, planId: estimate.planId, channel: 'acp' },
  });

  const before = await admin('payments:charges', '--quote', quote.id, '--json');
  expect(before.exitCode).toBe(0);
  expect(JSON.parse(before.stdout)).toMatchObject({
    quoteId: quote.id,
    processor: 'simulated',
    charges: [{ paymentId: charged.paymentId, status: 'succeeded', recorded: null, boughtThePolicy: false }],
  });

  const reconciled = await admin('payments:reconcile', '--json');
  expect(reconciled.exitCode).toBe(0);
  expect(JSON.parse(reconciled.stdout)).toMatchObject({ attempts: { paid: 1 } });
  expect(await db.prisma.policy.count({ where: { quoteId: quote.id } })).toBe(1);

  const after = JSON.parse((await admin('payments:charges', '--quote', quote.id, '--json')).stdout);
  expect(after.charges).toEqual([
    expect.objectContaining({ paymentId: charged.paymentId, boughtThePolicy: true, recorded: expect.anything() }),
  ]);
  // Run again: nothing left to do, nothing charged or refunded.
  expect(JSON.parse((await admin('payments:reconcile', '--json')).stdout).attempts.paid).toBe(0);
});

it('refuses a quote id that is not one, and answers 1 for an unknown quote', async () => {
  expect((await admin('payments:charges', '--quote', 'nope')).exitCode).toBe(2);
  expect((await admin('payments:charges', '--quote', '00000000-0000-4000-8000-000000000000')).exitCode).toBe(1);
});
