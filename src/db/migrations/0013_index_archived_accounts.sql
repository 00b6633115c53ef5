-- The archived accounts of each company, and only those. A search for archived accounts alone
-- walked the company in sort order testing every account: 651 ms for the 10 archived accounts of a
-- company of 200,000. When a company's archived accounts are few (searchAccounts decides, from the
-- account counters), they are found here and sorted instead: 0.2 ms (docs/decisions/pagination.md).

CREATE INDEX accounts_company_archived_idx ON accounts (company_id) WHERE archived;
