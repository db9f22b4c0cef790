import type { PolicyLookup } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { createPolicyTokens, DEV_POLICY_TOKEN_SECRET, policyLinks, type PolicyTokens } from '@expedition/fulfillment';
import { asLocale, type Locale } from '@expedition/i18n';
import type { Mailer } from '@expedition/mail';
import type { Metrics } from '@expedition/observability';
import { createPollingLoop, type Clock, type Logger } from '@expedition/platform';
import { nextAttemptAt } from '../delivery/retry-schedule';
import { renderConfirmationMail, type MailAssistance } from './confirmation-mail';
import {
  claimDuePolicyMails,
  recordMailOutcome,
  type ClaimedPolicyMail,
  type MailOutcome,
} from './policy-mail.repository';

/** What a mail is made from: the policy's read model, its certificate, and the assistance facts. */
export interface PolicyDocuments {
  load(policyId: string): Promise<PolicyLookup | null>;
  certificate(policy: PolicyLookup): Promise<Buffer>;
  /** The emergency and claims facts in the mail's language. */
  assistance(locale: Locale): MailAssistance;
}

export interface PolicyMailSettings {
  retryDelaysMs: readonly number[];
  /** How long a claimed mail stays invisible to other workers; must outlive rendering plus one SMTP exchange. */
  leaseMs: number;
  batchSize: number;
  pollIntervalMs: number;
}

export interface PolicyMailWorkerDeps extends PolicyMailSettings {
  prisma: PrismaClient;
  logger: Logger;
  clock: Clock;
  mailer: Mailer;
  documents: PolicyDocuments;
  /** quote-api's public URL: the links in the mail. */
  quoteApiUrl: string;
  /**
   * Derives the policy's access token for the mail's links (never stored: libs/fulfillment policy-tokens.ts).
   * POLICY_TOKEN_SECRET, the same as quote-api's; absent: the published development secret (tests, embedded mode).
   */
  policyTokens?: Pick<PolicyTokens, 'tokenFor'>;
  /** The domain of the Message-IDs (MAIL_FROM's). */
  mailDomain: string;
  metrics?: Pick<Metrics, 'policyMailAttempt'>;
}

export interface PolicyMailWorker {
  start(): void;
  stop(): Promise<void>;
  /** One round: claim due mails, send each, record each outcome. Returns how many were claimed. */
  runOnce(): Promise<number>;
  kick(): void;
}

/**
 * The Message-ID of a policy's mail: the same for every attempt of one send (a twin sent after a crash is
 * recognisably the same message), a new one for each resend by a provider admin.
 */
export function policyMailMessageId(
  mail: Pick<ClaimedPolicyMail, 'policyNumber' | 'kind' | 'resends'>,
  domain: string,
): string {
  const resend = mail.resends > 0 ? `.r${mail.resends}` : '';
  return `<policy-${mail.policyNumber}.${mail.kind}${resend}@${domain}>`;
}

/**
 * Sends the policyholder mails that issuing a policy queued (policy_mails). Claims are leased rows in the database,
 * so any number of workers and replicas may run. Each mail's outcome is recorded right after its own send, so the
 * only at-least-once window is between the SMTP server's accept and that one UPDATE; a mail sent again in it carries
 * the same Message-ID. Nothing here runs on the payment's path: a broken SMTP server only delays mails.
 */
export function createPolicyMailWorker(deps: PolicyMailWorkerDeps): PolicyMailWorker {
  const policyTokens = deps.policyTokens ?? createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });
  async function runOnce(): Promise<number> {
    const claimed = await claimDuePolicyMails(deps.prisma, {
      now: deps.clock.now(),
      leaseMs: deps.leaseMs,
      limit: deps.batchSize,
    });
    await Promise.all(claimed.map((mail) => sendOne(mail)));
    return claimed.length;
  }

  async function sendOne(mail: ClaimedPolicyMail): Promise<void> {
    const outcome = await attempt(mail);
    let recorded: boolean;
    try {
      recorded = await recordMailOutcome(deps.prisma, mail, outcome);
    } catch (err) {
      // The lease stays; when it lapses the mail is tried again under the next attempt number, same Message-ID.
      deps.logger.error(
        { err, policyNumber: mail.policyNumber, attempt: mail.attempt },
        'could not record the policy mail outcome',
      );
      return;
    }
    deps.metrics?.policyMailAttempt(outcome.kind);
    const fields = { policyNumber: mail.policyNumber, kind: mail.kind, attempt: mail.attempt, outcome: outcome.kind };
    if (!recorded) deps.logger.warn(fields, 'policy mail lease lost before recording; another worker owns it');
    else if (outcome.kind === 'sent') deps.logger.info(fields, 'policy mail sent');
    else if (outcome.kind === 'retry')
      deps.logger.warn(
        { ...fields, error: outcome.error, nextAttemptAt: outcome.at },
        'policy mail not sent; will retry',
      );
    else deps.logger.error({ ...fields, error: outcome.error }, 'policy mail not sent; gave up');
  }

  async function attempt(mail: ClaimedPolicyMail): Promise<MailOutcome> {
    // The last attempt was cut short (claimDuePolicyMails counts it): nothing is left to try; a provider admin resends.
    if (mail.attempt > mail.maxAttempts)
      return {
        kind: 'failed',
        error: `attempt ${mail.maxAttempts} of ${mail.maxAttempts} was cut short; not sent again`,
      };
    try {
      const messageId = policyMailMessageId(mail, deps.mailDomain);
      const outgoing = await compose(mail, messageId);
      await deps.mailer.send(outgoing);
      return { kind: 'sent', at: deps.clock.now(), messageId };
    } catch (err) {
      const error = describe(err);
      const next = nextAttemptAt(mail.attempt, deps.clock.now(), deps.retryDelaysMs, mail.maxAttempts);
      return next ? { kind: 'retry', at: next, error } : { kind: 'failed', error };
    }
  }

  async function compose(mail: ClaimedPolicyMail, messageId: string) {
    const policy = await deps.documents.load(mail.policyId);
    if (!policy) throw new Error(`policy ${mail.policyNumber} cannot be read`);
    const links = policyLinks(deps.quoteApiUrl, {
      policyNumber: mail.policyNumber,
      accessToken: policyTokens.tokenFor(mail),
    });
    return renderConfirmationMail({
      policy,
      recipient: mail.recipient,
      policyUrl: links.pageUrl,
      certificate: await deps.documents.certificate(policy),
      assistance: deps.documents.assistance(asLocale(policy.locale)),
      messageId,
    });
  }

  const loop = createPollingLoop(async () => ({ backlog: (await runOnce()) >= deps.batchSize }), {
    pollIntervalMs: deps.pollIntervalMs,
    onError: (err) => deps.logger.error({ err }, 'policy mail claim round failed'),
  });

  return { start: loop.start, stop: loop.stop, runOnce, kick: loop.kick };
}

/** An error for last_error and the logs: the SMTP reply or the message, never the address or the mail itself. */
function describe(err: unknown): string {
  const smtp = err instanceof Error ? (err as Error & { code?: string; responseCode?: number }) : null;
  const text = smtp
    ? [smtp.code, smtp.responseCode, smtp.message].filter((part) => part !== undefined && part !== '').join(' ')
    : String(err);
  // A server's refusal often quotes the recipient: addresses never reach logs or the table's last_error.
  return text.replace(/[^\s<>"'@]+@[^\s<>"']+/g, '<address>');
}
