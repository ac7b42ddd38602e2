-- The flag raised for a currency sign several currencies use (a lone "$") said the currency came from the receipt's country; it never does. Stored flags and their acceptances take the new text.
UPDATE "receipts" SET "issues" = (
  SELECT jsonb_agg(CASE WHEN e.value = to_jsonb('Currency not printed; assumed from the receipt''s country'::text) THEN to_jsonb('Currency sign printed, but several currencies use it'::text) ELSE e.value END ORDER BY e.n)
  FROM jsonb_array_elements("receipts"."issues") WITH ORDINALITY AS e(value, n)
) WHERE "issues" @> to_jsonb(ARRAY['Currency not printed; assumed from the receipt''s country'::text]);
--> statement-breakpoint
UPDATE "receipts" SET "accepted_issues" = (
  SELECT jsonb_agg(CASE WHEN e.value->>'issue' = 'Currency not printed; assumed from the receipt''s country' THEN jsonb_set(e.value, '{issue}', to_jsonb('Currency sign printed, but several currencies use it'::text)) ELSE e.value END ORDER BY e.n)
  FROM jsonb_array_elements("receipts"."accepted_issues") WITH ORDINALITY AS e(value, n)
) WHERE "accepted_issues" @> jsonb_build_array(jsonb_build_object('issue', 'Currency not printed; assumed from the receipt''s country'));
