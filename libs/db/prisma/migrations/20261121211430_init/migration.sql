-- CreateEnum
CREATE TYPE "operator_status" AS ENUM ('pending', 'active', 'suspended');

-- CreateEnum
CREATE TYPE "key_mode" AS ENUM ('test', 'live');

-- CreateEnum
CREATE TYPE "quote_source" AS ENUM ('api', 'embed', 'acp');

-- CreateEnum
CREATE TYPE "quote_status" AS ENUM ('quoted', 'checkout_open', 'purchased', 'expired', 'cancelled');

-- CreateEnum
CREATE TYPE "options_status" AS ENUM ('not_eligible', 'pending', 'ready', 'failed');

-- CreateEnum
CREATE TYPE "checkout_status" AS ENUM ('open', 'paid', 'expired');

-- CreateEnum
CREATE TYPE "payment_channel" AS ENUM ('checkout_link', 'mpp', 'embed', 'acp');

-- CreateEnum
CREATE TYPE "payment_status" AS ENUM ('pending', 'requires_action', 'processing', 'succeeded', 'failed', 'canceled');

-- CreateEnum
CREATE TYPE "webhook_event_status" AS ENUM ('pending', 'delivered', 'failed');

-- CreateEnum
CREATE TYPE "user_role" AS ENUM ('owner', 'admin', 'member');

