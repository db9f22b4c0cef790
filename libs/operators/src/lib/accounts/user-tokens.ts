import type { PrismaClient } from '@expedition/db';
import { addMs, hashToken, randomToken } from '@expedition/platform';
import { ACCOUNT_DEFAULTS, type AccountRole, type AccountServiceDeps, clockOf } from './account-context';
import { AccountError } from './account-error';

export type TokenPurpose = 'verify_email' | 'reset_password' | 'invite' | 'sign_in';

const TOKEN_PREFIX: Record<TokenPurpose, string> = {
  verify_email: 'ev',
  reset_password: 'pr',
  invite: 'inv',
  sign_in: 'si',
};
const TOKEN_TTL: Record<TokenPurpose, number> = {
  verify_email: ACCOUNT_DEFAULTS.verifyEmailTtlMs,
  reset_password: ACCOUNT_DEFAULTS.resetPasswordTtlMs,
  invite: ACCOUNT_DEFAULTS.inviteTtlMs,
  sign_in: ACCOUNT_DEFAULTS.signInTtlMs,
};

export const invalidToken = () => new AccountError('invalid_token', 'This link is invalid or has expired');

/**
 * Single-use e-mailed tokens (the `user_tokens` table): the random token leaves here once, only its sha256 is stored.
 * The building block of e-mail verification, password reset, sign-in links and invitations.
 */
export function createUserTokens(deps: AccountServiceDeps) {
  const { prisma } = deps;
  const clock = clockOf(deps);

  /** `db` is a transaction when the token must land together with another change. */
  async function issueToken(
    purpose: TokenPurpose,
    target: { email: string; userId?: string | null; operatorId?: string | null; role?: AccountRole | null },
    db: Pick<PrismaClient, 'userToken'> = prisma,
  ): Promise<{ token: string; id: string; expiresAt: Date }> {
    const token = randomToken(TOKEN_PREFIX[purpose]);
    const now = clock.now();
    const row = await db.userToken.create({
      data: {
        purpose,
        tokenHash: hashToken(token),
        email: target.email,
        userId: target.userId ?? null,
        operatorId: target.operatorId ?? null,
        role: target.role ?? null,
        createdAt: now,
        expiresAt: addMs(now, TOKEN_TTL[purpose]),
      },
    });
    return { token, id: row.id, expiresAt: row.expiresAt };
  }

  /** The unused, unexpired token of this purpose, without spending it (check the rest of the request first). */
  async function findUsableToken(purpose: TokenPurpose, token: unknown) {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) throw invalidToken();
    const row = await prisma.userToken.findUnique({ where: { tokenHash: hashToken(token) } });
    if (!row || row.purpose !== purpose || row.usedAt !== null || row.expiresAt.getTime() <= clock.now().getTime()) {
      throw invalidToken();
    }
    return row;
  }

  /** Marks the token used, atomically: a token works once (of two concurrent uses one wins), and not after expiry. */
  async function claimToken(tx: Pick<PrismaClient, 'userToken'>, row: { id: string }, now: Date): Promise<void> {
    const claimed = await tx.userToken.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) throw invalidToken();
  }

  async function consumeToken(purpose: TokenPurpose, token: unknown) {
    const row = await findUsableToken(purpose, token);
    await claimToken(prisma, row, clock.now());
    return row;
  }

  return { issueToken, findUsableToken, claimToken, consumeToken };
}
