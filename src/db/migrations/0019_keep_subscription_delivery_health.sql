-- A subscription's delivery health (GET /v1/subscriptions/{id}/health, docs/decisions/
-- webhook-delivery.md, "Endpoint health"), kept by the statement that records attempts, so that a
-- request reads one row and a day of hourly rows instead of counting messages.
--
-- No foreign keys: the record statement would then take a key-share lock on the subscription while
-- holding its messages' row locks, and a delete of the subscription (which locks the subscription,
-- then cascades to those messages) could deadlock with it and void a whole batch of records. The
-- retention sweep deletes the rows of subscriptions that are gone.
CREATE TABLE subscription_health (
  subscription_id uuid PRIMARY KEY,
  last_attempt_at timestamptz NOT NULL,
  last_delivered_at timestamptz,
  last_failed_at timestamptz,
  -- The last failed attempt: its HTTP status, or why no response came.
  last_failure_status_code integer,
  last_failure_error text,
  -- Failed attempts since the last success, the first of them, and the messages that ended failed
  -- since then: what auto-disabling a dead endpoint looks at.
  consecutive_failures integer NOT NULL,
  failing_since timestamptz,
  failed_messages_in_streak integer NOT NULL
);

-- Per subscription and hour: messages delivered, attempts failed, messages failed. A day of them
-- answers "the last 24 hours"; the retention sweep deletes older hours.
CREATE TABLE subscription_hourly_deliveries (
  subscription_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  delivered integer NOT NULL,
  failed_attempts integer NOT NULL,
  failed integer NOT NULL,
  PRIMARY KEY (subscription_id, hour)
);

CREATE INDEX subscription_hourly_deliveries_hour_idx ON subscription_hourly_deliveries (hour);
