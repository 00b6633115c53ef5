-- Inserted accounts are counted once per statement, one counter row per (company, archived), instead
-- of once per row into a random shard. A batch of 1,000 accounts (POST /v1/chart-of-accounts/batch)
-- otherwise locked all 16 shards of its company, each at a random moment: concurrent batches of one
-- company waited on each other's shards in opposite orders and deadlocked, each deadlock costing
-- PostgreSQL's deadlock_timeout (1 s) and a retry while holding a pool connection. Now a statement
-- locks at most one shard per (company, archived), in that order (false before true, as
-- account_counts_track does), at its end: two inserting statements wait for each other at most
-- once, never in a cycle. Deletes and archiving stay counted per row: each changes one account.

CREATE FUNCTION account_counts_track_inserts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_counts AS c (company_id, archived, shard, n)
  SELECT company_id, archived, floor(random() * 16)::smallint, count(*)
  FROM inserted_accounts
  GROUP BY company_id, archived
  ORDER BY company_id, archived
  ON CONFLICT (company_id, archived, shard) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$;

-- Both triggers are replaced in this migration's transaction, so no insert is counted twice or missed.
DROP TRIGGER accounts_count ON accounts;
CREATE TRIGGER accounts_count AFTER DELETE OR UPDATE OF archived ON accounts
  FOR EACH ROW EXECUTE FUNCTION account_counts_track();
CREATE TRIGGER accounts_count_inserts AFTER INSERT ON accounts
  REFERENCING NEW TABLE AS inserted_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION account_counts_track_inserts();
