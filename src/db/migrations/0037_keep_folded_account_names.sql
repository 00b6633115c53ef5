-- The name search compares each account's name case-folded: lowered by the ICU root collation, with
-- a final ς read as σ (migration 0016). Kept as a stored column, the folding is done once per write
-- instead of on every row a search rechecks, and the planner keeps statistics of the folded names.
-- Generated, so every write path (single and batch creates, updates) keeps it without being told,
-- and adding it computes it for the existing rows. Compared byte-wise ("C"): the search asks for a
-- substring, which no collation changes.
ALTER TABLE accounts ADD COLUMN name_folded text COLLATE "C" NOT NULL
  GENERATED ALWAYS AS (translate(lower(name COLLATE "und-x-icu"), 'ς', 'σ')) STORED;

CREATE INDEX accounts_company_name_folded_trgm_idx ON accounts USING gin (company_id, name_folded gin_trgm_ops);
-- The company's folded names beside each other: a search that matches many of them is counted by
-- reading this index alone (an index-only scan tests each name here instead of each match's row in
-- the table), and text without a trigram is tested here.
CREATE INDEX accounts_company_name_folded_idx ON accounts (company_id, name_folded);
DROP INDEX accounts_company_folded_name_trgm_idx;
