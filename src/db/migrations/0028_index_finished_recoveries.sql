-- Retention deletes the recoveries that finished more than WEBHOOK_RETENTION ago
-- (docs/decisions/tenant-isolation.md, "Recoveries"): this index finds them, oldest first, without
-- reading the table a recovery per request of :recover can grow.
CREATE INDEX message_recoveries_finished_idx ON message_recoveries (finished_at) WHERE finished_at IS NOT NULL;
