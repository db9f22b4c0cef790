import type { PrismaClient } from '@expedition/db';

/**
 * The clear access token of a policy, for the links and the certificate of its confirmation e-mail. The ONE place
 * the mail worker learns it: today it is read from `policies.access_token`; where tokens are derived from a secret
 * instead, only this function changes.
 */
export async function accessTokenFor(prisma: PrismaClient, policy: { id: string; policyNumber: string }): Promise<string | null> {
  const row = await prisma.policy.findUnique({ where: { id: policy.id }, select: { accessToken: true } });
  return row?.accessToken ?? null;
}
