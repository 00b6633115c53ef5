-- Webhook subscriptions and their deliveries (docs/decisions/webhook-delivery.md).
--
-- An event becomes one message per ACTIVE subscription of its type whose companies include the
-- event's company, inserted in the transaction that recorded the event (so nothing is lost between
-- the change and its notification). Workers claim due messages with FOR UPDATE SKIP LOCKED and a
-- lease; an attempt's outcome is recorded only by the lease holder, so no attempt is made twice
-- while its worker lives, and a dead worker's message is retried, with the same webhook-id, once
-- its lease runs out.

CREATE TABLE subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The token's client_id, else its sub: subscriptions are visible to their owner only.
  owner text NOT NULL,
  -- The companies the creating token listed; events of other companies are not sent.
  companies uuid[] NOT NULL,
  status text NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE')),
  event_types text[] NOT NULL CHECK (cardinality(event_types) > 0),
  endpoint_url text NOT NULL,
  custom_headers jsonb NOT NULL DEFAULT '{}',
  auth_type text NOT NULL DEFAULT 'NONE' CHECK (auth_type IN ('NONE', 'BASIC')),
  basic_username text,
  basic_password text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((auth_type = 'BASIC') = (basic_username IS NOT NULL AND basic_password IS NOT NULL))
);

CREATE INDEX subscriptions_owner_idx ON subscriptions (owner, created_at, id);
CREATE INDEX subscriptions_active_event_types_idx ON subscriptions USING gin (event_types) WHERE status = 'ACTIVE';

-- Signing secrets (`whsec_` + base64 of 32 random bytes). The current one has no expiry; a rotation
-- gives the previous ones 24 hours, during which every notification carries a signature per secret.
CREATE TABLE subscription_secrets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz
);

CREATE INDEX subscription_secrets_subscription_idx ON subscription_secrets (subscription_id, created_at);

CREATE TABLE messages (
  -- The webhook-id: `msg_` + 26 characters, unique per event and subscription, the same on every attempt.
  id text PRIMARY KEY,
  subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES events (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  -- Attempts made so far; the next attempt is number attempts + 1.
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Set while a worker holds the message; an expired lease means its worker died mid-attempt.
  leased_until timestamptz,
  leased_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  UNIQUE (event_id, subscription_id)
);

-- The work queue: due pending messages in the order they fall due.
CREATE INDEX messages_due_idx ON messages (next_attempt_at) WHERE status = 'pending';
-- The delivery log of a subscription.
CREATE INDEX messages_subscription_idx ON messages (subscription_id, created_at, id);

CREATE TABLE message_attempts (
  message_id text NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  -- The HTTP status, or null when no response came (then `error` says why).
  status_code integer,
  error text,
  -- The first 4 KiB of the response body.
  response_body text,
  succeeded boolean NOT NULL,
  PRIMARY KEY (message_id, attempt)
);
