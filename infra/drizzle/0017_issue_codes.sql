-- Issues were stored as the messages people read; they are stored as a code with its values now, the message rendered from one table (common/src/extraction/issue-codes.rules.ts). Each stored message becomes the flag whose template it matches whole (flagOfMessage), one no template matches a legacy flag that keeps its text; an acceptance keeps who and when, its message becoming the flag.
CREATE FUNCTION pg_temp.issue_flag(message text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN message = 'Missing all key fields (merchant, total, and date)' THEN jsonb_build_object('code', 'missingKeyFields', 'values', '{}'::jsonb)
    WHEN message ~ '^Total mismatch: (.+) vs calculated (.+)$' THEN (
      SELECT jsonb_build_object('code', 'totalMismatch', 'values', jsonb_build_object('total', m[1], 'calculated', m[2]))
      FROM regexp_match(message, '^Total mismatch: (.+) vs calculated (.+)$') AS m)
    WHEN message = 'Invalid date format' THEN jsonb_build_object('code', 'invalidDate', 'values', '{}'::jsonb)
    WHEN message = 'Date out of reasonable range' THEN jsonb_build_object('code', 'dateOutOfRange', 'values', '{}'::jsonb)
    WHEN message = 'Zero or negative total amount' THEN jsonb_build_object('code', 'nonPositiveTotal', 'values', '{}'::jsonb)
    WHEN message = 'Unusually large total amount' THEN jsonb_build_object('code', 'largeTotal', 'values', '{}'::jsonb)
    WHEN message ~ '^Suspicious tax rate: (.+)%$' THEN (
      SELECT jsonb_build_object('code', 'suspiciousTaxRate', 'values', jsonb_build_object('rate', m[1]))
      FROM regexp_match(message, '^Suspicious tax rate: (.+)%$') AS m)
    WHEN message ~ '^Items add up to (.+), not (.+)$' THEN (
      SELECT jsonb_build_object('code', 'itemsDontAddUp', 'values', jsonb_build_object('sum', m[1], 'expected', m[2]))
      FROM regexp_match(message, '^Items add up to (.+), not (.+)$') AS m)
    WHEN message = 'Total not found' THEN jsonb_build_object('code', 'totalNotFound', 'values', '{}'::jsonb)
    WHEN message = 'Total not confirmed by subtotal and tax' THEN jsonb_build_object('code', 'totalUnconfirmed', 'values', '{}'::jsonb)
    WHEN message = 'Total may be handwritten' THEN jsonb_build_object('code', 'totalHandwritten', 'values', '{}'::jsonb)
    WHEN message = 'Date not found' THEN jsonb_build_object('code', 'dateNotFound', 'values', '{}'::jsonb)
    WHEN message = 'Day and month could be either way' THEN jsonb_build_object('code', 'dateEitherWay', 'values', '{}'::jsonb)
    WHEN message = 'Date far from the receipt''s other dates' THEN jsonb_build_object('code', 'dateFarFromOthers', 'values', '{}'::jsonb)
    WHEN message = 'Merchant not found' THEN jsonb_build_object('code', 'merchantNotFound', 'values', '{}'::jsonb)
    WHEN message = 'Merchant read from a line below the header' THEN jsonb_build_object('code', 'merchantBelowHeader', 'values', '{}'::jsonb)
    WHEN message = 'Merchant not confirmed by a business word or known chain' THEN jsonb_build_object('code', 'merchantUnconfirmed', 'values', '{}'::jsonb)
    WHEN message = 'Merchant name may continue on the next line' THEN jsonb_build_object('code', 'merchantMayContinue', 'values', '{}'::jsonb)
    WHEN message = 'Currency not printed; assumed from your choice' THEN jsonb_build_object('code', 'currencyAssumed', 'values', '{}'::jsonb)
    WHEN message = 'Currency not printed; assumed USD' THEN jsonb_build_object('code', 'currencyDefault', 'values', '{}'::jsonb)
    WHEN message = 'Currency sign printed, but several currencies use it' THEN jsonb_build_object('code', 'currencyWeak', 'values', '{}'::jsonb)
    WHEN message = 'Quality below 60%' THEN jsonb_build_object('code', 'lowQuality', 'values', '{}'::jsonb)
    ELSE jsonb_build_object('code', 'legacy', 'values', jsonb_build_object('text', message))
  END
$$;
--> statement-breakpoint
UPDATE "receipts" SET "issues" = (
  SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(e.value) = 'string' THEN pg_temp.issue_flag(e.value #>> '{}') ELSE e.value END ORDER BY e.n), '[]'::jsonb)
  FROM jsonb_array_elements("receipts"."issues") WITH ORDINALITY AS e(value, n)
) WHERE "issues" <> '[]'::jsonb;
--> statement-breakpoint
UPDATE "receipts" SET "accepted_issues" = (
  SELECT coalesce(jsonb_agg(CASE WHEN e.value ? 'issue' THEN (e.value - 'issue') || jsonb_build_object('flag', pg_temp.issue_flag(e.value->>'issue')) ELSE e.value END ORDER BY e.n), '[]'::jsonb)
  FROM jsonb_array_elements("receipts"."accepted_issues") WITH ORDINALITY AS e(value, n)
) WHERE "accepted_issues" <> '[]'::jsonb;
--> statement-breakpoint
DROP FUNCTION pg_temp.issue_flag(text);
