// The subscriptions of a change's events are found through their company's index: a change reads its
// own company's few subscriptions, not every subscription to its event type that other companies
// hold (src/webhooks/fan-out.ts, migration 0041), both when the change makes its messages itself and
// when the workers run its fan-out.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database, Queryable } from '../../../src/db/database.ts';
import { fanOutNext, INLINE_FAN_OUT_MAX_EVENTS } from '../../../src/webhooks/fan-out.ts';
import { type NewEvent, recordEvents } from '../../../src/webhooks/record-event.ts';
import { openTestDatabase } from '../../support/database.ts';
import { explainAnalyzed, type PlanNode } from '../../support/explain.ts';
import { EVENT_TYPE, insertSubscription } from './fixtures.ts';

const OTHER_COMPANIES = 500;
// The company's two, and what an empty branch for operational events starts to read: not the 500.
const FEW = 10;
const URL = 'https://hooks.example.com/in';
let db: Database;
const company = randomUUID();

before(async () => {
  db = await openTestDatabase();
  await db.query(
    `INSERT INTO subscriptions (owner, companies, status, event_types, endpoint_url)
     SELECT gen_random_uuid()::text, ARRAY[gen_random_uuid()], 'ACTIVE', ARRAY[$1], $2 FROM generate_series(1, $3::int)`,
    [EVENT_TYPE, URL, OTHER_COMPANIES],
  );
  await insertSubscription(db, { endpointUrl: URL, companies: [company] });
  await insertSubscription(db, { endpointUrl: URL, companies: [company] });
  await db.exec('ANALYZE subscriptions');
});
after(() => db.close());

/** Subscription rows the plan looked at: those it kept and those it read and threw away. */
function subscriptionsRead(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'subscriptions'
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
        node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + subscriptionsRead(child), 0);
}

/**
 * Runs `work` in a transaction that is rolled back, on a connection that answers the statement whose
 * SQL contains `marker` with its EXPLAIN ANALYZE; answers that plan.
 */
async function planOf(marker: string, work: (tx: Queryable) => Promise<unknown>): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  await db
    .transaction(async (tx) => {
      const explaining: Queryable = {
        ...tx,
        query: async <Row>(sql: string, params?: readonly unknown[], options?: object): Promise<Row[]> => {
          if (!sql.includes(marker)) return tx.query<Row>(sql, params, options);
          plan = await explainAnalyzed(tx, sql, params);
          return [];
        },
      };
      await work(explaining);
      throw new Error('rolled back');
    })
    .catch((error: Error) => {
      if (error.message !== 'rolled back') throw error;
    });
  assert.ok(plan, `no statement with ${marker} ran`);
  return plan;
}

const eventsOf = (count: number): NewEvent[] =>
  Array.from({ length: count }, () => ({ eventType: EVENT_TYPE, companyId: company, data: { companyId: company } }));

describe("a change's subscriptions, beside 500 other companies' to the same type", { timeout: 30_000 }, () => {
  it('are read alone when the change makes its messages itself', async () => {
    const plan = await planOf('INSERT INTO events', (tx) => recordEvents(tx, eventsOf(1)));
    assert.ok(subscriptionsRead(plan) < FEW, `read ${subscriptionsRead(plan)} subscriptions`);
  });

  it("are read alone when a worker runs a large change's fan-out", async () => {
    const plan = await planOf('DELETE FROM event_fan_outs', async (tx) => {
      await recordEvents(tx, eventsOf(INLINE_FAN_OUT_MAX_EVENTS + 1));
      await fanOutNext(tx);
    });
    assert.ok(subscriptionsRead(plan) < FEW, `read ${subscriptionsRead(plan)} subscriptions`);
  });
});
