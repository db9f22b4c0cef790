import type { ChildProcess } from 'node:child_process';
import type { Database } from '@expedition/db';
import { describeWithPostgres } from '@expedition/db/testing';
import { systemClock } from '@expedition/platform';
import { exited, killAll, startDispatcherProcess } from './dispatcher-process';
import { waitFor } from './harness';
import { createSharedSchema, type SharedSchema } from './shared-schema';
import { sell, startSmtp, testFulfillment, type TestSmtp } from './mail-harness';

/** The real dispatcher in its own process, sending policy mails only (no webhook workers). */
function startDispatcher(databaseUrl: string, smtpUrl: string): ChildProcess {
  return startDispatcherProcess(databaseUrl, {
    SIMULATED_PROCESSOR_WEBHOOK_SECRET: 'whsec_sim_mail_crash_0123456789abcdef012345',
    WEBHOOK_WORKERS: '0',
    MAIL_WORKERS: '1',
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'Expedition Insurance <no-reply@expedition.test>',
    MAIL_LEASE_MS: '3000',
    MAIL_POLL_INTERVAL_MS: '100',
    QUOTE_API_URL: 'https://quote.expedition.test',
  });
}

describeWithPostgres()('policy mail: dispatcher killed (kill -9) between issuing and sending', () => {
  let shared: SharedSchema;
  let db: Database;
  let smtp: TestSmtp;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    shared = await createSharedSchema();
    db = await shared.open();
    // The first message is never accepted: the dispatcher is killed while it waits for the server's answer.
    smtp = await startSmtp({ hold: (n) => n === 1 });
  });
  afterAll(async () => {
    await killAll(children);
    await smtp?.close();
    await db?.close();
    await shared?.drop();
  });

  it('sends the mail exactly once after a restart, once the lease lapses, with the same Message-ID', async () => {
    const fulfillment = testFulfillment(db.prisma, systemClock);
    const sale = await sell({ prisma: db.prisma, clock: systemClock, fulfillment }, 'embed', {
      quote: 'crash@traveler.test',
    });

    const first = startDispatcher(shared.databaseUrl, smtp.url);
    children.push(first);
    await waitFor(async () => smtp.arrived >= 1, 50);
    first.kill('SIGKILL');
    await exited(first);

    // Claimed, sent to the server, never accepted nor recorded: still pending under its lease, not lost.
    const orphaned = await db.prisma.policyMail.findFirstOrThrow({ where: { policyId: sale.policyId } });
    expect(orphaned).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(orphaned.lockedUntil).not.toBeNull();
    expect(smtp.mails).toHaveLength(0);

    const second = startDispatcher(shared.databaseUrl, smtp.url);
    children.push(second);
    const sent = await waitFor(async () => {
      const row = await db.prisma.policyMail.findFirstOrThrow({ where: { policyId: sale.policyId } });
      return row.status === 'sent' ? row : null;
    }, 100);

    expect(sent.attempts).toBe(2); // the attempt cut by the kill counts (claimDuePolicyMails)
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.messageId).toBe(`<policy-${sale.policyNumber}.confirmation@expedition.test>`);
    expect(sent.messageId).toBe(smtp.mails[0]!.messageId);
    expect(smtp.mails[0]!.attachments).toHaveLength(1);
  }, 90_000);
});
