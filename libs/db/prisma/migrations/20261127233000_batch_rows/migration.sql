-- Hand-written: the rows of a batch statement (the sales that arrive together, docs/decisions.md "Sales that arrive
-- together"). Fulfillment's common path reads and writes any number of sales with one statement whose text does not
-- depend on how many, so each connection prepares it once and keeps one generic plan. Its rows come from one JSON
-- array parameter. PostgreSQL estimates a hundred rows for jsonb_array_elements, and a plan made for a hundred rows
-- joins by hashing whole tables (a sequential scan of quotes, payments, checkout sessions per statement). This
-- function says one row: the plan then looks each row up by index, the right plan for any batch we send (at most 16
-- rows) against tables of any size. PL/pgSQL, because PostgreSQL never inlines it (an inlined function's ROWS is not
-- used) and keeps the plan of its body for the session (a SQL function's body is planned again on every call).
-- Prisma's schema does not describe functions, so `npm run db:drift` does not see it.
CREATE OR REPLACE FUNCTION "batch_rows"(doc jsonb) RETURNS SETOF jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE ROWS 1
AS $$
BEGIN
  RETURN QUERY SELECT jsonb_array_elements(doc);
END
$$;
