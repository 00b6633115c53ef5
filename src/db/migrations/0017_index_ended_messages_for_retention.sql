-- Webhook retention (docs/decisions/webhook-delivery.md, "Retention"): the sweeper deletes the
-- messages that ended (delivered, or failed after their last attempt) before WEBHOOK_RETENTION,
-- oldest first, a batch at a time. This index holds only ended messages, in the order they ended, so
-- a batch reads just the rows it deletes however large the table is.
CREATE INDEX messages_ended_idx ON messages (updated_at) WHERE status IN ('delivered', 'failed');
