// A claim takes each subscription's fair share and reads what it takes, not the backlog behind it
// (migration 0026). On a queue table that has never been analyzed, as after a burst on PostgreSQL and
// always on PGlite, a planner left to itself would read every due message and sort them; and a walk
// of the due messages in time order past a subscription at its cap reads that subscription's whole
// backlog before reaching anyone else's message.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database, Queryable } from '../../../src/db/database.ts';
import { RECORD_ATTEMPTS, recordAttemptsParams } from '../../../src/webhooks/delivery-store.ts';
import { openTestDatabase, rolledBack } from '../../support/database.ts';
import { EVENT_TYPE, insertSubscription } from '../../support/delivery-fixtures.ts';

interface ExplainedPlan {
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
}

let db: Database;

before(async () => {
  db = await openTestDatabase();
});
after(() => db.close());

const PER_SUBSCRIPTION = 8;
const PER_TENANT = 16;

interface Claim {
  /** Messages taken per subscription. */
  taken: Map<string, number>;
  /** The subscription of each message taken, in the order the claim answered them. */
  order: string[];
  /** Buffer blocks the claim read. */
  blocks: number;
}

/** What one claim of 64 would take, given what is in flight per subscription and per tenant. */
async function claimOnce(
  busy: Map<string, number> = new Map(),
  busyTenants: Map<string, number> = new Map(),
): Promise<Claim> {
  const args = [
    PER_SUBSCRIPTION,
    [...busy.keys()],
    [...busy.values()],
    PER_TENANT,
    [...busyTenants.keys()],
    [...busyTenants.values()],
  ];
  const call = 'due_messages_in_fair_shares(64, $1, $2::uuid[], $3::int[], $4, $5::text[], $6::int[])';
  return rolledBack(db, async (tx) => {
    // The least of three: the same claim, so a read that only one of them paid (PostgreSQL's
    // autovacuum working on the table beside it, once, under a busy suite) is not taken for the plan's.
    let blocks = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) blocks = Math.min(blocks, await blocksRead(tx, `SELECT * FROM ${call}`, args));
    const claimed = await tx.query<{ subscriptionId: string }>(
      `SELECT m.subscription_id AS "subscriptionId"
       FROM ${call} WITH ORDINALITY AS claimed(id, rate_limit, n) JOIN messages m ON m.id = claimed.id ORDER BY claimed.n`,
      args,
    );
    const order = claimed.map((row) => row.subscriptionId);
    const taken = new Map<string, number>();
    for (const id of order) taken.set(id, (taken.get(id) ?? 0) + 1);
    return { taken, order, blocks };
  });
}

/** The buffer blocks `sql` reads, run under EXPLAIN ANALYZE. */
async function blocksRead(tx: Queryable, sql: string, args: readonly unknown[]): Promise<number> {
  const [row] = await tx.query<{ 'QUERY PLAN': ExplainedPlan[] | string }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
    args,
  );
  const plan = row?.['QUERY PLAN'];
  const [explained] = typeof plan === 'string' ? (JSON.parse(plan) as ExplainedPlan[]) : (plan ?? []);
  assert.ok(explained, 'EXPLAIN answered a plan');
  return explained.Plan['Shared Hit Blocks'] + explained.Plan['Shared Read Blocks'];
}

/**
 * `count` due messages for each subscription, of as many events, falling due a millisecond apart
 * after every message queued before (one statement; recordEvent would take minutes for a backlog).
 */
let queued = 0;
async function queueMessages(subscriptions: readonly string[], count: number): Promise<void> {
  await db.query(
    `WITH new_events AS (
       INSERT INTO events (event_type, company_id, data)
       SELECT $1, gen_random_uuid(), '{}'::jsonb FROM generate_series(1, $2)
       RETURNING id
     ), numbered AS (SELECT id, row_number() OVER () AS n FROM new_events)
     INSERT INTO messages (id, subscription_id, event_id, next_attempt_at)
     SELECT new_message_id(), s.id, e.id, timestamptz '2020-01-01' + ($4 + e.n) * interval '1 millisecond'
     FROM numbered e CROSS JOIN unnest($3::uuid[]) AS s(id)`,
    [EVENT_TYPE, count, subscriptions, queued],
  );
  queued += count;
}

