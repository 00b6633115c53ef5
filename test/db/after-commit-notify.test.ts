// NOTIFY after commit (src/db/after-commit-notify.ts): a transaction's notifications are sent once
// it commits and never when it rolls back, one per channel; while one is on its way, or sooner than
// its spacing after it, the next ones wait and go as one, with the last payload.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { coalescedNotifier } from '../../src/db/after-commit-notify.ts';
import type { Database } from '../../src/db/database.ts';
import { openTestDatabase } from '../support/database.ts';

describe('the coalesced notifier', { timeout: 10_000 }, () => {
  it('sends at once, then what was asked for meanwhile as one notification with the last payload', async () => {
    const sent: string[] = [];
    const inFlight: (() => void)[] = [];
    const notify = coalescedNotifier(async (channel, payload) => {
      sent.push(`${channel}:${payload}`);
      await new Promise<void>((resolve) => inFlight.push(resolve));
    });
    notify('a', '1');
    notify('a', '2');
    notify('a', '3');
    notify('b', '1');
    assert.deepEqual(sent, ['a:1', 'b:1']);
    inFlight.shift()?.();
    await until(() => sent.length === 3);
    assert.deepEqual(sent, ['a:1', 'b:1', 'a:3']);
    for (const finish of inFlight.splice(0)) finish();
    await until(() => inFlight.length === 0);
    assert.equal(sent.length, 3, 'nothing more was asked for');
  });

  it('sends the next no sooner than its spacing after the last one started, with the last payload', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const sent: string[] = [];
    const notify = coalescedNotifier(async (_channel, payload) => {
      sent.push(payload);
    }, 5);
    notify('a', '1');
    notify('a', '2');
    notify('a', '3');
    await until(() => sent.length === 1);
    // The first is sent; the others wait for its spacing to pass.
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    t.mock.timers.tick(4);
    assert.deepEqual(sent, ['1']);
    t.mock.timers.tick(1);
    await until(() => sent.length === 2);
    assert.deepEqual(sent, ['1', '3']);
    // After a quiet spell longer than the spacing, the next goes at once.
    t.mock.timers.tick(10);
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    notify('a', '4');
    await until(() => sent.length === 3);
    assert.deepEqual(sent, ['1', '3', '4']);
  });

  it('goes on after a NOTIFY that failed', async () => {
    const sent: string[] = [];
    let fail: ((error: Error) => void) | undefined;
    const notify = coalescedNotifier(async (_channel, payload) => {
      sent.push(payload);
      if (payload === 'fails') await new Promise((_, reject) => (fail = reject));
    });
    notify('a', 'fails');
    notify('a', 'next');
    fail?.(new Error('the connection broke'));
    await until(() => sent.length === 2);
    assert.deepEqual(sent, ['fails', 'next']);
  });
});

describe('notifyAfterCommit', { timeout: 20_000 }, () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(() => db.close());

  it('notifies once a transaction commits, once per channel, and never for one rolled back', async () => {
    const channel = `after_commit_${randomUUID().replaceAll('-', '')}`;
    const heard: string[] = [];
    let hearCommitted: (() => void) | undefined;
    const unlisten = await db.listen(channel, (payload) => {
      heard.push(payload);
      if (payload === 'committed') hearCommitted?.();
    });
    try {
      await db
        .transaction(async (tx) => {
          tx.notifyAfterCommit(channel, 'rolled back');
          throw new Error('roll back');
        })
        .catch(() => {});
      const committed = new Promise<void>((resolve) => {
        hearCommitted = resolve;
      });
      let sentBeforeCommit = false;
      await db.transaction(async (tx) => {
        tx.notifyAfterCommit(channel, 'first');
        tx.notifyAfterCommit(channel, 'committed');
        // Asked for inside the transaction, nothing is sent before it commits.
        await tx.query('SELECT 1');
        sentBeforeCommit = heard.length > 0;
      });
      await committed;
      assert.equal(sentBeforeCommit, false);
      // Notifications arrive in commit order: the rolled-back one would have come first.
      assert.deepEqual(heard, ['committed']);
    } finally {
      await unlisten();
    }
  });

  it('notifies at once outside a transaction', async () => {
    const channel = `after_commit_${randomUUID().replaceAll('-', '')}`;
    let hear: ((payload: string) => void) | undefined;
    const heard = new Promise<string>((resolve) => {
      hear = resolve;
    });
    const unlisten = await db.listen(channel, (payload) => hear?.(payload));
    try {
      db.notifyAfterCommit(channel, 'now');
      assert.equal(await heard, 'now');
    } finally {
      await unlisten();
    }
  });
});

/** Resolves once `condition` holds, checking after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
