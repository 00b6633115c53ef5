// A service killed with SIGKILL in the middle of a retention sweep, and in the middle of a recover,
// then started again on the same data (docs/decisions/webhook-delivery.md, "Retention" and
// "Recover"): the sweep deletes nothing that should be kept and the restart finishes it; the recover
// queues every failed message exactly once, the restart going on where the killed one stopped.
//
// The rows are seeded with SQL before the service starts (tens of thousands, so that the work takes
// many batches), and the kill comes as soon as the public API shows the first batch committed.
// Runs on PostgreSQL (TEST_DATABASE_URL: a database of its own) and on a temporary DATA_DIR.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../src/db/database.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { waitFor } from '../support/outage-requests.ts';
import { insertMessages, SERVICE_ENV, SeededService } from './seeded-service.ts';

const SWEPT = 'webhook messages and events past their retention deleted';
const RECOVERED = 'failed messages queued again';
const DATABASE = TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded';

describe(`a service killed in the middle of a retention sweep (${DATABASE})`, { timeout: 300_000 }, () => {
  // Sweeps every 12 s (a tenth of the retention); rows ended two hours ago are past it, rows ended
  // when the test began are not, for the whole test.
  const env = { ...SERVICE_ENV, WEBHOOK_RETENTION: '120s' };
  const EXPIRED = 20_000;
  const KEPT = 300;
  const fixture = new SeededService('ledgerhook_kill_sweep');
  before(() => fixture.setUp());
  after(() => fixture.tearDown());

  it('deletes only what is past its retention, and a restart finishes the sweep', async (t) => {
    const { subscriptionId } = await fixture.seed(async (db, subscription) => {
      // Ended two hours ago, oldest first (the sweep's order), each with its attempt: all expired.
      await insertMessages(db, subscription, EXPIRED, {
        status: "CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'delivered' END",
        createdAt: "now() - interval '2 hours' + i * interval '1 millisecond'",
        updatedAt: 'created_at',
        attempts: 1,
        nextAttemptAt: 'created_at',
      });
      // Kept: pending for two hours (still owed to the endpoint, however old), and ended just now.
      await insertMessages(db, subscription, KEPT, {
        status: "'pending'",
        createdAt: "now() - interval '2 hours'",
        updatedAt: 'created_at',
        attempts: 1,
        nextAttemptAt: "now() + interval '1 day'",
      });
      await insertMessages(db, subscription, KEPT, {
        status: "'delivered'",
        createdAt: 'now()',
        updatedAt: 'now()',
        attempts: 1,
        nextAttemptAt: 'now()',
      });
    });
    const before = await fixture.inspect(countRows);

    const first = await fixture.start(env);
    const oldest = await fixture.firstMessage(first, subscriptionId, 'delivered');
    // The sweep deletes oldest first: once the oldest is gone, a batch has committed.
    await soon(
      async () => (await fixture.firstMessage(first, subscriptionId, 'delivered'))?.id !== oldest?.id,
      'a first batch swept',
    );
    await first.kill();

    const killed = await fixture.inspect(countRows);
    t.diagnostic(`killed with ${killed.expired} of ${EXPIRED} expired messages left`);
    assert.ok(killed.expired > 0 && killed.expired < EXPIRED, 'the kill came in the middle of the sweep');
    assert.deepEqual(keptRows(killed), keptRows(before), 'nothing kept was deleted by the killed sweep');

    const second = await fixture.start(env);
    // A sweep goes on until a batch runs short: messages first, then the events they needed.
    await soon(async () => second.output().includes(SWEPT), 'the sweep finished after the restart');
    await second.stop();

    const swept = await fixture.inspect(countRows);
    assert.deepEqual(
      { expired: swept.expired, expiredAttempts: swept.expiredAttempts, expiredEvents: swept.expiredEvents },
      { expired: 0, expiredAttempts: 0, expiredEvents: 0 },
      'the restarted service finished the sweep',
    );
    assert.deepEqual(keptRows(swept), keptRows(before), 'nothing kept was deleted');
  });
});

