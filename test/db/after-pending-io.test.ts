// When statements start relative to the event loop's I/O (Database.afterPendingIo). PGlite runs
// statements in this thread: one started outside afterPendingIo waits until the I/O pending now has
// been read, one per turn of the event loop in the order asked, and one started from afterPendingIo
// work runs at once. PostgreSQL needs no such wait.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { openTestDatabase } from '../support/database.ts';

const STATEMENT = 'SELECT 1 AS one WHERE $1::boolean';

describe('statements and pending I/O', () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it('runs afterPendingIo work after what the event loop had already queued', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('queued before'));
    await new Promise<void>((resolve) =>
      db.afterPendingIo(() => {
        order.push('work');
        resolve();
      }),
    );
    assert.deepEqual(order, ['queued before', 'work']);
  });

  it('starts an embedded statement after pending I/O, or at once from afterPendingIo work', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('pending I/O'));
    const rows = await db.query(STATEMENT, [true], { reusePlan: true });
    order.push('statement');

    const fromWork: string[] = [];
    const rowsFromWork = await new Promise<unknown[]>((resolve, reject) =>
      db.afterPendingIo(() => {
        setImmediate(() => fromWork.push('next turn'));
        db.query(STATEMENT, [true]).then((answer) => {
          fromWork.push('statement');
          resolve(answer);
        }, reject);
      }),
    );

    assert.deepEqual([rows, rowsFromWork], [[{ one: 1 }], [{ one: 1 }]]);
    // PostgreSQL answers over a socket, after any turn; PGlite answers within the turn it starts in.
    if (db.kind === 'pglite') {
      assert.deepEqual(order, ['pending I/O', 'statement']);
      assert.deepEqual(fromWork, ['statement']);
    }
  });

  it('runs embedded statements one per turn of the event loop, in the order they were asked for', async () => {
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const answered: { n: number; turn: number }[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => db.query(STATEMENT, [true]).then(() => answered.push({ n, turn }))));
    counting = false;
    assert.deepEqual(answered.map((a) => a.n).sort(), [1, 2, 3, 4]);
    // PostgreSQL runs them on its own connections, answering in any order and turn.
    if (db.kind === 'pglite') {
      assert.deepEqual(
        answered.map((a) => a.n),
        [1, 2, 3, 4],
      );
      const turns = answered.map((a) => a.turn);
      assert.equal(new Set(turns).size, 4, `each statement in a turn of its own, got turns ${turns}`);
    }
  });
});
