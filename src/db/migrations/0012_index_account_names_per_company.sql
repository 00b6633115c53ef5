-- The name search's trigram index, led by company_id. With the name alone, a search read every
-- company's matches and dropped the others' afterwards, so a company of 50,000 accounts searched as
-- slowly as the million-account company beside it. btree_gin lets a GIN index hold the uuid too:
-- the company's entry narrows the trigram lists before any row is read (docs/decisions/pagination.md).

CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

CREATE INDEX accounts_company_name_trgm_idx
  ON accounts USING gin (company_id, name COLLATE "und-x-icu" gin_trgm_ops);
DROP INDEX accounts_name_trgm_idx;
