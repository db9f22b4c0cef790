import { Prisma } from './generated/prisma/client';

/** True for a unique-constraint violation (Prisma P2002), e.g. a second purchase for the same quote. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
