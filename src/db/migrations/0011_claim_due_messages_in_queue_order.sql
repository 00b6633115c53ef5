-- The due messages a claim takes, earliest first, locked and skipping those another worker holds.
-- The only good plan walks messages_due_idx in order and stops after `batch` rows. Without column
-- statistics on `messages` (a burst on PostgreSQL before autovacuum has analyzed the table, and
-- always on PGlite, which runs no autovacuum) the planner expected about 60 due rows and instead read
-- every due row through a bitmap scan and sorted them: 13.7 ms per claim of 64 instead of 1.2 ms on a
-- backlog of 40,000, and more as the backlog grows. The SET clauses hold while the body is planned,
-- so the ordered index scan is chosen whatever the statistics say. Due: pending, its time has come,
-- and no live lease holds it.
CREATE FUNCTION due_messages_for_claim(batch integer, excluded_subscriptions uuid[])
RETURNS SETOF text
LANGUAGE sql
VOLATILE
ROWS 64
SET enable_bitmapscan = off
SET enable_sort = off
AS $$
  SELECT id FROM messages
  WHERE status = 'pending' AND next_attempt_at <= now() AND (leased_until IS NULL OR leased_until < now())
    AND subscription_id <> ALL (excluded_subscriptions)
  ORDER BY next_attempt_at
  LIMIT batch
  FOR UPDATE SKIP LOCKED
$$;
