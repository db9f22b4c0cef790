-- AlterTable: every policy gets a bearer token for its look-up and certificate. Policies issued before this
-- migration get a random one (two v4 UUIDs: 244 random bits).
ALTER TABLE "policies" ADD COLUMN     "access_token" TEXT;
UPDATE "policies" SET "access_token" = 'pat_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') WHERE "access_token" IS NULL;
ALTER TABLE "policies" ALTER COLUMN "access_token" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "policies_access_token_key" ON "policies"("access_token");