describe('claiming from a large backlog', { timeout: 120_000 }, () => {
  it('takes at most the free slots of each subscription, and reads as much beside 15,000 messages as beside 5,000', async () => {
    const companyId = randomUUID();
    const subscriptions: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { id } = await insertSubscription(db, { endpointUrl: `https://hooks.example.com/${i}`, companyId });
      subscriptions.push(id);
    }
    await queueMessages(subscriptions, 250); // 5,000 due messages
    const small = await claimOnce();
    await queueMessages(subscriptions, 500); // 10,000 more
    const large = await claimOnce();

    // 20 subscriptions of 8 free slots each would give 160: the batch of 64 is the limit.
    assert.equal(
      [...large.taken.values()].reduce((a, b) => a + b, 0),
      64,
    );
    assert.ok(Math.max(...large.taken.values()) <= PER_SUBSCRIPTION);
    assert.ok(small.blocks > 0);
    assert.ok(
      large.blocks < small.blocks * 1.5,
      `a claim read ${small.blocks} blocks of 5,000 messages, ${large.blocks} of 15,000`,
    );

    // A subscription with 6 in flight gets 2 more; one with 8 in flight gets none.
    const [partly, full] = subscriptions as [string, string];
    const capped = await claimOnce(
      new Map([
        [partly, 6],
        [full, PER_SUBSCRIPTION],
      ]),
    );
    assert.equal(capped.taken.get(partly), 2);
    assert.equal(capped.taken.get(full), undefined);
  });

  it("reaches another endpoint's new message behind a backlog whose endpoint is at its cap, reading as little beside 15,000 as beside 5,000", async () => {
    const backlogCompany = randomUUID();
    const healthyCompany = randomUUID();
    const backlog = await insertSubscription(db, {
      endpointUrl: 'https://backlog.example.com/',
      companyId: backlogCompany,
    });
    const healthy = await insertSubscription(db, {
      endpointUrl: 'https://healthy.example.com/',
      companyId: healthyCompany,
    });
    await db.query("UPDATE messages SET status = 'delivered' WHERE status = 'pending'"); // the previous test's
    // The healthy endpoint's messages are queued after the backlog, as new events are.
    await queueMessages([backlog.id], 5000);
    await queueMessages([healthy.id], 1);
    const atCap = new Map([[backlog.id, PER_SUBSCRIPTION]]);
    const small = await claimOnce(atCap);
    await queueMessages([backlog.id], 10_000);
    await queueMessages([healthy.id], 1);
    const large = await claimOnce(atCap);

    assert.deepEqual([...large.taken], [[healthy.id, 2]]);
    assert.ok(
      large.blocks < small.blocks * 1.5,
      `a claim read ${small.blocks} blocks beside 5,000 messages, ${large.blocks} beside 15,000`,
    );
    // With one slot free, the backlog gets one message and the healthy endpoint both of its own.
    const oneFree = await claimOnce(new Map([[backlog.id, PER_SUBSCRIPTION - 1]]));
    assert.deepEqual(
      oneFree.taken,
      new Map([
        [backlog.id, 1],
        [healthy.id, 2],
      ]),
    );
  });
});

/** Ends every pending message that earlier tests queued, so that each test sees its own. */
const settlePending = () => db.query("UPDATE messages SET status = 'delivered' WHERE status = 'pending'");

const takenOf = (claim: Claim, subscriptions: readonly string[]) =>
  subscriptions.reduce((sum, id) => sum + (claim.taken.get(id) ?? 0), 0);

