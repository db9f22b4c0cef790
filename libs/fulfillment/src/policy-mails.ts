import { randomUUID } from 'node:crypto';
import type { Prisma, PolicyMailStatus } from '@expedition/db';

type Tx = Prisma.TransactionClient;

/** The one kind of policy mail today: the confirmation with the certificate, sent once the policy is issued. */
export const CONFIRMATION_MAIL = 'confirmation';

/** What the operator's portal shows of a policy's confirmation e-mail. */
export type ConfirmationMailStatus = PolicyMailStatus;

export type ResendOutcome =
  | {
      outcome: 'queued';
      policyId: string;
      operatorId: string | null;
      before: ConfirmationMailStatus | null;
      resends: number;
    }
  | { outcome: 'already_queued'; policyId: string }
  | { outcome: 'no_address'; policyId: string }
  | { outcome: 'no_policy' };

/**
 * Queues the confirmation e-mail of one policy once more (a provider admin's resend): a mail already waiting or being
 * sent is left as it is (a second queueing could send it twice); otherwise the row goes back to `pending` with fresh
 * attempts and one more resend, which gives the new message a Message-ID of its own. `to` replaces the address (one
 * the traveler gave later); without any address nothing is queued. A policy issued before mails existed gets its row
 * here. Run it in the transaction that writes the audit entry.
 */
export async function requeueConfirmationMail(
  tx: Tx,
  policyNumber: string,
  now: Date,
  to?: string,
): Promise<ResendOutcome> {
  const policy = await tx.policy.findUnique({
    where: { policyNumber },
    select: {
      id: true,
      operatorId: true,
      quote: { select: { email: true } },
      purchase: { select: { payment: { select: { checkoutSession: { select: { email: true } } } } } },
      mails: { where: { kind: CONFIRMATION_MAIL }, select: { status: true, recipient: true, resends: true } },
    },
  });
  if (!policy) return { outcome: 'no_policy' };
  const current = policy.mails[0] ?? null;
  if (current?.status === 'pending') return { outcome: 'already_queued', policyId: policy.id };
  const known = current ? current.recipient : policy.purchase.payment?.checkoutSession?.email || policy.quote.email;
  const recipient = to?.trim() || known || null;
  if (!recipient) return { outcome: 'no_address', policyId: policy.id };
  const resends = current ? current.resends + 1 : 0;
  const queued = {
    recipient,
    status: 'pending' as const,
    attempts: 0,
    nextAttemptAt: now,
    lockedUntil: null,
    lastError: null,
    messageId: null,
    sentAt: null,
    resends,
  };
  if (current) {
    // Only a row that is not pending: a concurrent resend (or worker) that got there first wins.
    const moved = await tx.policyMail.updateMany({
      where: { policyId: policy.id, kind: CONFIRMATION_MAIL, status: { not: 'pending' } },
      data: queued,
    });
    if (moved.count === 0) return { outcome: 'already_queued', policyId: policy.id };
  } else {
    await tx.policyMail.create({
      data: { id: randomUUID(), policyId: policy.id, kind: CONFIRMATION_MAIL, createdAt: now, ...queued },
    });
  }
  return {
    outcome: 'queued',
    policyId: policy.id,
    operatorId: policy.operatorId,
    before: current?.status ?? null,
    resends,
  };
}
