import { Prisma } from './generated/prisma/client';

/**
 * True for a unique-constraint violation (Prisma P2002), e.g. a second purchase for the same quote. With `field`
 * (a model field such as `quoteNumber`), only when the violated constraint names that field (or its snake_case column).
 */
export function isUniqueViolation(error: unknown, field?: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') return false;
  if (field === undefined) return true;
  const target = JSON.stringify(error.meta ?? {});
  return target.includes(field) || target.includes(field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
}
