// A claim reads the head of the queue, not the whole backlog (migration 0011). On a queue table that
// has never been analyzed, as after a burst on PostgreSQL and always on PGlite, a planner left to
// itself reads every due message and sorts them to take the first 64.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { openTestDatabase } from '../../support/database.ts';
import { insertSubscription, recordEvents } from '../../support/delivery-fixtures.ts';

interface ExplainedPlan {
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
}

let db: Database;

before(async () => {
  db = await openTestDatabase();
});
after(() => db.close());

/** Buffer reads of taking one batch of 64, in a transaction rolled back so that nothing stays locked. */
async function blocksOfOneClaim(): Promise<number> {
  let blocks = 0;
  await db
    .transaction(async (tx) => {
      const [row] = await tx.query<{ 'QUERY PLAN': ExplainedPlan[] | string }>(
        "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM due_messages_for_claim(64, '{}')",
      );
      const plan = row?.['QUERY PLAN'];
      const [explained] = typeof plan === 'string' ? (JSON.parse(plan) as ExplainedPlan[]) : (plan ?? []);
      assert.ok(explained, 'EXPLAIN answered a plan');
      blocks = explained.Plan['Shared Hit Blocks'] + explained.Plan['Shared Read Blocks'];
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return blocks;
}

class RolledBack extends Error {}

describe('claiming from a large backlog', { timeout: 60_000 }, () => {
  it('reads as much for a batch from a backlog of 15,000 as from one of 5,000, without statistics', async () => {
    const companyId = randomUUID();
    for (let i = 0; i < 20; i++)
      await insertSubscription(db, { endpointUrl: `https://hooks.example.com/${i}`, companyId });
    await recordEvents(db, companyId, 250, 50); // 5,000 due messages
    const fromSmall = await blocksOfOneClaim();
    await recordEvents(db, companyId, 500, 50); // 10,000 more
    const fromLarge = await blocksOfOneClaim();

    assert.ok(fromSmall > 0);
    assert.ok(
      fromLarge < fromSmall * 1.5,
      `a batch read ${fromSmall} blocks of 5,000 messages, ${fromLarge} of 15,000`,
    );
  });
});
