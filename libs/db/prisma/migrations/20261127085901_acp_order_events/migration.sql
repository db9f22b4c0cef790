-- AlterTable
ALTER TABLE "agent_keys" ADD COLUMN     "webhook_secret" TEXT,
ADD COLUMN     "webhook_url" TEXT;

-- CreateTable
CREATE TABLE "acp_order_events" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "agent_key_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "checkout_session_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "webhook_event_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 5,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMP(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),

    CONSTRAINT "acp_order_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "acp_order_events_event_id_key" ON "acp_order_events"("event_id");

-- CreateIndex
CREATE INDEX "acp_order_events_status_next_attempt_at_idx" ON "acp_order_events"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "acp_order_events_agent_key_id_created_at_idx" ON "acp_order_events"("agent_key_id", "created_at");

-- AddForeignKey
ALTER TABLE "acp_order_events" ADD CONSTRAINT "acp_order_events_agent_key_id_fkey" FOREIGN KEY ("agent_key_id") REFERENCES "agent_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
