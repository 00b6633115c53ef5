-- A subscription may limit the notifications per second its endpoint is sent (issue 42; docs/decisions/
-- webhook-delivery.md, "A rate per endpoint"). The workers, however many, keep it together: each
-- request to a rated endpoint has a slot, a time 1/rate after the one before, reserved in the claim
-- that takes its message. subscription_rate_slots holds each rated subscription's next free slot.
ALTER TABLE subscriptions ADD COLUMN rate_limit integer CHECK (rate_limit BETWEEN 1 AND 1000);

-- No foreign key, as subscription_health (migration 0019): a key-share lock taken by a claim while it
-- holds its messages' locks could deadlock with a delete of the subscription. The retention sweep
-- deletes the rows of deleted subscriptions.
CREATE TABLE subscription_rate_slots (
  subscription_id uuid PRIMARY KEY,
  next_slot_at timestamptz NOT NULL
);

-- The time between two requests to an endpoint of `rate` per second, rounded up to the microsecond:
-- rounded down, `rate` + 1 requests could fit in one second.
CREATE FUNCTION rate_slot_interval(rate integer) RETURNS interval
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ceil(1000000.0 / rate) * interval '1 microsecond';

DROP FUNCTION due_messages_in_fair_shares(integer, integer, uuid[], integer[], integer, text[], integer[]);

-- As migration 0027's, with one more cap: a rated subscription has as many slots as its free
-- rate slots in the next second (from its next free slot, or now when that has passed), so that a
-- claim takes no message it cannot send within a second. A rated subscription without one is left
-- out of the claim like one at its cap: it delays no one else.
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
        least(per_subscription - coalesce(busy.slots, 0), per_tenant - coalesce(tenant_busy.slots, 0),
              owned.rate_slots) AS slots,
        per_tenant - coalesce(tenant_busy.slots, 0) AS tenant_slots
      FROM pending
      CROSS JOIN LATERAL (
        SELECT subscription_tenant(s.owner, s.companies) AS tenant,
          CASE WHEN s.rate_limit IS NULL THEN batch ELSE ceil(
            extract(epoch FROM now() + interval '1 second'
                               - greatest(now(), (SELECT r.next_slot_at FROM subscription_rate_slots r
                                                  WHERE r.subscription_id = s.id)))
            / extract(epoch FROM rate_slot_interval(s.rate_limit)))::integer END AS rate_slots
        FROM subscriptions s WHERE s.id = pending.subscription_id
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
