-- The claim reserves each message's rate slot at the rate due_messages_in_fair_shares took its
-- messages by (docs/decisions/webhook-delivery.md, "A rate per endpoint"). The function is VOLATILE:
-- under READ COMMITTED its query takes a snapshot of its own, later than the claim statement's, so a
-- PUT committed between the two could have the function take a second's worth of messages at the new
-- rate while the claim, reading subscriptions.rate_limit again, reserved their slots at the old one
-- (taken at 1000 a second, reserved a second apart). The function now answers the rate it read with
-- each message id, and the claim reserves by it.
DROP FUNCTION due_messages_in_fair_shares(integer, integer, uuid[], integer[], integer, text[], integer[]);

-- As migration 0035's, answering with each message the rate limit of its subscription as this query
-- read it (null when it has none).
CREATE FUNCTION due_messages_in_fair_shares(
  batch integer,
  per_subscription integer, busy_subscriptions uuid[], busy_slots integer[],
  per_tenant integer, busy_tenants text[], busy_tenant_slots integer[]
)
RETURNS TABLE(id text, rate_limit integer)
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
      SELECT pending.subscription_id, owned.tenant, owned.rate_limit,
        least(per_subscription - coalesce(busy.slots, 0), per_tenant - coalesce(tenant_busy.slots, 0),
              owned.rate_slots) AS slots,
        per_tenant - coalesce(tenant_busy.slots, 0) AS tenant_slots
      FROM pending
      CROSS JOIN LATERAL (
        SELECT subscription_tenant(s.owner, s.companies) AS tenant, s.rate_limit,
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
    SELECT shares.subscription_id, shares.tenant, shares.rate_limit, shares.slots, shares.tenant_slots,
      head.next_attempt_at,
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
    SELECT claimable.id, claimable.next_attempt_at, taken.tenant, taken.rate_limit, taken.tenant_slots, taken.turn
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
    SELECT due.id, due.rate_limit, due.next_attempt_at, due.tenant_slots,
      row_number() OVER (PARTITION BY due.tenant ORDER BY due.turn, due.next_attempt_at) AS place
    FROM due
  )
  SELECT placed.id, placed.rate_limit FROM placed
  WHERE placed.place <= placed.tenant_slots
  ORDER BY placed.place, placed.next_attempt_at
  LIMIT batch;
END
$$;
