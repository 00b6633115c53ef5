-- A subscription whose endpoint has failed every attempt for WEBHOOK_DISABLE_AFTER is made INACTIVE
-- by the service with status_reason ENDPOINT_FAILING (docs/decisions/webhook-delivery.md,
-- "Auto-disable"); unlike CLIENT_REVOKED, its owner may make it ACTIVE again.
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_reason_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_reason_check
  CHECK (status_reason IN ('CLIENT_REVOKED', 'ENDPOINT_FAILING'));
