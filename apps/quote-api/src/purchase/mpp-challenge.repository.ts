import { isUniqueViolation, type PrismaClient } from '@expedition/db';
import { hashToken, type Clock } from '@expedition/platform';

interface StoredChallenge {
  id: string;
  quoteId: string;
  planId: string;
  amountCents: number;
  currency: string;
  realm: string;
  request: string;
  expiresAt: Date;
}

type ChallengeClaim = 'claimed' | 'challenge_used' | 'token_used';

/** The MPP challenges we issued (table `payment_challenges`): written at 402, claimed once when a credential pays. */
export function createMppChallengeRepository(deps: { prisma: PrismaClient; clock: Clock }) {
  const { prisma, clock } = deps;

  async function save(challenge: StoredChallenge): Promise<void> {
    await prisma.paymentChallenge.create({ data: challenge });
  }

  /** Single use, atomically: the row flips to used only once, and a token's hash can be stored only once. */
  async function claim(challengeId: string, quoteId: string, spt: string): Promise<ChallengeClaim> {
    try {
      const claimed = await prisma.paymentChallenge.updateMany({
        where: { id: challengeId, quoteId, usedAt: null },
        data: { usedAt: clock.now(), sptHash: hashToken(spt) },
      });
      return claimed.count === 1 ? 'claimed' : 'challenge_used';
    } catch (err) {
      if (isUniqueViolation(err)) return 'token_used';
      throw err;
    }
  }

  return { save, claim };
}

export type MppChallengeRepository = ReturnType<typeof createMppChallengeRepository>;
