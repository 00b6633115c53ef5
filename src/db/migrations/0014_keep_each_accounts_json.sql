-- Each account as the API shows it (GET /v1-beta/accounts/{accountId}), written when the row is
-- written instead of on every read: building it was half of a page statement's time (100 accounts
-- on PostgreSQL: 1.1–1.7 ms built on each read, 0.6–0.9 ms read as stored). Every answer that
-- holds an account sends it as stored (docs/decisions/account-json.md).
--
-- The type names the JSON's keys. A stored generated column needs an IMMUTABLE expression, and
-- row_to_json is only STABLE because some types' text forms follow settings (dates, intervals,
-- money); the text forms of uuid, text, boolean and jsonb follow none, so for this type the
-- function is immutable, as declared. Changing the JSON's shape means a new migration that
-- replaces the type, the function and the column together.
CREATE TYPE account_api AS (
  id uuid, "companyId" uuid, "externalId" text, name text, archived boolean, code text,
  "taxCodeExternalId" text, metadata jsonb
);

CREATE FUNCTION account_json(
  id uuid, company_id uuid, external_id text, name text, archived boolean, code text,
  tax_code_external_id text, metadata jsonb
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN row_to_json(ROW(id, company_id, external_id, name, archived, code, tax_code_external_id, metadata)::account_api)::text;

ALTER TABLE accounts ADD COLUMN api_json text NOT NULL GENERATED ALWAYS AS (
  account_json(id, company_id, external_id, name, archived, code, tax_code_external_id, metadata)
) STORED;
