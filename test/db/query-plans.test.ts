// Plan reuse (docs/decisions/query-plans.md): on PostgreSQL a statement marked reusePlan runs on a
// session that keeps one plan per statement; every other statement, and every transaction, on a
// session that plans each call for its values. PGlite plans every statement on each call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database, Queryable, QueryOptions } from '../../src/db/database.ts';
import { openTestDatabase } from '../support/database.ts';

/** The plan_cache_mode of the session a parameterised statement ran on. */
async function planMode(db: Queryable, options?: QueryOptions): Promise<string | undefined> {
  const rows = await db.query<{ mode: string }>(
    "SELECT current_setting('plan_cache_mode') AS mode WHERE $1::boolean",
    [true],
    options,
  );
  return rows[0]?.mode;
}

describe('query plans', () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it('keeps plans only for statements that ask for it, never inside a transaction', async () => {
    const kept = await planMode(db, { reusePlan: true });
    const planned = await planMode(db);
    const inTransaction = await db.transaction((tx) => planMode(tx, { reusePlan: true }));
    if (db.kind === 'postgres') {
      assert.equal(kept, 'force_generic_plan');
      assert.equal(planned, 'force_custom_plan');
      assert.equal(inTransaction, 'force_custom_plan');
    } else {
      // PGlite sends every statement unnamed, so each is planned for its values whatever the mode.
      assert.deepEqual([kept, planned, inTransaction], ['auto', 'auto', 'auto']);
    }
  });

  it('answers a kept statement for each call’s own values', async () => {
    const sql = 'SELECT $1::int * 2 AS doubled';
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      const [row] = await db.query<{ doubled: number }>(sql, [n], { reusePlan: true });
      assert.equal(row?.doubled, n * 2);
    }
  });
});
