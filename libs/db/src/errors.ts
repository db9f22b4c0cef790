import { Prisma } from './generated/prisma/client';

/**
 * True for a unique-constraint violation (Prisma P2002), e.g. a second purchase for the same quote. With `field`
 * (a model field such as `quoteNumber`), only when the violated constraint names that field (or its snake_case column).
 * A raw query's violation (`$queryRaw`: P2010 carrying PostgreSQL's SQLSTATE 23505 from the driver adapter) counts too.
 */
export function isUniqueViolation(error: unknown, field?: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const target = JSON.stringify(error.meta ?? {});
  const rawUniqueViolation = error.code === 'P2010' && /"(originalCode|code)":"23505"/.test(target);
  if (error.code !== 'P2002' && !rawUniqueViolation) return false;
  if (field === undefined) return true;
  return target.includes(field) || target.includes(field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
}
