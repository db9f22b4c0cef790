import type { PrismaClient } from '@expedition/db';
import { requeueConfirmationMail, type ResendOutcome } from '@expedition/fulfillment';
import { CLI_ACTOR, writeAudit } from '@expedition/operators';
import type { Clock } from '@expedition/platform';

/**
 * A provider admin's resend of a policy's confirmation e-mail: the mail is queued again (libs/fulfillment,
 * policy-mails.ts) and the audit log records who did it, in the same transaction. The audit entry names the policy
 * and the mail's state, never the address.
 */
export function createPolicyMailAdmin(deps: { prisma: PrismaClient; clock?: Clock }) {
  async function resendConfirmation(policyNumber: string, to?: string): Promise<ResendOutcome> {
    const now = deps.clock?.now() ?? new Date();
    return deps.prisma.$transaction(async (tx) => {
      const outcome = await requeueConfirmationMail(tx, policyNumber, now, to);
      if (outcome.outcome === 'queued') {
        await writeAudit(
          tx,
          CLI_ACTOR,
          {
            operatorId: outcome.operatorId,
            action: 'policy.confirmation_resent',
            targetType: 'policy',
            targetId: policyNumber,
            before: { status: outcome.before },
            after: { status: 'pending', resends: outcome.resends, newAddress: Boolean(to) },
          },
          now,
        );
      }
      return outcome;
    });
  }
  return { resendConfirmation };
}

export type PolicyMailAdmin = ReturnType<typeof createPolicyMailAdmin>;
