-- Quote numbers are unique per quote day and number series, not over every quote ever made (docs/decisions.md,
-- "Quote numbers"). Edited by hand after `npm run db:migration:create`: the existing quotes get the UTC day they were
-- made (not the day of this migration) before the new unique index is built, and the old index goes last, so the
-- numbers stay guarded throughout. Every existing number is unique on its own, so it is unique with its day too.

-- AlterTable
ALTER TABLE "quotes" ADD COLUMN     "number_series" SMALLINT NOT NULL DEFAULT 0,
ADD COLUMN     "quote_day" DATE NOT NULL DEFAULT ((CURRENT_TIMESTAMP AT TIME ZONE 'UTC'))::date;

-- Backfill: created_at is a UTC instant (timestamp without time zone, as Prisma writes it).
UPDATE "quotes" SET "quote_day" = "created_at"::date WHERE "quote_day" <> "created_at"::date;

-- CreateIndex
CREATE UNIQUE INDEX "quotes_quote_number_day_key" ON "quotes"("quote_number", "quote_day", "number_series");

-- DropIndex
DROP INDEX "quotes_quote_number_key";
