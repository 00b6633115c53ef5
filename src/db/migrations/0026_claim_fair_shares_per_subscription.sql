-- A claim takes each subscription's fair share of the due messages (docs/decisions/webhook-delivery.md,
-- "Fair shares"): at most the slots the claiming worker has free for that subscription, earliest
-- first. Walking messages_due_idx in time order past the subscriptions at their cap read every
-- message of a backlogged endpoint before reaching anyone else's: 24 ms per claim behind a backlog
-- of 30,000, growing with it.

-- Each subscription's pending messages in due order.
CREATE INDEX messages_pending_subscription_idx ON messages (subscription_id, next_attempt_at) WHERE status = 'pending';

-- Up to `batch` due messages, locked and skipping those another worker holds, at most
-- `per_subscription` of one subscription less the attempts the worker has in flight to it
-- (`busy_slots[i]` for `busy_subscriptions[i]`), earliest first.
--
-- 1. The subscriptions with pending messages, each with its earliest one: a jump from one
--    subscription's first entry of the index above to the next's, one descent each, however many
--    messages a subscription has.
-- 2. Of those with a free slot whose earliest message is due, the earliest due message no live
--    lease holds (read without locking); the `batch` subscriptions whose such message is earliest.
-- 3. From each of these, under SKIP LOCKED, at most its free slots of due unleased messages.
-- Only the messages returned (or taken by a concurrent claim) are locked.
--
-- PL/pgSQL keeps the plan across calls. The SET clauses hold while it is planned: without
-- statistics (PGlite never analyzes; PostgreSQL not before autovacuum has) the planner could
-- otherwise read a subscription's messages through messages_due_idx or a bitmap.
CREATE FUNCTION due_messages_in_fair_shares(
  batch integer, per_subscription integer, busy_subscriptions uuid[], busy_slots integer[]
)
RETURNS SETOF text
LANGUAGE plpgsql
VOLATILE
ROWS 64
SET enable_seqscan = off
SET enable_bitmapscan = off
AS $$
BEGIN
  RETURN QUERY
  WITH RECURSIVE pending(subscription_id, next_attempt_at) AS (
    (SELECT m.subscription_id, m.next_attempt_at FROM messages m WHERE m.status = 'pending'
     ORDER BY m.subscription_id, m.next_attempt_at LIMIT 1)
    UNION ALL
    SELECT next.subscription_id, next.next_attempt_at
    FROM pending CROSS JOIN LATERAL (
      SELECT m.subscription_id, m.next_attempt_at FROM messages m
      WHERE m.status = 'pending' AND m.subscription_id > pending.subscription_id
      ORDER BY m.subscription_id, m.next_attempt_at LIMIT 1
    ) AS next
  ), shares AS (
    SELECT pending.subscription_id, per_subscription - coalesce(busy.slots, 0) AS slots
    FROM pending
    LEFT JOIN unnest(busy_subscriptions, busy_slots) AS busy(subscription_id, slots)
      ON busy.subscription_id = pending.subscription_id
    WHERE pending.next_attempt_at <= now() AND per_subscription - coalesce(busy.slots, 0) > 0
  ), heads AS (
    SELECT shares.subscription_id, shares.slots
    FROM shares CROSS JOIN LATERAL (
      SELECT m.next_attempt_at FROM messages m
      WHERE m.subscription_id = shares.subscription_id AND m.status = 'pending' AND m.next_attempt_at <= now()
        AND (m.leased_until IS NULL OR m.leased_until < now())
      ORDER BY m.next_attempt_at LIMIT 1
    ) AS head
    ORDER BY head.next_attempt_at
    LIMIT batch
  )
  SELECT due.id
  FROM heads CROSS JOIN LATERAL (
    SELECT m.id, m.next_attempt_at FROM messages m
    WHERE m.subscription_id = heads.subscription_id AND m.status = 'pending' AND m.next_attempt_at <= now()
      AND (m.leased_until IS NULL OR m.leased_until < now())
    ORDER BY m.next_attempt_at
    LIMIT least(heads.slots, batch)
    FOR UPDATE SKIP LOCKED
  ) AS due
  ORDER BY due.next_attempt_at
  LIMIT batch;
END
$$;

DROP FUNCTION due_messages_for_claim(integer, uuid[]);
