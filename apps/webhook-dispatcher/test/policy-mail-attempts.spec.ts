import { createSmtpMailer } from '@expedition/mail';
import { createHarness, silentLogger, type Harness } from './harness';
import { DEV_TOKENS, QUOTE_API, sell, startSmtp, testFulfillment, type TestSmtp } from './mail-harness';
import { createPolicyMailWorker } from '../src/policy-mail/policy-mail-worker';
import { policyDocumentsFor } from '../src/policy-mail/policy-documents';
import { claimDuePolicyMails } from '../src/policy-mail/policy-mail.repository';

/**
 * An attempt of a policyholder's mail cut short (the worker claimed it, then died before recording an outcome) counts
 * (policy-mail.repository.ts, claimDuePolicyMails): the mail may have gone out, so `attempts` says so, and a mail
 * whose sending kills the worker runs out of attempts. The claim of a dead worker is made here directly, then its
 * lease is left to lapse.
 */
let h: Harness;
let smtp: TestSmtp;

beforeAll(async () => {
  h = await createHarness();
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await h?.close();
});

const LEASE_MS = 30_000;

function worker() {
  return createPolicyMailWorker({
    prisma: h.prisma,
    logger: silentLogger,
    clock: h.clock,
    mailer: createSmtpMailer({ smtpUrl: smtp.url, from: 'Expedition Insurance <no-reply@expedition.test>' }),
    documents: policyDocumentsFor(h.prisma, QUOTE_API, DEV_TOKENS),
    quoteApiUrl: QUOTE_API,
    mailDomain: 'expedition.test',
    retryDelaysMs: [60_000],
    leaseMs: LEASE_MS,
    batchSize: 10,
    pollIntervalMs: 20,
  });
}

async function saleWithMail(address: string) {
  const fulfillment = testFulfillment(h.prisma, h.clock, QUOTE_API);
  return sell({ prisma: h.prisma, clock: h.clock, fulfillment }, 'embed', { quote: address });
}

const rowOf = (policyId: string) =>
  h.prisma.policyMail.findUniqueOrThrow({ where: { policyId_kind: { policyId, kind: 'confirmation' } } });

/** A worker claims every due mail and dies before sending or recording anything; its lease then lapses. */
async function claimAndDie() {
  const claimed = await claimDuePolicyMails(h.prisma, { now: h.clock.now(), leaseMs: LEASE_MS, limit: 10 });
  h.clock.advance(LEASE_MS + 1);
  return claimed;
}

describe('a policy mail whose claim lapsed (the worker died mid-attempt)', () => {
  it('is sent under the next attempt number: attempts = 2 once sent, one mail with the same Message-ID', async () => {
    const sale = await saleWithMail('cut@traveler.test');
    const [dead] = await claimAndDie();
    expect(dead).toMatchObject({ policyId: sale.policyId, attempt: 1 });
    expect(await rowOf(sale.policyId)).toMatchObject({ status: 'pending', attempts: 1 });

    expect(await worker().runOnce()).toBe(1);

    expect(await rowOf(sale.policyId)).toMatchObject({
      status: 'sent',
      attempts: 2,
      lockedUntil: null,
      messageId: `<policy-${sale.policyNumber}.confirmation@expedition.test>`,
    });
    const mails = smtp.mails.filter(
      (m) => m.messageId === `<policy-${sale.policyNumber}.confirmation@expedition.test>`,
    );
    expect(mails).toHaveLength(1);
  });

  it('counts each attempt cut short: two crashes, then the third attempt sends', async () => {
    const sale = await saleWithMail('twice@traveler.test');
    await claimAndDie();
    await claimAndDie();
    expect(await rowOf(sale.policyId)).toMatchObject({ status: 'pending', attempts: 2 });
    await worker().runOnce();
    expect(await rowOf(sale.policyId)).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('when the cut attempt was the last one: marked failed, not sent again, attempts at the maximum', async () => {
    const sale = await saleWithMail('last@traveler.test');
    await h.prisma.policyMail.update({
      where: { policyId_kind: { policyId: sale.policyId, kind: 'confirmation' } },
      data: { maxAttempts: 1 },
    });
    const before = smtp.mails.length;
    await claimAndDie();

    expect(await worker().runOnce()).toBe(1);

    const row = await rowOf(sale.policyId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sentAt: null, lockedUntil: null });
    expect(row.lastError).toMatch(/attempt 1 of 1 was cut short/);
    expect(smtp.mails.length).toBe(before);
  });
});
