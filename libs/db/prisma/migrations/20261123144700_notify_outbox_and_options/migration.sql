-- Hand-written: LISTEN/NOTIFY wake-ups for the workers (libs/db/src/notifications.ts). Prisma's schema does not
-- describe functions or triggers, so `npm run db:drift` does not see them. Each inserting statement sends ONE
-- notification whose payload is the table's schema (listeners in other schemas of the same database ignore it);
-- PostgreSQL folds identical notifications of one transaction into one. Polling stays the safety net.

-- A new policy.issued outbox row: wake the delivery workers.
CREATE OR REPLACE FUNCTION "notify_outbox_inserted"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('expedition_outbox', TG_TABLE_SCHEMA);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_events_notify_outbox"
AFTER INSERT ON "webhook_events"
FOR EACH STATEMENT EXECUTE FUNCTION "notify_outbox_inserted"();

-- A quote waiting for bindable options: wake the options workers (only when the statement inserted such a quote).
CREATE OR REPLACE FUNCTION "notify_quote_options_pending"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted WHERE "options_status" = 'pending') THEN
    PERFORM pg_notify('expedition_quote_options', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "quotes_notify_options_pending"
AFTER INSERT ON "quotes"
REFERENCING NEW TABLE AS inserted
FOR EACH STATEMENT EXECUTE FUNCTION "notify_quote_options_pending"();
