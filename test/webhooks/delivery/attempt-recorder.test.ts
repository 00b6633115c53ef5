// Recording attempts in batches: the attempts that end while a write runs share the next write;
// each caller learns what was stored for its own attempt; a failed write fails only its batch.
// Then the batched statement itself, on the database: a lost lease stores nothing for that message.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { createAttemptRecorder } from '../../../src/webhooks/attempt-recorder.ts';
import { type AttemptRecord, claimDueMessages, recordAttempts } from '../../../src/webhooks/delivery-store.ts';
import { openTestDatabase } from '../../support/database.ts';
import { emitEvent, insertSubscription, messagesOf } from './fixtures.ts';

const attempt = (messageId: string, succeeded = true): AttemptRecord => ({
  messageId,
  expectedAttempts: 0,
  succeeded,
  statusCode: succeeded ? 204 : 500,
  error: null,
  responseBody: null,
  retryAfterMs: null,
  startedAt: new Date(),
  durationMs: 3,
});

/** A write that waits until released, remembering each batch it was given. */
function controlledWrite() {
  const batches: string[][] = [];
  const releases: (() => void)[] = [];
  let failNext = false;
  const write = async (records: readonly AttemptRecord[]) => {
    batches.push(records.map((r) => r.messageId));
    const fail = failNext;
    failNext = false;
    await new Promise<void>((resolve) => releases.push(resolve));
    if (fail) throw new Error('database down');
    return records.map((r, i) => ({
      attempt: i + 1,
      status: r.succeeded ? ('delivered' as const) : ('pending' as const),
    }));
  };
  return {
    write,
    batches,
    releaseNext: () => releases.shift()?.(),
    failNextWrite: () => {
      failNext = true;
    },
    writeStarted: async (count: number) => {
      while (batches.length < count) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('attempt recorder', () => {
  it('writes the attempts that end during a write as one batch, and answers each caller its own row', async () => {
    const db = controlledWrite();
    const recorder = createAttemptRecorder(db.write);
    const first = recorder.record(attempt('m1'));
    await db.writeStarted(1);
    const queued = [
      recorder.record(attempt('m2', false)),
      recorder.record(attempt('m3')),
      recorder.record(attempt('m4')),
    ];
    db.releaseNext();
    assert.deepEqual(await first, { attempt: 1, status: 'delivered' });
    await db.writeStarted(2);
    db.releaseNext();
    assert.deepEqual(await Promise.all(queued), [
      { attempt: 1, status: 'pending' },
      { attempt: 2, status: 'delivered' },
      { attempt: 3, status: 'delivered' },
    ]);
    assert.deepEqual(db.batches, [['m1'], ['m2', 'm3', 'm4']]);
  });

  it('splits a long queue into batches of at most maxBatch', async () => {
    const db = controlledWrite();
    const recorder = createAttemptRecorder(db.write, 2);
    const all = ['a', 'b', 'c', 'd', 'e'].map((id) => recorder.record(attempt(id)));
    for (let i = 1; i <= 3; i++) {
      await db.writeStarted(i);
      db.releaseNext();
    }
    await Promise.all(all);
    assert.deepEqual(db.batches, [['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('rejects only the batch whose write failed; later attempts are written', async () => {
    const db = controlledWrite();
    const recorder = createAttemptRecorder(db.write);
    db.failNextWrite();
    const lost = recorder.record(attempt('x1'));
    await db.writeStarted(1);
    const later = recorder.record(attempt('x2'));
    db.releaseNext();
    await assert.rejects(lost, /database down/);
    await db.writeStarted(2);
    db.releaseNext();
    assert.deepEqual(await later, { attempt: 1, status: 'delivered' });
  });
});

describe('recordAttempts on the database', () => {
  let database: Database;
  before(async () => {
    database = await openTestDatabase();
  });
  after(async () => {
    await database.close();
  });

  it("a claim's relaxed commit (synchronous_commit off) ends with its statement", async () => {
    const company = randomUUID();
    await insertSubscription(database, { endpointUrl: 'https://example.com/hook', companies: [company] });
    await emitEvent(database, company);
    const claimed = await claimDueMessages(database, {
      workerId: `test-${randomUUID()}`,
      leaseMs: 60_000,
      limit: 10,
      perSubscription: 8,
      busy: new Map(),
      perTenant: 16,
      busyTenants: new Map(),
    });
    assert.equal(claimed.length, 1);
    // The pool hands the connection just released to the next query.
    const [setting] = await database.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
    assert.equal(setting?.synchronous_commit, 'on');
  });

  it('records many attempts in one statement; a message whose lease was lost gets nothing', async () => {
    const company = randomUUID();
    const subscription = await insertSubscription(database, {
      endpointUrl: 'https://example.com/hook',
      companies: [company],
    });
    for (let i = 0; i < 3; i++) await emitEvent(database, company);
    const workerId = `test-${randomUUID()}`;
    const claimed = await claimDueMessages(database, {
      workerId,
      leaseMs: 60_000,
      limit: 10,
      perSubscription: 8,
      busy: new Map(),
      perTenant: 16,
      busyTenants: new Map(),
    });
    assert.equal(claimed.length, 3);
    const [delivered, retried, stolen] = claimed.map((m) => m.messageId) as [string, string, string];
    // Another worker took the third message over after our lease.
    await database.query(`UPDATE messages SET leased_by = 'someone-else' WHERE id = $1`, [stolen]);

    const recorded = await recordAttempts(
      database,
      workerId,
      [attempt(delivered, true), attempt(retried, false), attempt(stolen, true)],
      [60_000],
    );

    assert.deepEqual(recorded, [{ attempt: 1, status: 'delivered' }, { attempt: 1, status: 'pending' }, undefined]);
    const messages = new Map((await messagesOf(database, subscription.id)).map((m) => [m.id, m]));
    assert.equal(messages.get(delivered)?.status, 'delivered');
    assert.equal(messages.get(retried)?.status, 'pending');
    assert.equal(messages.get(stolen)?.status, 'pending');
    const rows = await database.query<{ messageId: string; succeeded: boolean; statusCode: number }>(
      `SELECT message_id AS "messageId", succeeded, status_code AS "statusCode" FROM message_attempts
       WHERE message_id = ANY($1::text[]) ORDER BY succeeded DESC`,
      [[delivered, retried, stolen]],
    );
    assert.deepEqual(rows, [
      { messageId: delivered, succeeded: true, statusCode: 204 },
      { messageId: retried, succeeded: false, statusCode: 500 },
    ]);
    const [due] = await database.query<{ waitMs: number }>(
      `SELECT extract(epoch FROM next_attempt_at - now()) * 1000 AS "waitMs" FROM messages WHERE id = $1`,
      [retried],
    );
    assert.ok(due && due.waitMs > 50_000, `the retry waits the schedule's first step, got ${due?.waitMs} ms`);
  });
});
