-- AlterTable
ALTER TABLE "operators" ADD COLUMN     "brand_color" TEXT,
ADD COLUMN     "logo_url" TEXT;
