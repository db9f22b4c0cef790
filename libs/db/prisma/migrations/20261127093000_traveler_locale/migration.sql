-- AlterTable
ALTER TABLE "acp_checkout_sessions" ADD COLUMN     "locale" TEXT NOT NULL DEFAULT 'en';

-- AlterTable
ALTER TABLE "quotes" ADD COLUMN     "locale" TEXT NOT NULL DEFAULT 'en';
