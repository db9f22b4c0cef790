-- CreateEnum
CREATE TYPE "PolicyMailStatus" AS ENUM ('pending', 'sent', 'failed', 'no_address');

-- CreateTable
CREATE TABLE "policy_mails" (
    "id" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "recipient" TEXT,
    "status" "PolicyMailStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 6,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMP(3),
    "last_error" TEXT,
    "message_id" TEXT,
    "resends" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "policy_mails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "policy_mails_status_next_attempt_at_idx" ON "policy_mails"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "policy_mails_policy_id_kind_key" ON "policy_mails"("policy_id", "kind");

-- AddForeignKey
ALTER TABLE "policy_mails" ADD CONSTRAINT "policy_mails_policy_id_fkey" FOREIGN KEY ("policy_id") REFERENCES "policies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
