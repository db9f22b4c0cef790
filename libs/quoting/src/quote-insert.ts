import { randomUUID } from 'node:crypto';
import { prepared, Prisma, queryRows, type PrismaClient, type Quote, type QuoteEstimate } from '@expedition/db';

/** The quote row as quote creation writes it (the columns without a database default, plus status defaults). */
export type QuoteRow = Omit<
  Quote,
  'id' | 'status' | 'optionsAttempts' | 'optionsLockedUntil' | 'optionsError' | 'createdAt' | 'updatedAt'
>;
export type EstimateRow = Omit<QuoteEstimate, 'id' | 'quoteId' | 'createdAt'>;

/**
 * Writes a quote and its estimates in ONE SQL statement (a data-modifying CTE: atomic without a transaction, one
 * round trip) and returns them in Prisma's shapes; null, having written nothing, when the quote number is taken (the
 * caller draws another). Quote creation is the hottest write path, and through the ORM about half of its CPU went to
 * Prisma's client and query compiler (tools/bench/README.md); plain SQL here runs the same on PostgreSQL and PGlite,
 * and on PostgreSQL it goes to the pool directly (`queryRows`). Ids and `updatedAt` are made here, as Prisma's client
 * would (`@default(uuid())`, `@updatedAt`); `createdAt` is the database default, shared by the quote and its
 * estimates (one statement, one `CURRENT_TIMESTAMP`).
 *
 * A taken number is `ON CONFLICT DO NOTHING`, and the estimates are inserted only when the quote was: no error, so
 * nothing is rolled back and the connection stays as it was. A number is taken when a quote of the same day and
 * number series holds it (docs/decisions.md, "Quote numbers"): at most one insert in 24 at 33,334 quotes a day.
 *
 * Keep the column lists in step with libs/db/prisma/schema.prisma (quote-insert.spec.ts compares what this returns
 * with what Prisma reads back).
 */
export async function insertQuoteWithEstimates(
  prisma: PrismaClient,
  q: QuoteRow,
  estimateRows: readonly EstimateRow[],
): Promise<{ quote: Quote; estimates: QuoteEstimate[] } | null> {
  const id = randomUUID();
  const updatedAt = new Date();
  const estimates = estimateRows.map((e) => ({ ...e, id: randomUUID(), quoteId: id }));
  // Prisma.join throws on an empty list: a quote no plan is eligible for has no estimates (and no estimates CTE).
  // Every value is cast: in `SELECT … FROM (VALUES …)` PostgreSQL types a column from its values, not from the table.
  const estimatesCte = estimates.length
    ? Prisma.sql`, estimates AS (
        INSERT INTO quote_estimates (id, quote_id, plan_id, premium_cents, currency, traveler_premiums_cents,
          confidence, is_recommended, rank, notes, cfar_eligible)
        SELECT e.* FROM (VALUES ${Prisma.join(
          estimates.map(
            (
              e,
            ) => Prisma.sql`(${e.id}::text, ${id}::text, ${e.planId}::text, ${e.premiumCents}::int, ${e.currency}::text,
              ${e.travelerPremiumsCents}::int[], ${e.confidence}::text, ${e.isRecommended}::boolean, ${e.rank}::int,
              ${e.notes}::text, ${e.cfarEligible}::boolean)`,
          ),
        )}) AS e
        WHERE EXISTS (SELECT 1 FROM quote))`
    : Prisma.empty;
  const rows = await queryRows<Quote>(
    prisma,
    prepared(Prisma.sql`
    WITH quote AS (
      INSERT INTO quotes (id, quote_number, quote_day, number_series, session_id_hash, source, operator_id, mode,
        options_status, destination_slug, other_countries, start_date, end_date, duration_days, duration_defaulted,
        trip_cost_cents, currency, travelers, traveler_ages, residence, state, deposit_paid_date, email, name, phone,
        operator_name, locale, recommended_plan_id, instant_quote_eligible, expires_at, updated_at)
      VALUES (${id}, ${q.quoteNumber}, ${q.quoteDay}::date, ${q.numberSeries}::smallint, ${q.sessionIdHash},
        ${q.source}::quote_source, ${q.operatorId}, ${q.mode}::key_mode, ${q.optionsStatus}::options_status,
        ${q.destinationSlug}, ${q.otherCountries}::text[], ${q.startDate}::date, ${q.endDate}::date, ${q.durationDays},
        ${q.durationDefaulted}, ${q.tripCostCents}, ${q.currency}, ${q.travelers}, ${q.travelerAges}::int[],
        ${q.residence}, ${q.state}, ${q.depositPaidDate}::date, ${q.email}, ${q.name}, ${q.phone}, ${q.operatorName},
        ${q.locale}, ${q.recommendedPlanId}, ${q.instantQuoteEligible}, ${q.expiresAt}::timestamp(3),
        ${updatedAt}::timestamp(3))
      ON CONFLICT (quote_number, quote_day, number_series) DO NOTHING
      RETURNING id, quote_number AS "quoteNumber", quote_day AS "quoteDay", number_series AS "numberSeries",
        session_id_hash AS "sessionIdHash", source, operator_id AS "operatorId", mode, status,
        options_status AS "optionsStatus", options_attempts AS "optionsAttempts",
        options_locked_until AS "optionsLockedUntil", options_error AS "optionsError",
        destination_slug AS "destinationSlug", other_countries AS "otherCountries", start_date AS "startDate",
        end_date AS "endDate", duration_days AS "durationDays", duration_defaulted AS "durationDefaulted",
        trip_cost_cents AS "tripCostCents", currency, travelers, traveler_ages AS "travelerAges", residence, state,
        deposit_paid_date AS "depositPaidDate", email, name, phone, operator_name AS "operatorName", locale,
        recommended_plan_id AS "recommendedPlanId",
        instant_quote_eligible AS "instantQuoteEligible", expires_at AS "expiresAt", created_at AS "createdAt",
        updated_at AS "updatedAt"
    )${estimatesCte}
    SELECT * FROM quote`),
  );
  const quote = rows[0];
  if (!quote) return null;
  return {
    quote,
    estimates: estimates.map((e) => ({ ...e, createdAt: quote.createdAt })).sort((a, b) => a.rank - b.rank),
  };
}
