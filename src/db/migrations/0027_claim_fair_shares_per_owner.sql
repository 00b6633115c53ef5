-- A claim shares a worker's slots across owners as well as subscriptions, and its plan no longer
-- depends on the table's statistics (docs/decisions/webhook-delivery.md, "Fair shares").
--
-- Owners: one owner's 200 hanging subscriptions took every slot of a worker (8 each), so another
-- owner's message waited for their time-outs. Now an owner has at most `per_owner` attempts in flight
-- per worker, and a claim takes the owners' messages in turns: each owner's earliest first, then each
-- owner's second, and so on.
--
-- Statistics: after 100,000 failed messages were recovered, PostgreSQL's statistics (taken while none
-- was pending) said the pending messages were a handful. The planner then walked messages_due_idx
-- and sorted, instead of jumping through messages_pending_subscription_idx: every claim read all
-- 100,000 (150–340 ms a claim). Every read of messages below names a stretch of
-- messages_pending_subscription_idx with row comparisons and asks for its order; with sorts disabled
-- while the function is planned, that index is the only plan left, whatever the statistics say.
-- A disabled sort that cannot be avoided (the turns are numbered in memory) still counts in the
-- plan's cost at 10^10; without `jit = off` that cost alone made every claim compile the plan to
-- machine code: a second of CPU per claim. The plan is the same for any arguments, so it is made
-- once per session (`force_generic_plan`) rather than for each claim.

DROP FUNCTION due_messages_in_fair_shares(integer, integer, uuid[], integer[]);

-- Up to `batch` due messages, locked and skipping those another worker holds: of one subscription
-- at most `per_subscription` less the attempts the worker has in flight to it (`busy_slots[i]` for
-- `busy_subscriptions[i]`), of one owner at most `per_owner` less its attempts in flight
-- (`busy_owner_slots[i]` for `busy_owners[i]`); owners in turns, each owner's earliest first.
--
-- 1. The subscriptions with pending messages, each with its earliest one: a jump from one
--    subscription's first entry of messages_pending_subscription_idx to the next's, one descent
--    each, however many messages a subscription has.
-- 2. Those whose earliest message is due and whose owner and themselves have a free slot, each with
--    its slots: the fewer of its own and its owner's.
-- 3. Of each, the earliest due message no live lease holds (read without locking), numbered within
--    its owner by that time: an owner's turn-th subscription. No owner brings more subscriptions
--    than it has slots; the `batch` subscriptions of the earliest turns come next.
-- 4. From each of these, under SKIP LOCKED, at most its slots of due unleased messages; of one owner
--    at most its slots in all, and the batch in owners' turns.
CREATE FUNCTION due_messages_in_fair_shares(
  batch integer,
  per_subscription integer, busy_subscriptions uuid[], busy_slots integer[],
  per_owner integer, busy_owners text[], busy_owner_slots integer[]
)
RETURNS SETOF text
LANGUAGE plpgsql
VOLATILE
ROWS 64
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_sort = off
SET jit = off
SET plan_cache_mode = force_generic_plan
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
    SELECT * FROM (
      SELECT pending.subscription_id, owned.owner,
        least(per_subscription - coalesce(busy.slots, 0), per_owner - coalesce(owner_busy.slots, 0)) AS slots,
        per_owner - coalesce(owner_busy.slots, 0) AS owner_slots
      FROM pending
      CROSS JOIN LATERAL (SELECT s.owner FROM subscriptions s WHERE s.id = pending.subscription_id) AS owned
      LEFT JOIN unnest(busy_subscriptions, busy_slots) AS busy(subscription_id, slots)
        ON busy.subscription_id = pending.subscription_id
      LEFT JOIN unnest(busy_owners, busy_owner_slots) AS owner_busy(owner, slots)
        ON owner_busy.owner = owned.owner
      WHERE pending.next_attempt_at <= now()
    ) AS free
    WHERE free.slots > 0
  ), heads AS (
    SELECT shares.subscription_id, shares.owner, shares.slots, shares.owner_slots, head.next_attempt_at,
      row_number() OVER (PARTITION BY shares.owner ORDER BY head.next_attempt_at, shares.subscription_id) AS turn
    FROM shares CROSS JOIN LATERAL (
      SELECT m.next_attempt_at FROM messages m
      WHERE m.status = 'pending'
        AND (m.subscription_id, m.next_attempt_at) >= (shares.subscription_id, '-infinity'::timestamptz)
        AND (m.subscription_id, m.next_attempt_at) <= (shares.subscription_id, now())
        AND (m.leased_until IS NULL OR m.leased_until < now())
      ORDER BY m.subscription_id, m.next_attempt_at LIMIT 1
    ) AS head
  ), taken AS (
    SELECT * FROM heads WHERE heads.turn <= heads.owner_slots
    ORDER BY heads.turn, heads.next_attempt_at
    LIMIT batch
  ), due AS (
    SELECT claimable.id, claimable.next_attempt_at, taken.owner, taken.owner_slots, taken.turn
    FROM taken CROSS JOIN LATERAL (
      SELECT m.id, m.next_attempt_at FROM messages m
      WHERE m.status = 'pending'
        AND (m.subscription_id, m.next_attempt_at) >= (taken.subscription_id, '-infinity'::timestamptz)
        AND (m.subscription_id, m.next_attempt_at) <= (taken.subscription_id, now())
        AND (m.leased_until IS NULL OR m.leased_until < now())
      ORDER BY m.subscription_id, m.next_attempt_at
      LIMIT least(taken.slots, batch)
      FOR UPDATE SKIP LOCKED
    ) AS claimable
  ), placed AS (
    SELECT due.id, due.next_attempt_at, due.owner_slots,
      row_number() OVER (PARTITION BY due.owner ORDER BY due.turn, due.next_attempt_at) AS place
    FROM due
  )
  SELECT placed.id FROM placed
  WHERE placed.place <= placed.owner_slots
  ORDER BY placed.place, placed.next_attempt_at
  LIMIT batch;
END
$$;