-- CreateTable
CREATE TABLE "operators" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "operator_status" NOT NULL DEFAULT 'pending',
    "embedding_enabled" BOOLEAN NOT NULL DEFAULT false,
    "commission_rate_bps" INTEGER NOT NULL DEFAULT 1000,
    "webhook_url" TEXT,
    "webhook_secret" TEXT,
    "integration_tier" INTEGER NOT NULL DEFAULT 1,
    "contact_email" TEXT,
    "website_url" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "operators_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_users" (
    "id" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "user_role" NOT NULL DEFAULT 'member',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_login_at" TIMESTAMP(3),

    CONSTRAINT "operator_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_sessions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "operator_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "publishable_keys" (
    "id" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "mode" "key_mode" NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "publishable_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "secret_keys" (
    "id" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "mode" "key_mode" NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "secret_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "allowed_origins" (
    "id" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "allowed_origins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plans" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "carrier" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "destinations" TEXT[],
    "availability_mode" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "catalog_version" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quotes" (
    "id" TEXT NOT NULL,
    "quote_number" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "source" "quote_source" NOT NULL,
    "operator_id" TEXT,
    "mode" "key_mode" NOT NULL DEFAULT 'test',
    "status" "quote_status" NOT NULL DEFAULT 'quoted',
    "options_status" "options_status" NOT NULL DEFAULT 'pending',
    "options_attempts" INTEGER NOT NULL DEFAULT 0,
    "options_locked_until" TIMESTAMP(3),
    "options_error" TEXT,
    "destination_slug" TEXT NOT NULL,
    "other_countries" TEXT[],
    "start_date" DATE,
    "end_date" DATE,
    "duration_days" INTEGER NOT NULL,
    "duration_defaulted" BOOLEAN NOT NULL DEFAULT false,
    "trip_cost_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "travelers" INTEGER NOT NULL,
    "traveler_ages" INTEGER[],
    "residence" TEXT NOT NULL,
    "state" TEXT,
    "deposit_paid_date" DATE,
    "email" TEXT,
    "name" TEXT,
    "phone" TEXT,
    "operator_name" TEXT,
    "recommended_plan_id" TEXT,
    "instant_quote_eligible" BOOLEAN NOT NULL DEFAULT false,
    "trip_summary" JSONB,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "quotes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_estimates" (
    "id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "premium_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "traveler_premiums_cents" INTEGER[],
    "confidence" TEXT NOT NULL,
    "is_recommended" BOOLEAN NOT NULL DEFAULT false,
    "rank" INTEGER NOT NULL,
    "notes" TEXT,
    "cfar_eligible" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quote_estimates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_options" (
    "id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "premium_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "rank" INTEGER NOT NULL,
    "is_recommended" BOOLEAN NOT NULL DEFAULT false,
    "coverage" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quote_options_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "checkout_sessions" (
    "id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "premium_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "email" TEXT,
    "guest_names" TEXT[],
    "agent_summary" TEXT,
    "status" "checkout_status" NOT NULL DEFAULT 'open',
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "paid_at" TIMESTAMP(3),

    CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_challenges" (
    "id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "realm" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_at" TIMESTAMP(3),
    "spt_hash" TEXT,

    CONSTRAINT "payment_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "body_hash" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "headers" JSONB NOT NULL,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("scope","key")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "operator_id" TEXT,
    "mode" "key_mode" NOT NULL,
    "channel" "payment_channel" NOT NULL,
    "processor" TEXT NOT NULL,
    "processor_payment_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "status" "payment_status" NOT NULL DEFAULT 'pending',
    "failure_code" TEXT,
    "failure_message" TEXT,
    "checkout_session_id" TEXT,
    "challenge_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processor_events" (
    "id" TEXT NOT NULL,
    "processor" TEXT NOT NULL,
    "processor_event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMP(3),

    CONSTRAINT "processor_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchases" (
    "id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "payment_id" TEXT,
    "processor_payment_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "channel" "payment_channel" NOT NULL,
    "mode" "key_mode" NOT NULL,
    "operator_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "policies" (
    "id" TEXT NOT NULL,
    "policy_number" TEXT NOT NULL,
    "purchase_id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "operator_id" TEXT,
    "mode" "key_mode" NOT NULL DEFAULT 'test',
    "travelers" INTEGER NOT NULL,
    "traveler_ages" INTEGER[],
    "start_date" DATE,
    "end_date" DATE,
    "premium_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "status" TEXT NOT NULL DEFAULT 'issued',
    "issued_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "commissions" (
    "id" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "rate_bps" INTEGER NOT NULL,
    "premium_cents" INTEGER NOT NULL,
    "commission_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "webhook_event_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMP(3),
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL,
    "webhook_event_id" TEXT NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "operator_users_email_key" ON "operator_users"("email");

-- CreateIndex
CREATE INDEX "operator_users_operator_id_idx" ON "operator_users"("operator_id");

-- CreateIndex
CREATE UNIQUE INDEX "operator_sessions_token_hash_key" ON "operator_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "operator_sessions_user_id_idx" ON "operator_sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "publishable_keys_key_key" ON "publishable_keys"("key");

-- CreateIndex
CREATE INDEX "publishable_keys_operator_id_idx" ON "publishable_keys"("operator_id");

-- CreateIndex
CREATE UNIQUE INDEX "secret_keys_hash_key" ON "secret_keys"("hash");

-- CreateIndex
CREATE INDEX "secret_keys_operator_id_idx" ON "secret_keys"("operator_id");

-- CreateIndex
CREATE UNIQUE INDEX "allowed_origins_operator_id_origin_key" ON "allowed_origins"("operator_id", "origin");

-- CreateIndex
CREATE UNIQUE INDEX "quotes_quote_number_key" ON "quotes"("quote_number");

-- CreateIndex
CREATE UNIQUE INDEX "quotes_session_id_key" ON "quotes"("session_id");

-- CreateIndex
CREATE INDEX "quotes_operator_id_idx" ON "quotes"("operator_id");

-- CreateIndex
CREATE INDEX "quotes_options_status_options_locked_until_idx" ON "quotes"("options_status", "options_locked_until");

-- CreateIndex
CREATE INDEX "quote_estimates_plan_id_idx" ON "quote_estimates"("plan_id");

-- CreateIndex
CREATE UNIQUE INDEX "quote_estimates_quote_id_plan_id_key" ON "quote_estimates"("quote_id", "plan_id");

-- CreateIndex
CREATE INDEX "quote_options_plan_id_idx" ON "quote_options"("plan_id");

-- CreateIndex
CREATE UNIQUE INDEX "quote_options_quote_id_plan_id_key" ON "quote_options"("quote_id", "plan_id");

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_token_key" ON "checkout_sessions"("token");

-- CreateIndex
CREATE INDEX "checkout_sessions_quote_id_idx" ON "checkout_sessions"("quote_id");

-- CreateIndex
CREATE UNIQUE INDEX "payment_challenges_spt_hash_key" ON "payment_challenges"("spt_hash");

-- CreateIndex
CREATE INDEX "payment_challenges_quote_id_idx" ON "payment_challenges"("quote_id");

-- CreateIndex
CREATE INDEX "idempotency_records_created_at_idx" ON "idempotency_records"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "payments_processor_payment_id_key" ON "payments"("processor_payment_id");

-- CreateIndex
CREATE INDEX "payments_quote_id_idx" ON "payments"("quote_id");

-- CreateIndex
CREATE INDEX "payments_operator_id_idx" ON "payments"("operator_id");

-- CreateIndex
CREATE INDEX "payments_checkout_session_id_idx" ON "payments"("checkout_session_id");

-- CreateIndex
CREATE INDEX "payments_challenge_id_idx" ON "payments"("challenge_id");

-- CreateIndex
CREATE UNIQUE INDEX "processor_events_processor_event_id_key" ON "processor_events"("processor_event_id");

-- CreateIndex
CREATE UNIQUE INDEX "purchases_quote_id_key" ON "purchases"("quote_id");

-- CreateIndex
CREATE UNIQUE INDEX "purchases_payment_id_key" ON "purchases"("payment_id");

-- CreateIndex
CREATE UNIQUE INDEX "purchases_processor_payment_id_key" ON "purchases"("processor_payment_id");

-- CreateIndex
CREATE INDEX "purchases_operator_id_idx" ON "purchases"("operator_id");

-- CreateIndex
CREATE UNIQUE INDEX "policies_policy_number_key" ON "policies"("policy_number");

-- CreateIndex
CREATE UNIQUE INDEX "policies_purchase_id_key" ON "policies"("purchase_id");

-- CreateIndex
CREATE UNIQUE INDEX "policies_quote_id_key" ON "policies"("quote_id");

-- CreateIndex
CREATE INDEX "policies_operator_id_idx" ON "policies"("operator_id");

-- CreateIndex
CREATE UNIQUE INDEX "commissions_policy_id_key" ON "commissions"("policy_id");

-- CreateIndex
CREATE INDEX "commissions_operator_id_idx" ON "commissions"("operator_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_events_event_id_key" ON "webhook_events"("event_id");

-- CreateIndex
CREATE INDEX "webhook_events_status_next_attempt_at_idx" ON "webhook_events"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_events_operator_id_idx" ON "webhook_events"("operator_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_attempts_webhook_event_id_attempt_number_key" ON "webhook_attempts"("webhook_event_id", "attempt_number");

-- AddForeignKey
ALTER TABLE "operator_users" ADD CONSTRAINT "operator_users_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "operator_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "publishable_keys" ADD CONSTRAINT "publishable_keys_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "secret_keys" ADD CONSTRAINT "secret_keys_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "allowed_origins" ADD CONSTRAINT "allowed_origins_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_estimates" ADD CONSTRAINT "quote_estimates_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_estimates" ADD CONSTRAINT "quote_estimates_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_options" ADD CONSTRAINT "quote_options_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_options" ADD CONSTRAINT "quote_options_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_challenges" ADD CONSTRAINT "payment_challenges_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_challenges" ADD CONSTRAINT "payment_challenges_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_checkout_session_id_fkey" FOREIGN KEY ("checkout_session_id") REFERENCES "checkout_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "payment_challenges"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policies" ADD CONSTRAINT "policies_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policies" ADD CONSTRAINT "policies_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policies" ADD CONSTRAINT "policies_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policies" ADD CONSTRAINT "policies_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_policy_id_fkey" FOREIGN KEY ("policy_id") REFERENCES "policies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_webhook_event_id_fkey" FOREIGN KEY ("webhook_event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
