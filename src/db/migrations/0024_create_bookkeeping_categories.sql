-- Bookkeeping category groups and categories (docs/decisions/bookkeeping.md). A category books to
-- an account of its company and belongs to a group of its company; both references are foreign keys
-- ON DELETE RESTRICT, so neither an account a category uses nor a group with categories can be
-- deleted, whatever runs at the same time.
CREATE TABLE bookkeeping_category_groups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL,
  external_id text COLLATE "C",
  name text COLLATE "C" NOT NULL,
  type text COLLATE "C" NOT NULL CHECK (type IN (
    'ENTERTAINMENT', 'EQUIPMENT_AND_HARDWARE', 'MARKETING_AND_ADVERTISING', 'MEALS_AND_DRINKS',
    'OFFICE_EXPENSES', 'PHONE_AND_INTERNET', 'SERVICES_AND_CONSULTANCY', 'SOFTWARE', 'SUPPLIES',
    'TRAVEL', 'OTHER', 'NO_SUITABLE_CATEGORY'
  )),
  archived boolean NOT NULL,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- externalId is unique per company when given (NULLs are distinct).
CREATE UNIQUE INDEX bookkeeping_category_groups_company_external_id_key
  ON bookkeeping_category_groups (company_id, external_id);
-- One index per sort key, each ending in the id tie-breaker (pagination.md).
CREATE INDEX bookkeeping_category_groups_company_name_idx ON bookkeeping_category_groups (company_id, name, id);
CREATE INDEX bookkeeping_category_groups_company_type_idx ON bookkeeping_category_groups (company_id, type, id);
CREATE INDEX bookkeeping_category_groups_company_id_idx ON bookkeeping_category_groups (company_id, id);
CREATE INDEX bookkeeping_category_groups_company_created_at_idx
  ON bookkeeping_category_groups (company_id, created_at, id);
CREATE INDEX bookkeeping_category_groups_company_updated_at_idx
  ON bookkeeping_category_groups (company_id, updated_at, id);

CREATE TABLE bookkeeping_categories (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL,
  external_id text COLLATE "C",
  name text COLLATE "C" NOT NULL,
  group_id uuid NOT NULL REFERENCES bookkeeping_category_groups (id) ON DELETE RESTRICT,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE RESTRICT,
  tax_code_external_id text,
  archived boolean NOT NULL,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX bookkeeping_categories_company_external_id_key ON bookkeeping_categories (company_id, external_id);
CREATE INDEX bookkeeping_categories_company_name_idx ON bookkeeping_categories (company_id, name, id);
CREATE INDEX bookkeeping_categories_company_id_idx ON bookkeeping_categories (company_id, id);
CREATE INDEX bookkeeping_categories_company_created_at_idx ON bookkeeping_categories (company_id, created_at, id);
CREATE INDEX bookkeeping_categories_company_updated_at_idx ON bookkeeping_categories (company_id, updated_at, id);
-- A group's categories in the order the aggregated view lists them; also the group delete's check.
CREATE INDEX bookkeeping_categories_group_name_idx ON bookkeeping_categories (group_id, name, id);
-- An account's categories: the account delete's check and the excludeIfAssignedToCategory filter,
-- which asks it once per account a page meets.
CREATE INDEX bookkeeping_categories_account_id_idx ON bookkeeping_categories (account_id);
