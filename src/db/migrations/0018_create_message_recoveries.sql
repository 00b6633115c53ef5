-- Recovering a subscription's failed messages (POST /v1/subscriptions/{id}:recover,
-- docs/decisions/webhook-delivery.md, "Recover"). The API records what was asked; workers queue the
-- messages again in batches, each batch one statement that also moves the recovery on, so a worker
-- killed at any moment leaves whole batches done and the next worker finishes the rest.
CREATE TABLE message_recoveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  -- Failed messages created in [since, until) are queued again.
  since timestamptz NOT NULL,
  until timestamptz NOT NULL CHECK (until > since),
  -- Failed messages in the window when it was asked for, and how many have been queued since.
  messages integer NOT NULL,
  queued integer NOT NULL DEFAULT 0,
  -- The last message queued, (created_at, id): the next batch goes on after it, so a message that
  -- fails again while the recovery runs is not queued twice by it.
  position_created_at timestamptz,
  position_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

CREATE INDEX message_recoveries_open_idx ON message_recoveries (created_at) WHERE finished_at IS NULL;

-- A subscription's failed messages in the order they were created: what a recovery counts and
-- queues, read without passing over the delivered ones.
CREATE INDEX messages_failed_idx ON messages (subscription_id, created_at, id) WHERE status = 'failed';
