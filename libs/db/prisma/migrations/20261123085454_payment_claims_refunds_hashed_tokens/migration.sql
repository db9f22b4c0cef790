-- CreateEnum
CREATE TYPE "refund_status" AS ENUM ('pending', 'succeeded', 'failed');

-- DropIndex
DROP INDEX "checkout_sessions_token_key";

-- DropIndex
DROP INDEX "quotes_session_id_key";

-- AlterTable
-- Existing links keep working: their tokens are hashed in place (sha256 hex, as the application computes it).
ALTER TABLE "checkout_sessions" ADD COLUMN     "token_hash" TEXT;
UPDATE "checkout_sessions" SET "token_hash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');
ALTER TABLE "checkout_sessions" ALTER COLUMN "token_hash" SET NOT NULL;
ALTER TABLE "checkout_sessions" DROP COLUMN "token";

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "processor_refund_id" TEXT,
ADD COLUMN     "refund_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "refund_error" TEXT,
ADD COLUMN     "refund_reason" TEXT,
ADD COLUMN     "refund_status" "refund_status",
ADD COLUMN     "refunded_at" TIMESTAMP(3);

-- AlterTable
-- Existing quotes keep their sessionId: it is hashed in place.
ALTER TABLE "quotes" ADD COLUMN     "session_id_hash" TEXT;
UPDATE "quotes" SET "session_id_hash" = encode(sha256(convert_to("session_id", 'UTF8')), 'hex');
ALTER TABLE "quotes" ALTER COLUMN "session_id_hash" SET NOT NULL;
ALTER TABLE "quotes" DROP COLUMN "session_id",
DROP COLUMN "trip_summary";

-- CreateTable
CREATE TABLE "payment_claims" (
    "quote_id" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "channel" "payment_channel" NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "processor_payment_id" TEXT,
    "lease_until" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payment_claims_pkey" PRIMARY KEY ("quote_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_token_hash_key" ON "checkout_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "payments_refund_status_idx" ON "payments"("refund_status");

-- CreateIndex
CREATE UNIQUE INDEX "quotes_session_id_hash_key" ON "quotes"("session_id_hash");

-- AddForeignKey
ALTER TABLE "payment_claims" ADD CONSTRAINT "payment_claims_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
