import { Writable } from 'node:stream';
import pino from 'pino';
import type { PaymentChannel } from '@expedition/db';
import type { Fulfillment } from '@expedition/fulfillment';
import { createSmtpMailer, type Mailer } from '@expedition/mail';
import { createMetrics } from '@expedition/observability';
import { createHarness, silentLogger, type Harness } from './harness';
import { deadUrl } from './receiver';
import { DEV_TOKENS, pdfText, QUOTE_API, sell, startSmtp, testFulfillment, type TestSmtp } from './mail-harness';
import { createPolicyMailWorker, type PolicyMailWorkerDeps } from '../src/policy-mail/policy-mail-worker';
import { policyDocumentsFor } from '../src/policy-mail/policy-documents';

/**
 * The policyholder's confirmation e-mail (issue 19 §1): queued by the statement that issues the policy, sent by the
 * dispatcher's mail worker to a real SMTP server in this process, each message parsed as a mail client would.
 */
let h: Harness;
let smtp: TestSmtp;
let fulfillment: Fulfillment;

beforeAll(async () => {
  h = await createHarness();
  smtp = await startSmtp();
  fulfillment = testFulfillment(h.prisma, h.clock, QUOTE_API);
});
afterAll(async () => {
  await smtp?.close();
  await h?.close();
});

function worker(overrides: Partial<PolicyMailWorkerDeps> = {}) {
  return createPolicyMailWorker({
    prisma: h.prisma,
    logger: process.env['DEBUG_MAIL'] ? pino() : silentLogger,
    clock: h.clock,
    mailer: createSmtpMailer({ smtpUrl: smtp.url, from: 'Expedition Insurance <no-reply@expedition.test>' }),
    documents: policyDocumentsFor(h.prisma, QUOTE_API, DEV_TOKENS),
    quoteApiUrl: QUOTE_API,
    mailDomain: 'expedition.test',
    retryDelaysMs: [60_000],
    leaseMs: 30_000,
    batchSize: 10,
    pollIntervalMs: 20,
    ...overrides,
  });
}

const deps = () => ({ prisma: h.prisma, clock: h.clock, fulfillment });
const mailsTo = (address: string) =>
  smtp.mails.filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === address);
const rowOf = (policyId: string) =>
  h.prisma.policyMail.findUniqueOrThrow({ where: { policyId_kind: { policyId, kind: 'confirmation' } } });

