-- CreateTable
CREATE TABLE "agent_keys" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mode" "key_mode" NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "agent_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "acp_checkout_sessions" (
    "id" TEXT NOT NULL,
    "agent_key_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "plan_id" TEXT,
    "quote_id" TEXT,
    "trip" JSONB,
    "buyer" JSONB,
    "metadata" JSONB,
    "messages" JSONB NOT NULL,
    "order" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),
    "canceled_at" TIMESTAMP(3),

    CONSTRAINT "acp_checkout_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "agent_keys_hash_key" ON "agent_keys"("hash");

-- CreateIndex
CREATE INDEX "acp_checkout_sessions_agent_key_id_idx" ON "acp_checkout_sessions"("agent_key_id");

-- CreateIndex
CREATE INDEX "acp_checkout_sessions_quote_id_idx" ON "acp_checkout_sessions"("quote_id");

-- AddForeignKey
ALTER TABLE "acp_checkout_sessions" ADD CONSTRAINT "acp_checkout_sessions_agent_key_id_fkey" FOREIGN KEY ("agent_key_id") REFERENCES "agent_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
