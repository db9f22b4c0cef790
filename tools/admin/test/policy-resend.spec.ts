import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { type Database, prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createFulfillment, type FulfillmentDeps } from '@expedition/fulfillment';
import type { Keyring } from '@expedition/operators';
import { createQuoteService } from '@expedition/quoting';
import { type AdminDeps, runAdmin } from '../src/run-admin';

/** `policy:resend-confirmation`: the provider queues a policy's confirmation e-mail again, audited. */

let db: Database;
let dataDir: string;
const NOW = new Date('2026-11-27T10:00:00Z');
const clock = { now: () => NOW };

beforeAll(async () => {
  db = await createTestDatabase();
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'admin-resend-'));
});
afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function deps(): AdminDeps {
  return {
    openDatabase: async () => ({ ...db, close: async () => undefined }),
    prepareDatabase: async () => undefined,
    dataDir,
    usingDatabaseUrl: false,
    demoOrigin: 'http://localhost:4200',
    demoWebhookUrl: 'http://localhost:4200/webhooks/expedition',
    webhookSecretKeys: () => [] as unknown as Keyring,
    clock,
  };
}
const admin = (...argv: string[]) => runAdmin(argv, deps());

let serial = 0;
async function issuedPolicy(email: string | null) {
  const { quote, estimates } = await createQuoteService({ prisma: db.prisma, clock }).create({
    source: 'api',
    destination: 'Antarctica',
    startDate: '2027-01-10',
    durationDays: 14,
    tripCostCents: 2_400_000,
    travelers: 1,
    travelerAges: [40],
    residence: 'GB',
    email,
  });
  const fulfillment = createFulfillment({
    prisma: db.prisma,
    clock,
    logger: pino({ level: 'silent' }),
    processorName: 'simulated',
    refunds: { refund: async () => 'not_pending', sweep: async () => 0 } as unknown as FulfillmentDeps['refunds'],
  });
  const outcome = await fulfillment.recordSucceededPayment({
    paymentId: `pi_resend_${++serial}`,
    amountCents: estimates[0]!.premiumCents,
    currency: 'USD',
    mode: 'test',
    quoteId: quote.id,
    planId: estimates[0]!.planId,
    channel: 'mpp',
  });
  if (outcome.kind !== 'policy_issued') throw new Error(outcome.kind);
  return outcome;
}
const mailOf = (policyId: string) => db.prisma.policyMail.findFirstOrThrow({ where: { policyId } });

describe('admin CLI: policy:resend-confirmation', () => {
  it('queues a sent mail again with a new resend number (a new Message-ID) and writes an audit entry without the address', async () => {
    const policy = await issuedPolicy('resend@traveler.test');
    await db.prisma.policyMail.updateMany({
      where: { policyId: policy.policyId },
      data: { status: 'sent', attempts: 1, sentAt: NOW, messageId: '<m@x>' },
    });

    const result = await admin('policy:resend-confirmation', policy.policyNumber);

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Queued the confirmation e-mail of ${policy.policyNumber} again (resend 1)`);
    expect(await mailOf(policy.policyId)).toMatchObject({
      status: 'pending',
      attempts: 0,
      resends: 1,
      sentAt: null,
      messageId: null,
      recipient: 'resend@traveler.test',
    });
    const audit = await db.prisma.auditEntry.findFirstOrThrow({
      where: { action: 'policy.confirmation_resent', targetId: policy.policyNumber },
    });
    expect(audit).toMatchObject({
      actorRole: 'cli',
      targetType: 'policy',
      before: { status: 'sent' },
      after: { status: 'pending', resends: 1, newAddress: false },
    });
    expect(JSON.stringify(audit)).not.toContain('resend@traveler.test');
  });

  it('leaves a mail that is still waiting alone (a second queueing could send it twice) and audits nothing', async () => {
    const policy = await issuedPolicy('waiting@traveler.test');
    const result = await admin('policy:resend-confirmation', policy.policyNumber);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('already waiting to be sent');
    expect(await mailOf(policy.policyId)).toMatchObject({ status: 'pending', resends: 0 });
    expect(await db.prisma.auditEntry.count({ where: { targetId: policy.policyNumber } })).toBe(0);
  });

  it('needs an address for a policy bought without one: --to gives it; a bad --to is a usage error that writes nothing', async () => {
    const policy = await issuedPolicy(null);
    expect((await admin('policy:resend-confirmation', policy.policyNumber)).stdout).toContain(
      'No e-mail address is known',
    );
    expect((await admin('policy:resend-confirmation', policy.policyNumber, '--to', 'not-an-address')).exitCode).toBe(2);
    expect(await mailOf(policy.policyId)).toMatchObject({ status: 'no_address', recipient: null });

    const result = await admin('policy:resend-confirmation', policy.policyNumber, '--to', 'late@traveler.test');
    expect(result.exitCode).toBe(0);
    expect(await mailOf(policy.policyId)).toMatchObject({ status: 'pending', recipient: 'late@traveler.test' });
  });

  it('says so for an unknown policy number', async () => {
    const result = await admin('policy:resend-confirmation', 'POL-2026-NOSUCH');
    expect(result).toMatchObject({ exitCode: 1 });
    expect(result.stdout).toContain('No policy POL-2026-NOSUCH.');
  });
});
