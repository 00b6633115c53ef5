-- Tax codes (/v0/tax-codes, as the reference API). An account's taxCodeExternalId names one by code.
CREATE TABLE tax_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL,
  name text COLLATE "C" NOT NULL,
  code text COLLATE "C",
  rate numeric NOT NULL,
  type text NOT NULL CHECK (type IN ('inclusive', 'exclusive', 'reverse')),
  archived boolean NOT NULL,
  ingoing_tax_account text,
  outgoing_tax_account text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- code is unique per company (several tax codes may have none).
CREATE UNIQUE INDEX tax_codes_company_code_key ON tax_codes (company_id, code);
CREATE INDEX tax_codes_company_name_idx ON tax_codes (company_id, name, id);
CREATE INDEX tax_codes_company_id_idx ON tax_codes (company_id, id);