describe('the confirmation e-mail of an issued policy', () => {
  it('goes exactly once to the address each channel collected, with HTML and text parts and the certificate attached', async () => {
    const channels: [string, PaymentChannel, { quote?: string; link?: string }][] = [
      ['widget tier 3 (the embed quote’s e-mail)', 'embed', { quote: 'widget@traveler.test' }],
      [
        'tier 1 hosted page (the link carries the quote’s e-mail)',
        'checkout_link',
        { quote: 'hosted@traveler.test', link: 'hosted@traveler.test' },
      ],
      ['checkout link (typed on the page)', 'checkout_link', { link: 'typed@traveler.test' }],
      ['MPP purchase of a quote with an e-mail', 'mpp', { quote: 'mpp@traveler.test' }],
      ['ACP (buyer.email becomes the quote’s e-mail)', 'acp', { quote: 'acp@traveler.test' }],
    ];
    const sales = [];
    for (const [, channel, addresses] of channels)
      sales.push({ ...(await sell(deps(), channel, addresses)), to: addresses.link ?? addresses.quote! });

    // Two rounds: the second finds nothing left to send.
    expect(await worker().runOnce()).toBe(channels.length);
    expect(await worker().runOnce()).toBe(0);

    for (const sale of sales) {
      const mails = mailsTo(sale.to);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe(`[TEST] Your expedition insurance policy ${sale.policyNumber}`);
      expect(mail.messageId).toBe(`<policy-${sale.policyNumber}.confirmation@expedition.test>`);
      expect(mail.text).toContain(`Policy number: ${sale.policyNumber}`);
      expect(mail.text).toContain('TEST MODE');
      expect(mail.text).toContain('10 January 2027 to 24 January 2027');
      expect(mail.text).toMatch(/Premium paid: \$[\d,]+\.\d\d/);
      expect(mail.html).toContain(`Policy ${sale.policyNumber}`);
      expect(mail.html).not.toMatch(/<img|<link|<script/i);
      // The link carries the policy's derived access token (none is stored), the one quote-api verifies.
      expect(mail.text).toContain(
        `${QUOTE_API}/policies/${sale.policyNumber}?access_token=${DEV_TOKENS.tokenFor(sale)}`,
      );
      const [pdf] = mail.attachments;
      expect(pdf).toMatchObject({ contentType: 'application/pdf', filename: `certificate-${sale.policyNumber}.pdf` });
      const certificate = pdfText(pdf!.content);
      expect(certificate).toContain(sale.policyNumber);
      expect(certificate).toContain('SPECIMEN');
      expect(certificate).not.toMatch(/I am an AI assistant/i);
      expect(await rowOf(sale.policyId)).toMatchObject({
        status: 'sent',
        attempts: 1,
        recipient: sale.to,
        messageId: mail.messageId,
      });
    }
  });

  it('is written in the language the policy was bought in: subject, text and HTML parts, certificate (German)', async () => {
    const sale = await sell(deps(), 'embed', { quote: 'de@traveler.test', locale: 'de' });
    expect(await worker().runOnce()).toBe(1);
    const [mail] = mailsTo('de@traveler.test');
    expect(mail!.subject).toBe(`[TEST] Ihre Expeditionsversicherung: Police ${sale.policyNumber}`);
    for (const text of [
      'TESTMODUS',
      `Policennummer: ${sale.policyNumber}`,
      'Reiseziel: Antarktis',
      'Versicherungsschutz: 10. Januar 2027 bis 24. Januar 2027',
      'Reisende: 2 Reisende; Alter 45, 52',
      'IM NOTFALL',
      'SCHADEN MELDEN',
      'Rufen Sie im Notfall zuerst Expedition Assistance',
    ]) {
      expect(mail!.text).toContain(text);
    }
    expect(mail!.text).toMatch(/Gezahlte Prämie: [\d.]+,\d\d\u00a0\$/);
    expect(mail!.text).not.toContain('Premium paid');
    expect(mail!.html).toContain('<html lang="de">');
    expect(mail!.html).toContain('Meine Police öffnen');
    // The attachment is named in German too, in ASCII; the text names it as attached.
    expect(mail!.attachments[0]!.filename).toBe(`Versicherungsbestaetigung-${sale.policyNumber}.pdf`);
    expect(mail!.text).toContain(`Versicherungsbestaetigung-${sale.policyNumber}.pdf`);
    const certificate = pdfText(mail!.attachments[0]!.content);
    expect(certificate).toContain('Versicherungsbestätigung');
    expect(certificate).toContain('MUSTER');
  });

  it('is not sent, and says so, when no address was given', async () => {
    const sale = await sell(deps(), 'mpp');
    const before = smtp.mails.length;
    expect(await worker().runOnce()).toBe(0);
    expect(smtp.mails).toHaveLength(before);
    expect(await rowOf(sale.policyId)).toMatchObject({ status: 'no_address', recipient: null, attempts: 0 });
  });

  it('is sent once although the same payment is reported again (a replayed processor event)', async () => {
    const sale = await sell(deps(), 'embed', { quote: 'replay@traveler.test' });
    const purchase = await h.prisma.purchase.findUniqueOrThrow({ where: { quoteId: sale.quoteId } });
    const replay = await fulfillment.recordSucceededPayment({
      paymentId: purchase.processorPaymentId,
      amountCents: purchase.amountCents,
      currency: 'USD',
      mode: 'test',
      quoteId: sale.quoteId,
      planId: purchase.planId,
      channel: 'embed',
    });
    expect(replay.kind).toBe('already_recorded');
    await worker().runOnce();
    await worker().runOnce();
    expect(mailsTo('replay@traveler.test')).toHaveLength(1);
    expect(await h.prisma.policyMail.count({ where: { policyId: sale.policyId } })).toBe(1);
  });

  it('is sent once by two workers claiming at the same moment', async () => {
    const sale = await sell(deps(), 'embed', { quote: 'twins@traveler.test' });
    const claimed = await Promise.all([worker().runOnce(), worker().runOnce(), worker().runOnce()]);
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(1);
    expect(mailsTo('twins@traveler.test')).toHaveLength(1);
    expect(await rowOf(sale.policyId)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('never touches the sale when SMTP is down: the policy is issued without it, the mail is retried, then sent', async () => {
    const down = createSmtpMailer({
      smtpUrl: (await deadUrl()).replace('http:', 'smtp:'),
      from: 'no-reply@expedition.test',
    });
    const sale = await sell(deps(), 'embed', { quote: 'later@traveler.test' });
    expect(await h.prisma.policy.count({ where: { id: sale.policyId } })).toBe(1);

    const metrics = createMetrics({ service: 'test', defaultMetrics: false });
    await worker({ mailer: down, metrics }).runOnce();
    const retrying = await rowOf(sale.policyId);
    expect(retrying).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect(retrying.lastError).toMatch(/ECONNREFUSED/);
    expect(retrying.nextAttemptAt.getTime()).toBe(h.clock.now().getTime() + 60_000);
    expect(await worker().runOnce()).toBe(0); // not due yet

    h.clock.advance(60_000);
    await worker({ metrics }).runOnce();
    expect(mailsTo('later@traveler.test')).toHaveLength(1);
    expect(await rowOf(sale.policyId)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    const counted = await metrics.registry.getSingleMetricAsString('policy_mail_attempts_total');
    expect(counted).toMatch(/outcome="retry"[^}]*} 1/);
    expect(counted).toMatch(/outcome="sent"[^}]*} 1/);
  });

  it('gives up after the last attempt, marks the mail failed and logs the policy number, never the address or a token', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _e, cb) => (lines.push(String(chunk)), cb()) }),
    );
    const refusing: Mailer = {
      kind: 'smtp',
      send: async () => {
        throw Object.assign(new Error('Recipient refused: <gone@traveler.test> mailbox unavailable'), {
          responseCode: 550,
        });
      },
    };
    const sale = await sell(deps(), 'embed', { quote: 'gone@traveler.test' });
    await h.prisma.policyMail.update({
      where: { policyId_kind: { policyId: sale.policyId, kind: 'confirmation' } },
      data: { maxAttempts: 2 },
    });

    await worker({ mailer: refusing, logger }).runOnce();
    h.clock.advance(60_000);
    await worker({ mailer: refusing, logger }).runOnce();

    const row = await rowOf(sale.policyId);
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
    expect(row.lastError).toBe('550 Recipient refused: <<address>> mailbox unavailable');
    const log = lines.join('');
    expect(log).toContain(sale.policyNumber);
    expect(log).toContain('"outcome":"failed"');
    expect(log).not.toContain('gone@traveler.test');
    expect(log).not.toMatch(/pat_/);
  });
});
