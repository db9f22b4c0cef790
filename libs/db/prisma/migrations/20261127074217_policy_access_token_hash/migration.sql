-- No bearer token in clear at rest (docs/decisions.md, "Bearer secrets at rest"). A policy's access token is now
-- derived from its number with POLICY_TOKEN_SECRET and never stored. Policies issued before keep their random token
-- working through its SHA-256 (hex, as libs/platform's hashToken writes it).
ALTER TABLE "policies" ADD COLUMN     "access_token_hash" TEXT;
UPDATE "policies" SET "access_token_hash" = encode(sha256(convert_to("access_token", 'UTF8')), 'hex');

-- DropIndex
DROP INDEX "policies_access_token_key";

-- AlterTable
ALTER TABLE "policies" DROP COLUMN "access_token";

-- Certificate links are stored without their token; the token is derived again whenever a link is handed out.
UPDATE "webhook_events"
SET "payload" = jsonb_set("payload", '{documentUrl}', to_jsonb(split_part("payload"->>'documentUrl', '?', 1)))
WHERE jsonb_typeof("payload"->'documentUrl') = 'string';

UPDATE "acp_checkout_sessions"
SET "order" = jsonb_set("order", '{permalink_url}', to_jsonb(split_part("order"->>'permalink_url', '?', 1)))
WHERE jsonb_typeof("order"->'permalink_url') = 'string';

-- Cached idempotent answers: a purchase receipt keeps its certificate link without the token (a replay adds the
-- derived one); an ACP answer's order likewise; a cached checkout link is dropped (the next retry with that key opens
-- a new link, as after a link's expiry).
UPDATE "idempotency_records"
SET "body" = jsonb_set("body" - 'accessToken', '{documentUrl}', to_jsonb(split_part("body"->>'documentUrl', '?', 1)))
WHERE "scope" = 'purchase' AND jsonb_typeof("body"->'documentUrl') = 'string';

UPDATE "idempotency_records"
SET "body" = jsonb_set("body", '{order,permalink_url}', to_jsonb(split_part("body"#>>'{order,permalink_url}', '?', 1)))
WHERE "scope" LIKE 'acp:%' AND jsonb_typeof("body"#>'{order,permalink_url}') = 'string';

UPDATE "idempotency_records" SET "body" = "body" - 'checkoutUrl' WHERE "scope" = 'checkout';
