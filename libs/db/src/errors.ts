import { Prisma } from './generated/prisma/client';

/**
 * True for a unique-constraint violation (Prisma P2002), e.g. a second purchase for the same quote. With `field`
 * (a model field such as `quoteNumber`), only when the violated constraint names that field (or its snake_case column).
 * A raw query's violation counts too: through `$queryRaw`, P2010 carrying PostgreSQL's SQLSTATE 23505 from the driver
 * adapter; through `queryRows` on a pool, pg's own error (`code` 23505, its `constraint` naming the column: `quotes_quote_number_day_key`;
 * never its `detail`, which quotes the value).
 */
export function isUniqueViolation(error: unknown, field?: string): boolean {
  const target = uniqueViolationTarget(error);
  if (target === null) return false;
  if (field === undefined) return true;
  return target.includes(field) || target.includes(field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
}

/** What a unique violation says it violated (to search for a field's name); null when `error` is not one. */
function uniqueViolationTarget(error: unknown): string | null {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const target = JSON.stringify(error.meta ?? {});
    const rawUniqueViolation = error.code === 'P2010' && /"(originalCode|code)":"23505"/.test(target);
    return error.code === 'P2002' || rawUniqueViolation ? target : null;
  }
  const pg = error as { code?: unknown; constraint?: unknown } | null;
  if (pg?.code !== '23505' || !(error instanceof Error)) return null;
  return typeof pg.constraint === 'string' ? pg.constraint : '';
}
