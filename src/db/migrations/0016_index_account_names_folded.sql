-- The name search compares case-folded text, and its trigram index holds that same text. It
-- compared `name COLLATE "und-x-icu" ILIKE pattern`, which lower-cases each side by itself: a Greek
-- Σ that ends the typed text became a final ς (ΛΟΓΑΡΙΑΣ → λογαριας) and no longer matched inside a
-- word (λογαριασμος). And pg_trgm lower-cased the index's trigrams with the database's collation, not
-- ICU's, so the index could drop rows the condition itself matched, and the answer depended on the
-- plan. Both sides are now lower(… COLLATE "und-x-icu") with ς read as σ (src/accounts/store.ts).

CREATE INDEX accounts_company_folded_name_trgm_idx
  ON accounts USING gin (company_id, translate(lower(name COLLATE "und-x-icu"), 'ς', 'σ') gin_trgm_ops);
DROP INDEX accounts_company_name_trgm_idx;
