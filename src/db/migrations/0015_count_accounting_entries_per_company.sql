-- Exact `total` for a company's accounting entries without counting them on every page, as
-- account_counts does for accounts: a page of a company's 200,000 entries cost 17 ms, nearly all of it
-- count(*), and grows with the company (docs/decisions/tax-codes-and-entries.md). Split into 16 shards
-- so that concurrent creates rarely wait on the same row; an entry never changes company.
CREATE TABLE accounting_entry_counts (
  company_id uuid NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (company_id, shard)
);

CREATE FUNCTION accounting_entry_counts_track() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO accounting_entry_counts AS c (company_id, shard, n)
  VALUES (
    CASE TG_OP WHEN 'INSERT' THEN NEW.company_id ELSE OLD.company_id END,
    floor(random() * 16)::smallint,
    CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END
  )
  ON CONFLICT (company_id, shard) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$;

-- The trigger first: creating it waits for transactions writing entries and holds back new ones
-- until this migration commits, so the count below and the trigger together miss no entry.
CREATE TRIGGER accounting_entries_count AFTER INSERT OR DELETE ON accounting_entries
  FOR EACH ROW EXECUTE FUNCTION accounting_entry_counts_track();

INSERT INTO accounting_entry_counts (company_id, shard, n)
SELECT company_id, 0, count(*) FROM accounting_entries GROUP BY company_id;
