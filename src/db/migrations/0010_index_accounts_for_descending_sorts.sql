-- Descending sorts. `id` ASC breaks ties even after a DESC key (docs/decisions/pagination.md), and
-- an ascending index scanned backwards gives `id` DESC, so until now PostgreSQL sorted each run of
-- equal keys by id: a page cost the size of the run. With 100,000 accounts without a code, the
-- first page by `code DESC` (nulls first) sorted all of them (169 ms); accounts created in one
-- transaction share created_at and updated_at. Each index below, scanned backwards, reads `key
-- DESC, id ASC` directly. externalId is unique per company and `id` is the key itself: their DESC
-- sorts have no ties.

CREATE INDEX accounts_company_name_desc_idx ON accounts (company_id, name, id DESC);
CREATE INDEX accounts_company_created_at_desc_idx ON accounts (company_id, created_at, id DESC);
CREATE INDEX accounts_company_updated_at_desc_idx ON accounts (company_id, updated_at, id DESC);
-- code DESC places nulls first: (code IS NULL) DESC, then the value DESC.
CREATE INDEX accounts_company_code_nulls_last_desc_idx
  ON accounts (company_id, (code IS NULL), (coalesce(code, '')), id DESC);
-- code DESC_NULLS_LAST: (code IS NOT NULL) DESC, then the value DESC.
CREATE INDEX accounts_company_code_nulls_first_desc_idx
  ON accounts (company_id, (code IS NOT NULL), (coalesce(code, '')), id DESC);
