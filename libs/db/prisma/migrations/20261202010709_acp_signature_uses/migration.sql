-- CreateTable
CREATE TABLE "acp_signature_uses" (
    "digest" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "acp_signature_uses_pkey" PRIMARY KEY ("digest")
);

-- CreateIndex
CREATE INDEX "acp_signature_uses_expires_at_idx" ON "acp_signature_uses"("expires_at");
