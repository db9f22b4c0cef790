-- CreateEnum
CREATE TYPE "user_token_purpose" AS ENUM ('verify_email', 'reset_password', 'invite');

-- AlterEnum (hand-edited: the unused `admin` role becomes the provider's admin; values keep their order)
ALTER TYPE "user_role" RENAME VALUE 'admin' TO 'provider_admin';

-- AlterTable
ALTER TABLE "operator_sessions" ADD COLUMN     "csrf_token" TEXT NOT NULL,
ADD COLUMN     "ip" TEXT,
ADD COLUMN     "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "user_agent" TEXT;

-- AlterTable
ALTER TABLE "operator_users" ADD COLUMN     "disabled_at" TIMESTAMP(3),
ADD COLUMN     "email_verified_at" TIMESTAMP(3),
ADD COLUMN     "name" TEXT,
ALTER COLUMN "operator_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "operators" ADD COLUMN     "webhook_secret_previous" TEXT,
ADD COLUMN     "webhook_secret_previous_expires_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "is_test" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "max_attempts" INTEGER NOT NULL DEFAULT 3;

-- CreateTable
CREATE TABLE "user_tokens" (
    "id" TEXT NOT NULL,
    "purpose" "user_token_purpose" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT,
    "email" TEXT NOT NULL,
    "operator_id" TEXT,
    "role" "user_role",
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_user_id" TEXT,
    "actor_email" TEXT,
    "actor_role" TEXT,
    "operator_id" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "before" JSONB,
    "after" JSONB,
    "ip" TEXT,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_tokens_token_hash_key" ON "user_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "user_tokens_user_id_idx" ON "user_tokens"("user_id");

-- CreateIndex
CREATE INDEX "user_tokens_email_idx" ON "user_tokens"("email");

-- CreateIndex
CREATE INDEX "audit_entries_operator_id_at_idx" ON "audit_entries"("operator_id", "at");

-- CreateIndex
CREATE INDEX "audit_entries_at_idx" ON "audit_entries"("at");

-- AddForeignKey
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "operator_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE CASCADE;
