import { createHash } from 'node:crypto';
import { Prisma } from './generated/prisma/client';

/**
 * The statements our hot paths send many times a second (a sale's read and write, a quote's insert, the delivery
 * worker's claim and record) are prepared once per connection and then only executed: PostgreSQL parses and plans
 * them once instead of on every call. Planning the sale's seven-way read alone cost more server CPU than running it
 * (docs/decisions.md, "Prepared statements").
 *
 * Only statements wrapped in `prepared()` are named; everything the ORM sends stays unnamed, so the number of
 * statements a connection keeps is bounded by the few texts written this way (and their variants). The name is a
 * hash of the text, so two texts never share a name and the same text always does.
 */
const MARK = '/* prepared */ ';

/** Marks a raw statement to be prepared once per connection (see above). */
export function prepared(sql: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(MARK)}${sql}`;
}

/** The adapter's statement name for a query: a name for marked statements, '' (the unnamed statement) for the rest. */
export function preparedStatementName(query: { sql: string }): string {
  if (!query.sql.startsWith(MARK)) return '';
  // 28 characters: within PostgreSQL's 63-byte identifier limit.
  return `p${createHash('sha1').update(query.sql).digest('base64url')}`;
}
