-- Why the service itself made a subscription INACTIVE; NULL when its owner chose the status.
-- CLIENT_REVOKED: its client was revoked (`ledgerhook clients revoke`). Such a subscription stays
-- INACTIVE and its messages are never sent: a revoked client has no credential left to re-activate
-- it with (docs/decisions/subscriptions.md, "A revoked client's subscriptions").
ALTER TABLE subscriptions
  ADD COLUMN status_reason text CHECK (status_reason IN ('CLIENT_REVOKED')),
  ADD CONSTRAINT subscriptions_reason_only_when_inactive CHECK (status_reason IS NULL OR status = 'INACTIVE');

-- Clients revoked before this migration: their subscriptions stop now, and what they had pending
-- is failed unsent.
UPDATE subscriptions s SET status = 'INACTIVE', status_reason = 'CLIENT_REVOKED', updated_at = now()
FROM clients c
WHERE c.revoked_at IS NOT NULL AND s.owner = c.id::text;

UPDATE messages SET status = 'failed', leased_until = NULL, leased_by = NULL, updated_at = now()
WHERE status = 'pending'
  AND subscription_id IN (SELECT id FROM subscriptions WHERE status_reason = 'CLIENT_REVOKED');
