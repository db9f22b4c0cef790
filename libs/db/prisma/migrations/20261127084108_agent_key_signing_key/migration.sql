-- AlterTable
ALTER TABLE "agent_keys" ADD COLUMN     "signing_algorithm" TEXT,
ADD COLUMN     "signing_key_set_at" TIMESTAMP(3),
ADD COLUMN     "signing_public_key" TEXT;