// A tenant is a client (a subscription's owner) for one set of companies: subscription_tenant.
describe('claiming across tenants', { timeout: 60_000 }, () => {
  it("takes at most a tenant's free slots, and another tenant's later message in the first turn", async () => {
    await settlePending();
    const owner = `client-${randomUUID()}`;
    const companyId = randomUUID();
    const tenant = `${owner} ${companyId}`;
    const many: string[] = [];
    for (let i = 0; i < 40; i++) {
      const endpointUrl = `https://many.example.com/${i}`;
      many.push((await insertSubscription(db, { endpointUrl, companyId, owner })).id);
    }
    // The same client for another company is another tenant.
    const other = await insertSubscription(db, {
      endpointUrl: 'https://other.example.com/',
      companyId: randomUUID(),
      owner,
    });
    // 80 messages of one tenant, all due before the other tenant's one.
    await queueMessages(many, 2);
    await queueMessages([other.id], 1);

    const fresh = await claimOnce();
    assert.equal(takenOf(fresh, many), PER_TENANT);
    assert.equal(fresh.taken.get(other.id), 1);
    // Tenants take turns: each tenant's earliest message comes before any tenant's second.
    assert.ok(fresh.order.indexOf(other.id) < 2, `the other tenant's message came at ${fresh.order.indexOf(other.id)}`);

    const partly = await claimOnce(new Map(), new Map([[tenant, 10]]));
    assert.equal(takenOf(partly, many), PER_TENANT - 10);
    const atCap = await claimOnce(new Map(), new Map([[tenant, PER_TENANT]]));
    assert.deepEqual([...atCap.taken], [[other.id, 1]]);
  });
});

// After a recovery, PostgreSQL's statistics may still say what was true when they were taken: no
// message pending (a server with autovacuum off or behind; PGlite never analyzes by itself).
describe('claiming with statistics taken while nothing was pending', { timeout: 120_000 }, () => {
  // A database of its own: the messages the tests before settled leave entries in the pending index
  // that a claim steps over until a vacuum, which is not what this test measures.
  before(async () => {
    await db.close();
    db = await openTestDatabase();
  });

  it('reads the messages it takes, not the backlog recovered since', async () => {
    const recovered = 20_000;
    const { id } = await insertSubscription(db, {
      endpointUrl: 'https://recovered.example.com/',
      companyId: randomUUID(),
    });
    await queueMessages([id], recovered);
    await db.query("UPDATE messages SET status = 'failed' WHERE status = 'pending'");
    await db.exec('ANALYZE messages');
    await db.query("UPDATE messages SET status = 'pending' WHERE subscription_id = $1", [id]);

    await claimOnce(); // the session plans the function once; the claim after it reads only messages
    const claim = await claimOnce();
    assert.deepEqual([...claim.taken], [[id, PER_SUBSCRIPTION]]);
    assert.ok(
      claim.blocks < recovered / 100,
      `a claim of ${PER_SUBSCRIPTION} read ${claim.blocks} blocks beside ${recovered} recovered messages`,
    );

    // Recording their attempts looks each message up by id, too.
    const taken = await db.query<{ id: string }>(
      'SELECT id FROM messages WHERE subscription_id = $1 ORDER BY next_attempt_at LIMIT $2',
      [id, PER_SUBSCRIPTION],
    );
    const records = taken.map((message) => ({
      messageId: message.id,
      expectedAttempts: 0,
      succeeded: true,
      startedAt: new Date(),
      durationMs: 3,
      statusCode: 204,
      error: null,
      responseBody: null,
      retryAfterMs: null,
    }));
    const params = recordAttemptsParams('claim-plan-test', records, [5000]);
    const recording = await rolledBack(db, (tx) => blocksRead(tx, RECORD_ATTEMPTS, params));
    assert.ok(
      recording < recovered / 100,
      `recording ${PER_SUBSCRIPTION} attempts read ${recording} blocks beside ${recovered} recovered messages`,
    );
  });
});
