-- A claim shares a worker's slots across tenants as well as subscriptions, and its plan no longer
-- depends on the table's statistics (docs/decisions/webhook-delivery.md, "Fair shares").
--
-- Tenants: one client's 200 hanging subscriptions for one company took every slot of a worker (8
-- each), so another company's message waited for their time-outs. A subscription's tenant is its
-- owner (the client) with the companies it delivers for: one client's integration for another
-- company is another tenant. Now a tenant has at most `per_tenant` attempts in flight per worker,
-- and a claim takes the tenants' messages in turns: each tenant's earliest first, then each tenant's
-- second, and so on.
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

-- A subscription's tenant, as the claim and the delivery worker name it: its owner and its companies
-- (stored sorted).
CREATE FUNCTION subscription_tenant(owner text, companies uuid[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN owner || ' ' || array_to_string(companies, ',');

DROP FUNCTION due_messages_in_fair_shares(integer, integer, uuid[], integer[]);

-- Up to `batch` due messages, locked and skipping those another worker holds: of one subscription
-- at most `per_subscription` less the attempts the worker has in flight to it (`busy_slots[i]` for
-- `busy_subscriptions[i]`), of one tenant at most `per_tenant` less its attempts in flight
-- (`busy_tenant_slots[i]` for `busy_tenants[i]`); tenants in turns, each tenant's earliest first.
--
-- 1. The subscriptions with pending messages, each with its earliest one: a jump from one
--    subscription's first entry of messages_pending_subscription_idx to the next's, one descent
--    each, however many messages a subscription has.
-- 2. Those whose earliest message is due and whose tenant and themselves have a free slot, each
--    with its slots: the fewer of its own and its tenant's.
-- 3. Of each, the earliest due message no live lease holds (read without locking), numbered within
--    its tenant by that time: a tenant's turn-th subscription. No tenant brings more subscriptions
--    than it has slots; the `batch` subscriptions of the earliest turns come next.
-- 4. From each of these, under SKIP LOCKED, at most its slots of due unleased messages; of one
--    tenant at most its slots in all, and the batch in tenants' turns.
CREATE FUNCTION due_messages_in_fair_shares(
  batch integer,
  per_subscription integer, busy_subscriptions uuid[], busy_slots integer[],
  per_tenant integer, busy_tenants text[], busy_tenant_slots integer[]
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
      SELECT pending.subscription_id, owned.tenant,
        least(per_subscription - coalesce(busy.slots, 0), per_tenant - coalesce(tenant_busy.slots, 0)) AS slots,
        per_tenant - coalesce(tenant_busy.slots, 0) AS tenant_slots
      FROM pending
      CROSS JOIN LATERAL (
        SELECT subscription_tenant(s.owner, s.companies) AS tenant FROM subscriptions s WHERE s.id = pending.subscription_id
      ) AS owned
      LEFT JOIN unnest(busy_subscriptions, busy_slots) AS busy(subscription_id, slots)
        ON busy.subscription_id = pending.subscription_id
      LEFT JOIN unnest(busy_tenants, busy_tenant_slots) AS tenant_busy(tenant, slots)
        ON tenant_busy.tenant = owned.tenant
      WHERE pending.next_attempt_at <= now()
    ) AS free
    WHERE free.slots > 0
  ), heads AS (
    SELECT shares.subscription_id, shares.tenant, shares.slots, shares.tenant_slots, head.next_attempt_at,
      row_number() OVER (PARTITION BY shares.tenant ORDER BY head.next_attempt_at, shares.subscription_id) AS turn
    FROM shares CROSS JOIN LATERAL (
      SELECT m.next_attempt_at FROM messages m
      WHERE m.status = 'pending'
        AND (m.subscription_id, m.next_attempt_at) >= (shares.subscription_id, '-infinity'::timestamptz)
        AND (m.subscription_id, m.next_attempt_at) <= (shares.subscription_id, now())
        AND (m.leased_until IS NULL OR m.leased_until < now())
      ORDER BY m.subscription_id, m.next_attempt_at LIMIT 1
    ) AS head
  ), taken AS (
    SELECT * FROM heads WHERE heads.turn <= heads.tenant_slots
    ORDER BY heads.turn, heads.next_attempt_at
    LIMIT batch
  ), due AS (
    SELECT claimable.id, claimable.next_attempt_at, taken.tenant, taken.tenant_slots, taken.turn
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
    SELECT due.id, due.next_attempt_at, due.tenant_slots,
      row_number() OVER (PARTITION BY due.tenant ORDER BY due.turn, due.next_attempt_at) AS place
    FROM due
  )
  SELECT placed.id FROM placed
  WHERE placed.place <= placed.tenant_slots
  ORDER BY placed.place, placed.next_attempt_at
  LIMIT batch;
END
$$;