describe(`a service killed in the middle of a recover (${DATABASE})`, { timeout: 300_000 }, () => {
  // The endpoint refuses connections; a recovered message is tried once and then waits an hour, so
  // it stays pending for the rest of the test.
  const env = { ...SERVICE_ENV, WEBHOOK_RETRY_SCHEDULE: '1h' };
  const FAILED = 20_000;
  const fixture = new SeededService('ledgerhook_kill_recover');
  before(() => fixture.setUp());
  after(() => fixture.tearDown());

  it('queues every failed message once, and a restart goes on where the killed one stopped', async (t) => {
    const { subscriptionId } = await fixture.seed(async (db, subscription) => {
      await insertMessages(db, subscription, FAILED, {
        status: "'failed'",
        createdAt: "now() - interval '1 hour' + i * interval '1 millisecond'",
        updatedAt: 'created_at',
        attempts: 7,
        nextAttemptAt: 'created_at',
      });
    });

    const first = await fixture.start(env);
    const since = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const recovered = await fixture.call(first, 'POST', `/v1/subscriptions/${subscriptionId}:recover`, { since });
    assert.equal(recovered.status, 202);
    assert.equal((await recovered.json()).data.messages, FAILED);
    await soon(
      async () => (await fixture.firstMessage(first, subscriptionId, 'pending')) !== undefined,
      'a first message queued again',
    );
    await first.kill();

    const killed = await fixture.inspect(recoveryState);
    t.diagnostic(`killed with ${killed.queued} of ${FAILED} messages queued`);
    assert.ok(killed.queued > 0 && killed.queued < FAILED, 'the kill came in the middle of the recover');
    assert.equal(killed.notFailed, killed.queued, 'the recovery counts exactly the messages it queued');

    const second = await fixture.start(env);
    // Logged once a pass has queued the rest and found the recovery finished.
    await soon(async () => second.output().includes(RECOVERED), 'the recover finished after the restart');
    await second.stop();

    const finished = await fixture.inspect(recoveryState);
    assert.deepEqual(finished, {
      queued: FAILED,
      finished: true,
      notFailed: FAILED,
      // Queued twice, a message would have started its schedule again after a later attempt.
      queuedOnce: FAILED,
    });
  });
});

interface RowCounts {
  expired: number;
  expiredAttempts: number;
  expiredEvents: number;
  pending: number;
  recent: number;
  keptAttempts: number;
  keptEvents: number;
}

/** Expired: ended more than an hour ago. Kept: the rest, counted by status. */
async function countRows(db: Queryable): Promise<RowCounts> {
  const [row] = await db.query<RowCounts>(
    `WITH expired AS (SELECT id FROM messages WHERE status <> 'pending' AND updated_at < now() - interval '1 hour')
     SELECT
       (SELECT count(*)::int FROM expired) AS expired,
       (SELECT count(*)::int FROM message_attempts WHERE message_id IN (SELECT id FROM expired)) AS "expiredAttempts",
       (SELECT count(*)::int FROM events e WHERE e.created_at < now() - interval '1 hour'
          AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.event_id = e.id AND m.status = 'pending')) AS "expiredEvents",
       (SELECT count(*)::int FROM messages WHERE status = 'pending') AS pending,
       (SELECT count(*)::int FROM messages WHERE status <> 'pending' AND updated_at >= now() - interval '1 hour') AS recent,
       (SELECT count(*)::int FROM message_attempts a JOIN messages m ON m.id = a.message_id
          WHERE m.status = 'pending' OR m.updated_at >= now() - interval '1 hour') AS "keptAttempts",
       (SELECT count(*)::int FROM events e JOIN messages m ON m.event_id = e.id
          WHERE m.status = 'pending' OR m.updated_at >= now() - interval '1 hour') AS "keptEvents"`,
  );
  return row as RowCounts;
}

function keptRows(counts: RowCounts) {
  const { pending, recent, keptAttempts, keptEvents } = counts;
  return { pending, recent, keptAttempts, keptEvents };
}

async function recoveryState(db: Queryable) {
  const [row] = await db.query<{ queued: number; finished: boolean; notFailed: number; queuedOnce: number }>(
    `SELECT r.queued, r.finished_at IS NOT NULL AS finished,
       (SELECT count(*)::int FROM messages WHERE status <> 'failed') AS "notFailed",
       (SELECT count(*)::int FROM messages WHERE status <> 'failed' AND schedule_base = 7) AS "queuedOnce"
     FROM message_recoveries r`,
  );
  return row as { queued: number; finished: boolean; notFailed: number; queuedOnce: number };
}

/**
 * Resolves once `condition` holds, asking every 20 ms: the kill must come while the work is under
 * way, soon after its first batch commits.
 */
function soon(condition: () => Promise<boolean>, what: string): Promise<void> {
  return waitFor(condition, what, 240_000, 20);
}
