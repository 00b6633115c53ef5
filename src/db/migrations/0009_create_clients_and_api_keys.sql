-- Integration credentials: a client is a third-party application registered by the
-- operator; it gets OAuth tokens with its client secret and may hold API keys. Secrets and keys are
-- stored only as hashes: an scrypt string (with its own salt and cost) for client secrets, an
-- HMAC-SHA256 digest under the server's pepper for API keys (high-entropy, looked up by digest).

CREATE TABLE clients (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  -- What every token and key of the client carries (docs/decisions/credentials.md).
  companies uuid[] NOT NULL CHECK (cardinality(companies) > 0),
  scopes text[] NOT NULL,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  client_id uuid NOT NULL REFERENCES clients (id),
  key_hash bytea NOT NULL UNIQUE,
  -- The key's first characters, so an operator can tell keys apart in a list.
  key_prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE INDEX api_keys_client_idx ON api_keys (client_id);
