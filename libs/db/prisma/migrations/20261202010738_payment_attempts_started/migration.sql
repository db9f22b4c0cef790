-- AlterTable
ALTER TABLE "payment_claims" ADD COLUMN     "attempt_started_at" TIMESTAMP(3),
ADD COLUMN     "processor_key" TEXT;

-- CreateIndex
CREATE INDEX "payment_claims_attempt_started_at_idx" ON "payment_claims"("attempt_started_at");
