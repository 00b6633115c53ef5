// The claim reserves rate slots at the rate due_messages_in_fair_shares took its messages by
// (docs/decisions/webhook-delivery.md, "A rate per endpoint"; migration 0038). The function is
// VOLATILE, so its query sees a later snapshot than the claim statement's: a PUT committed between
// the two is seen by the function and not by the statement. Here the stand-in for such a PUT is an
// UPDATE made inside the statement, before the real function runs: the statement's snapshot does not
// see it, the function's query does, as with a concurrent commit, and it happens every time.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database, Queryable } from '../../../src/db/database.ts';
import { claimDueMessages } from '../../../src/webhooks/delivery-store.ts';
import { openTestDatabase, rolledBack } from '../../support/database.ts';
import { emitEvent, insertSubscription } from './fixtures.ts';

let db: Database;
before(async () => {
  db = await openTestDatabase();
});
after(() => db.close());

const LEASE_MS = 60_000;
const claim = (tx: Queryable) =>
  claimDueMessages(tx, {
    workerId: `test-${randomUUID()}`,
    leaseMs: LEASE_MS,
    limit: 64,
    perSubscription: 8,
    busy: new Map(),
    perTenant: 16,
    busyTenants: new Map(),
  });

/** A subscription of `rate` per second (none when null) with `count` due messages. */
async function queued(rate: number | null, count: number): Promise<string> {
  const company = randomUUID();
  const { id } = await insertSubscription(db, { endpointUrl: 'https://hooks.example.com/', companies: [company] });
  await db.query('UPDATE subscriptions SET rate_limit = $2 WHERE id = $1', [id, rate]);
  for (let i = 0; i < count; i++) await emitEvent(db, company);
  return id;
}

/**
 * Has due_messages_in_fair_shares, within `tx`, set the subscription's rate to `rate` before it reads
 * the rates: the real function is renamed and called by a stand-in that first updates the row.
 */
async function rateChangedInsideTheClaim(tx: Queryable, subscriptionId: string, rate: number): Promise<void> {
  await tx.exec(`
    ALTER FUNCTION due_messages_in_fair_shares(integer, integer, uuid[], integer[], integer, text[], integer[])
      RENAME TO real_due_messages_in_fair_shares;
    CREATE FUNCTION due_messages_in_fair_shares(
      batch integer,
      per_subscription integer, busy_subscriptions uuid[], busy_slots integer[],
      per_tenant integer, busy_tenants text[], busy_tenant_slots integer[]
    )
    RETURNS TABLE(id text, rate_limit integer)
    LANGUAGE plpgsql
    VOLATILE
    AS $$
    BEGIN
      UPDATE subscriptions s SET rate_limit = ${rate} WHERE s.id = '${subscriptionId}';
      RETURN QUERY SELECT * FROM real_due_messages_in_fair_shares(
        batch, per_subscription, busy_subscriptions, busy_slots, per_tenant, busy_tenants, busy_tenant_slots);
    END
    $$;`);
}

/** The subscription's reserved slots, in µs after the first, and its next free slot's, as the claim left them. */
async function slotsOf(tx: Queryable, subscriptionId: string): Promise<{ slots: number[]; next: number }> {
  const rows = await tx.query<{ slot: number; next: number }>(
    `WITH leased AS (
       SELECT m.leased_until - $2 * interval '1 millisecond' AS slot FROM messages m
       WHERE m.subscription_id = $1 AND m.leased_until IS NOT NULL
     ), first AS (SELECT min(slot) AS at FROM leased)
     SELECT (extract(epoch FROM leased.slot - first.at) * 1000000)::integer AS slot,
       (extract(epoch FROM r.next_slot_at - first.at) * 1000000)::integer AS next
     FROM leased, first, subscription_rate_slots r WHERE r.subscription_id = $1
     ORDER BY leased.slot`,
    [subscriptionId, LEASE_MS],
  );
  return { slots: rows.map((row) => row.slot), next: rows[0]?.next ?? Number.NaN };
}

describe('the rate of a claim', () => {
  it("due_messages_in_fair_shares answers each message with its subscription's rate limit, null without one", async () => {
    const rated = await queued(20, 2);
    const unrated = await queued(null, 1);
    const due = await rolledBack(db, (tx) =>
      tx.query<{ subscriptionId: string; rateLimit: number | null }>(
        `SELECT m.subscription_id AS "subscriptionId", due.rate_limit AS "rateLimit"
         FROM due_messages_in_fair_shares(64, 8, '{}', '{}', 16, '{}', '{}') AS due
         JOIN messages m ON m.id = due.id WHERE m.subscription_id = ANY($1::uuid[])
         ORDER BY m.subscription_id = $2 DESC`,
        [[rated, unrated], rated],
      ),
    );
    assert.deepEqual(due, [
      { subscriptionId: rated, rateLimit: 20 },
      { subscriptionId: rated, rateLimit: 20 },
      { subscriptionId: unrated, rateLimit: null },
    ]);
  });

  it('reserves the slots at the rate the function took the messages by, not one the statement read', async () => {
    // At 1 a second the function would take one message; at 1000 a second it takes all 5.
    const subscription = await queued(1, 5);
    const { claimed, slots } = await rolledBack(db, async (tx) => {
      await rateChangedInsideTheClaim(tx, subscription, 1000);
      const claimed = (await claim(tx)).filter((message) => message.subscriptionId === subscription);
      return { claimed, slots: await slotsOf(tx, subscription) };
    });
    assert.equal(claimed.length, 5);
    // 1000 a second: a millisecond apart, the next free slot a millisecond after the last.
    assert.deepEqual(slots, { slots: [0, 1000, 2000, 3000, 4000], next: 5000 });
  });

  it("fails a stopped rated subscription's message unsent and reserves no slot for it", async () => {
    const subscription = await queued(20, 1);
    await db.query(`UPDATE subscriptions SET status = 'INACTIVE', status_reason = 'CLIENT_REVOKED' WHERE id = $1`, [
      subscription,
    ]);
    const claimed = await claim(db);
    assert.deepEqual(
      claimed.filter((message) => message.subscriptionId === subscription),
      [],
    );
    const [message] = await db.query<{ status: string; leasedBy: string | null }>(
      'SELECT status, leased_by AS "leasedBy" FROM messages WHERE subscription_id = $1',
      [subscription],
    );
    assert.deepEqual(message, { status: 'failed', leasedBy: null });
    const slots = await db.query('SELECT 1 FROM subscription_rate_slots WHERE subscription_id = $1', [subscription]);
    assert.equal(slots.length, 0);
  });
});
