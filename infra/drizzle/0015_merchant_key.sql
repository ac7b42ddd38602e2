ALTER TABLE "receipts" ADD COLUMN "merchant_key" text;
--> statement-breakpoint
-- The stored receipts' keys, as merchantKey (common/src/merchant-rules.rule.ts) makes them, in
-- SQL: accents dropped (NFKD, then the combining marks), lower-cased, words of letters and digits,
-- the letters OCR confuses folded (0dq1l58627 to oooiisbgzt, as CONFUSABLE), a trailing run of
-- (folded) legal forms dropped while a word is left, then the words joined. The same key for
-- names in Latin letters; a mark outside U+0300-U+036F stays, and letters of other scripts are
-- cased and classed by the database's locale instead of by Unicode.
UPDATE "receipts" SET "merchant_key" = replace(
  regexp_replace(
    translate(
      btrim(regexp_replace(lower(regexp_replace(normalize("merchant_name", NFKD), '[\u0300-\u036f]+', '', 'g')), '[^[:alnum:]]+', ' ', 'g')),
      '0125678dql', 'oizsgtbooi'
    ),
    '(?<=\S)( (iimiteo|gmbh|corp|sari|son|bho|ito|inc|iic|pic|pty|sri|spa|sb|ag|kg|co|sa|bv|nv|kk))+$', ''
  ),
  ' ', ''
) WHERE "merchant_name" IS NOT NULL;
