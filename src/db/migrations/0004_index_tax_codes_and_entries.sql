-- Indexes for the sort keys of the tax code and accounting entry searches
-- (docs/decisions/pagination.md): each starts with the company, follows the sort expression and
-- ends in the id tie-breaker, so a keyset page starts at its cursor. DESC orders scan them
-- backwards.
CREATE INDEX tax_codes_company_created_at_idx ON tax_codes (company_id, created_at, id);
CREATE INDEX tax_codes_company_updated_at_idx ON tax_codes (company_id, updated_at, id);
-- code is nullable: its order is (null flag, value); the two null placements need one index each.
CREATE INDEX tax_codes_company_code_nulls_last_idx
  ON tax_codes (company_id, (code IS NULL), (coalesce(code, '')), id);
CREATE INDEX tax_codes_company_code_nulls_first_idx
  ON tax_codes (company_id, (code IS NOT NULL), (coalesce(code, '')), id);

CREATE INDEX accounting_entries_company_amount_idx ON accounting_entries (company_id, amount, id);
