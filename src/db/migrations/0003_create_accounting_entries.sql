-- Accounting entries: what links an account (it cannot be deleted while referenced) and what an
-- export selects.
CREATE TABLE accounting_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE RESTRICT,
  amount numeric NOT NULL,
  currency char(3) NOT NULL,
  date date NOT NULL,
  description text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX accounting_entries_account_id_idx ON accounting_entries (account_id);
CREATE INDEX accounting_entries_company_created_at_idx ON accounting_entries (company_id, created_at, id);
CREATE INDEX accounting_entries_company_date_idx ON accounting_entries (company_id, date, id);
CREATE INDEX accounting_entries_company_id_idx ON accounting_entries (company_id, id);
