-- The audit trail of subscriptions (GET /v1/subscriptions/{id}/activities, docs/decisions/
-- subscriptions.md, "Activities"): who created, changed, deleted or disabled a subscription, when,
-- and which fields changed, never a secret. No foreign key: the trail outlives the subscription, so
-- each row keeps the owner and companies that decide who may read it.
CREATE TABLE subscription_activities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subscription_id uuid NOT NULL,
  owner text NOT NULL,
  companies uuid[] NOT NULL,
  operation_type text NOT NULL CHECK (operation_type IN ('CREATE', 'UPDATE', 'DELETE', 'DISABLE')),
  actor_urn text NOT NULL,
  description text NOT NULL,
  changes jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX subscription_activities_subscription_idx ON subscription_activities (subscription_id, created_at, id);
-- Retention finds the trails of deleted subscriptions by their DELETE.
CREATE INDEX subscription_activities_deleted_idx ON subscription_activities (created_at) WHERE operation_type = 'DELETE';
