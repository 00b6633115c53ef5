-- Contra accounts: where the money of an expense comes from (the company wallet, a wallet in
-- another currency, accounts payable, reimbursements), each pointing at one account of the
-- company's chart; and each company's bookkeeping preferences (docs/decisions/bookkeeping.md).

CREATE TABLE contra_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL,
  external_id text COLLATE "C",
  kind text COLLATE "C" NOT NULL,
  -- Only a wallet in an additional currency names its currency; the others have none.
  currency text COLLATE "C" CHECK ((kind = 'ADDITIONAL_CURRENCY_WALLET') = (currency IS NOT NULL)),
  -- RESTRICT: an account a contra account uses cannot be deleted (409 ACCOUNT_IN_USE), and a
  -- contra account created while its account is being deleted fails its key check, so no contra
  -- account ever points at a deleted account. The account's company is checked by the insert.
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE RESTRICT,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One contra account per (company, kind, currency); also how a company's contra accounts are found
-- (a company has a handful, so they are sorted after being found).
CREATE UNIQUE INDEX contra_accounts_company_kind_currency_key
  ON contra_accounts (company_id, kind, (coalesce(currency, '')));
-- The ERP's identity of a contra account, when it has one.
CREATE UNIQUE INDEX contra_accounts_company_external_id_key
  ON contra_accounts (company_id, external_id) WHERE external_id IS NOT NULL;
-- The key check of an account's delete, and which contra accounts use an account.
CREATE INDEX contra_accounts_account_id_idx ON contra_accounts (account_id);

-- One row per company once it has stored its preferences; a company without one has the defaults.
CREATE TABLE bookkeeping_preferences (
  company_id uuid PRIMARY KEY,
  bookkeeping_method text NOT NULL,
  export_expenses_as_positive_amounts boolean NOT NULL,
  export_format text NOT NULL,
  metadata jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
