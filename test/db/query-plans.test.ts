// Plan reuse (docs/decisions/query-plans.md): on PostgreSQL a statement marked reusePlan runs on a
// session that keeps one plan per statement; every other statement, and every transaction, on a
// session that plans each call for its values. PGlite, one session, prepares a kept statement under
// a name and switches the session's mode when the kind of statement changes.
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
    assert.equal(kept, 'force_generic_plan');
    // PGlite sends every other statement unnamed, so `auto` plans each for its values.
    const plansEachCall = db.kind === 'postgres' ? 'force_custom_plan' : 'auto';
    assert.equal(planned, plansEachCall);
    assert.equal(inTransaction, plansEachCall);
  });

  it('runs each statement under its own mode when kept and planned statements and transactions interleave', async () => {
    const plansEachCall = db.kind === 'postgres' ? 'force_custom_plan' : 'auto';
    const ask = (i: number) => {
      if (i % 3 === 0) return { expected: 'force_generic_plan', mode: planMode(db, { reusePlan: true }) };
      if (i % 3 === 1) return { expected: plansEachCall, mode: planMode(db) };
      return { expected: plansEachCall, mode: db.transaction((tx) => planMode(tx, { reusePlan: true })) };
    };
    // Asked from work given to afterPendingIo, every statement starts at once, in the same turn; the
    // last one asked keeps plans, so a statement that switched back and then waited would run under it.
    const calls = await new Promise<ReturnType<typeof ask>[]>((resolve) =>
      db.afterPendingIo(() => resolve(Array.from({ length: 60 }, (_, i) => ask(i + 1)))),
    );
    const modes = await Promise.all(calls.map((call) => call.mode));
    assert.deepEqual(
      modes,
      calls.map((call) => call.expected),
    );
  });

  it('leaves the session planning each call when a kept statement fails', async () => {
    const before = await planMode(db);
    await assert.rejects(db.query('SELECT 1 / $1::int', [0], { reusePlan: true }), { code: '22012' });
    assert.equal(await planMode(db), before);
  });

  it('writes each kind of value as an unkept statement does', async () => {
    const sql = `SELECT $1::uuid[] AS ids, $2::jsonb AS doc, $3::text AS nothing, $4::boolean AS flag,
      $5::timestamptz AS at, $6::bigint AS big, $7::text AS quoted`;
    const params = [
      ['0b5b7c2e-6f4c-4d7e-9a51-2f1f0c8d9e01'],
      { nested: { list: [1, 'two'] } },
      null,
      false,
      new Date('2026-11-22T10:00:00.000Z'),
      '9007199254740993',
      `it's "quoted"`,
    ];
    const [kept] = await db.query(sql, params, { reusePlan: true });
    const [planned] = await db.query(sql, params);
    assert.ok(kept);
    assert.deepEqual(kept, planned);
  });

  it('runs a kept statement outside any open transaction, never inside it', async () => {
    await db.exec('CREATE TABLE plan_probe (n int)');
    const count = 'SELECT count(*)::int AS n FROM plan_probe WHERE $1::boolean';
    let outside: Promise<{ n: number }[]> | undefined;
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO plan_probe VALUES ($1)', [1]);
        outside = db.query<{ n: number }>(count, [true], { reusePlan: true });
        // A statement of the transaction after it, which the outside one must not slip in before.
        await tx.query('SELECT 1 WHERE $1::boolean', [true]);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(await outside, [{ n: 0 }]);
  });

  it('answers a kept statement for each call’s own values', async () => {
    const sql = 'SELECT $1::int * 2 AS doubled';
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      const [row] = await db.query<{ doubled: number }>(sql, [n], { reusePlan: true });
      assert.equal(row?.doubled, n * 2);
    }
  });
});
