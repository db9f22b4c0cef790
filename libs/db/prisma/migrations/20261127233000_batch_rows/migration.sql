-- Hand-written: the rows of a batch statement (the sales that arrive together, docs/decisions.md "Sales that arrive
-- together"). Fulfillment's common path reads and writes any number of sales with one statement whose text does not
-- depend on how many, so each connection prepares it once and keeps one generic plan. Its rows come from one JSON
-- array parameter. PostgreSQL estimates a hundred rows for jsonb_array_elements, and a plan made for a hundred rows
-- joins by hashing whole tables (a sequential scan of quotes, payments, checkout sessions per statement). This
-- function says one row: the plan then looks each row up by index, the right plan for any batch we send (at most 16
-- rows) against tables of any size. STRICT keeps PostgreSQL from inlining it (an inlined function's ROWS is not used).
-- Prisma's schema does not describe functions, so `npm run db:drift` does not see it.
CREATE OR REPLACE FUNCTION "batch_rows"(doc jsonb) RETURNS SETOF jsonb
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE ROWS 1
AS $$ SELECT jsonb_array_elements(doc) $$;
