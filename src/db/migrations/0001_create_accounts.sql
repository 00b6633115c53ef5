-- Accounts: the chart of accounts an integration mirrors from its ERP (the API's account object).
-- Sortable text is compared with COLLATE "C" (code point order) so that both backends, and the
-- cursors they issue, order rows identically.

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL,
  external_id text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  code text COLLATE "C",
  archived boolean NOT NULL,
  tax_code_external_id text,
  metadata jsonb,
  accounting_system text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The identity of an account in its company (its externalId) and the externalId sort.
CREATE UNIQUE INDEX accounts_company_external_id_key ON accounts (company_id, external_id);

-- One index per sort key, each ending in the id tie-breaker, so that a keyset page starts at its
-- cursor instead of scanning the rows before it. DESC orders scan these backwards.
CREATE INDEX accounts_company_name_idx ON accounts (company_id, name, id);
CREATE INDEX accounts_company_id_idx ON accounts (company_id, id);
CREATE INDEX accounts_company_created_at_idx ON accounts (company_id, created_at, id);
CREATE INDEX accounts_company_updated_at_idx ON accounts (company_id, updated_at, id);
-- code is nullable: its order is (null flag, value); the two null placements need one index each.
CREATE INDEX accounts_company_code_nulls_last_idx
  ON accounts (company_id, (code IS NULL), (coalesce(code, '')), id);
CREATE INDEX accounts_company_code_nulls_first_idx
  ON accounts (company_id, (code IS NOT NULL), (coalesce(code, '')), id);

-- Case-insensitive substring search on name.
CREATE INDEX accounts_name_trgm_idx ON accounts USING gin (name gin_trgm_ops);

-- Exact `total` for unfiltered searches without counting a million rows: a counter per company and
-- archived flag, split into shards so that concurrent creates rarely wait on the same row.
CREATE TABLE account_counts (
  company_id uuid NOT NULL,
  archived boolean NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (company_id, archived, shard)
);

CREATE FUNCTION account_counts_add(company uuid, is_archived boolean, delta integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO account_counts AS c (company_id, archived, shard, n)
  VALUES (company, is_archived, floor(random() * 16)::smallint, delta)
  ON CONFLICT (company_id, archived, shard) DO UPDATE SET n = c.n + excluded.n
$$;

-- Rows of one change are always locked in the same order (archived false before true), so two
-- archiving transactions cannot deadlock on the counters.
CREATE FUNCTION account_counts_track() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM account_counts_add(NEW.company_id, NEW.archived, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM account_counts_add(OLD.company_id, OLD.archived, -1);
  ELSIF OLD.archived IS DISTINCT FROM NEW.archived THEN
    PERFORM account_counts_add(OLD.company_id, OLD.archived, -1) WHERE NOT OLD.archived;
    PERFORM account_counts_add(NEW.company_id, NEW.archived, 1) WHERE NOT NEW.archived;
    PERFORM account_counts_add(OLD.company_id, OLD.archived, -1) WHERE OLD.archived;
    PERFORM account_counts_add(NEW.company_id, NEW.archived, 1) WHERE NEW.archived;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER accounts_count AFTER INSERT OR DELETE OR UPDATE OF archived ON accounts
  FOR EACH ROW EXECUTE FUNCTION account_counts_track();
