-- The name sort's indexes carry each account's folded name (migration 0037), so that a name search
-- that matches many accounts walks the company in name order testing the name in the index alone
-- (an index-only scan) and reads from the table only the page's rows, found again by id, instead of
-- the row of every account it passes (docs/decisions/pagination.md, "Name search"). They replace the
-- two name indexes of migrations 0001 and 0010, and still serve every page sorted by name, ascending
-- (the first) and descending (the second).
--
-- The (company_id, name_folded) index of migration 0037 stays: counting a search's many matches by
-- testing the company's folded names in an index alone reads it, at about half the size of these.
--
-- Locks: CREATE INDEX holds a SHARE lock on accounts while it builds (reads go on, writes wait); the
-- DROP and RENAME at the end take ACCESS EXCLUSIVE until the migration commits, which is right after.
CREATE INDEX accounts_company_name_with_folded_idx ON accounts (company_id, name, id) INCLUDE (name_folded);
CREATE INDEX accounts_company_name_desc_with_folded_idx
  ON accounts (company_id, name, id DESC) INCLUDE (name_folded);
DROP INDEX accounts_company_name_idx;
DROP INDEX accounts_company_name_desc_idx;
ALTER INDEX accounts_company_name_with_folded_idx RENAME TO accounts_company_name_idx;
ALTER INDEX accounts_company_name_desc_with_folded_idx RENAME TO accounts_company_name_desc_idx;
