-- AlterTable
ALTER TABLE "payment_claims" ADD COLUMN     "attempt_started_at" TIMESTAMP(3),
ADD COLUMN     "processor_key" TEXT;

-- CreateIndex
CREATE INDEX "payment_claims_attempt_started_at_idx" ON "payment_claims"("attempt_started_at");

-- A claim that names a payment was started: the resolver asks the processor about it before any new attempt.
UPDATE "payment_claims" SET "attempt_started_at" = "updated_at" WHERE "processor_payment_id" IS NOT NULL;
