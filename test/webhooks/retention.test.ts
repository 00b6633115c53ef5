// Webhook retention (docs/decisions/webhook-delivery.md, "Retention"): ended messages, their attempts
// and unneeded events go once past WEBHOOK_RETENTION; pending messages and what they need stay.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { startRetentionSweeper, sweepRetentionBatch } from '../../src/webhooks/retention-sweeper.ts';
import { openTestDatabase } from '../support/database.ts';
import { emitEvent, insertSubscription } from './delivery/fixtures.ts';

const RETENTION_MS = 60_000;

let db: Database;
before(async () => {
  db = await openTestDatabase();
});
after(() => db.close());
beforeEach(async () => {
  await db.query('DELETE FROM messages');
  await db.query('DELETE FROM events');
});

/** A message of a new event, moved to `status` and aged by `ageMs`, with one attempt recorded. */
async function message(companyId: string, status: string, ageMs: number) {
  const { eventId } = await emitEvent(db, companyId);
  const [row] = await db.query<{ id: string }>('SELECT id FROM messages WHERE event_id = $1', [eventId]);
  const id = row?.id as string;
  await db.query(
    `UPDATE messages SET status = $2, attempts = 1, updated_at = now() - $3 * interval '1 millisecond',
       delivered_at = CASE WHEN $2 = 'delivered' THEN now() END
     WHERE id = $1`,
    [id, status, ageMs],
  );
  await db.query(
    `INSERT INTO message_attempts (message_id, attempt, started_at, duration_ms, succeeded)
     VALUES ($1, 1, now(), 3, $2)`,
    [id, status === 'delivered'],
  );
  await db.query(`UPDATE events SET created_at = now() - $2 * interval '1 millisecond' WHERE id = $1`, [
    eventId,
    ageMs,
  ]);
  return id;
}

async function remaining() {
  const messages = await db.query<{ id: string }>('SELECT id FROM messages ORDER BY id');
  const attempts = await db.query<{ message_id: string }>('SELECT message_id FROM message_attempts ORDER BY 1');
  const events = await db.query<{ id: string }>('SELECT id FROM events');
  return {
    messages: messages.map((r) => r.id),
    attempts: attempts.map((r) => r.message_id),
    events: events.length,
  };
}

/** Sweeps as a worker does: batches until one runs short. */
async function sweepAll(batchSize: number): Promise<string[]> {
  const deleted: string[] = [];
  for (;;) {
    const batch = await sweepRetentionBatch(db, RETENTION_MS, batchSize);
    deleted.push(...batch);
    if (batch.length < batchSize) return deleted;
  }
}

describe('webhook retention', () => {
  it('deletes ended messages, their attempts and unneeded events past the retention, and nothing else', async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: 'https://example.com/hook', companies: [company] });
    const old = RETENTION_MS + 5_000;
    const oldDelivered = await message(company, 'delivered', old);
    const oldFailed = await message(company, 'failed', old);
    const youngDelivered = await message(company, 'delivered', 1_000);
    const youngFailed = await message(company, 'failed', 1_000);
    // Still owed to its endpoint: kept, with its event, however old.
    const oldPending = await message(company, 'pending', old);
    // An event no subscription wanted (it has no message): old goes, young stays.
    const noSubscriber = randomUUID();
    const { eventId: unwanted } = await emitEvent(db, noSubscriber);
    await db.query(`UPDATE events SET created_at = now() - interval '2 minutes' WHERE id = $1`, [unwanted]);
    await emitEvent(db, noSubscriber);

    const deleted = await sweepAll(2);

    const kept = [youngDelivered, youngFailed, oldPending].sort();
    assert.deepEqual((await remaining()).messages, kept);
    assert.deepEqual((await remaining()).attempts, kept, 'attempts go with their message');
    // The three kept messages' events and the young unwanted one.
    assert.equal((await remaining()).events, 4);
    assert.ok(deleted.includes(oldDelivered) && deleted.includes(oldFailed) && deleted.includes(unwanted));
    assert.equal(deleted.length, 5, 'two messages, their two events and the unwanted event');
  });

  it('two sweepers at once delete each row once and never fail', async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: 'https://example.com/hook', companies: [company] });
    const expected = [];
    for (let i = 0; i < 40; i++) expected.push(await message(company, 'delivered', RETENTION_MS + 1_000));
    const [a, b] = await Promise.all([sweepAll(3), sweepAll(3)]);
    const messagesDeleted = [...(a ?? []), ...(b ?? [])].filter((id) => id.startsWith('msg_'));
    assert.deepEqual(messagesDeleted.sort(), expected.sort());
    assert.deepEqual(await remaining(), { messages: [], attempts: [], events: 0 });
  });

  it('a sweep cut off between batches loses nothing that is kept, and the next one finishes', async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: 'https://example.com/hook', companies: [company] });
    for (let i = 0; i < 6; i++) await message(company, 'failed', RETENTION_MS + 1_000);
    const pending = await message(company, 'pending', RETENTION_MS + 1_000);
    // The process dies after the first batch: only that batch's statement ran.
    await sweepRetentionBatch(db, RETENTION_MS, 2);
    assert.equal((await remaining()).messages.length, 5);
    await sweepAll(2);
    assert.deepEqual((await remaining()).messages, [pending]);
    assert.equal((await remaining()).events, 1);
  });

  it('deletes the health rows of deleted subscriptions, and keeps those of live ones', async () => {
    const live = await insertSubscription(db, { endpointUrl: 'https://example.com/hook' });
    const gone = await insertSubscription(db, { endpointUrl: 'https://example.com/hook' });
    for (const { id } of [live, gone]) {
      await db.query(
        `INSERT INTO subscription_health (subscription_id, last_attempt_at, consecutive_failures, failed_messages_in_streak)
         VALUES ($1, now(), 0, 0)`,
        [id],
      );
    }
    await db.query('DELETE FROM subscriptions WHERE id = $1', [gone.id]);
    const deleted = await sweepAll(100);
    assert.ok(deleted.includes(gone.id));
    const left = await db.query<{ id: string }>('SELECT subscription_id AS id FROM subscription_health');
    assert.ok(left.some((row) => row.id === live.id));
    assert.ok(!left.some((row) => row.id === gone.id));
  });

  it('deletes recoveries finished before the retention; keeps newer and unfinished ones', async () => {
    const { id: subscriptionId } = await insertSubscription(db, { endpointUrl: 'https://example.com/hook' });
    const recovery = async (finishedAgoMs: number | null, createdAgoMs: number) => {
      const [row] = await db.query<{ id: string }>(
        `INSERT INTO message_recoveries (subscription_id, since, until, messages, created_at, finished_at)
         VALUES ($1, now() - interval '1 day', now(), 0, now() - $2 * interval '1 millisecond',
           now() - $3 * interval '1 millisecond')
         RETURNING id`,
        [subscriptionId, createdAgoMs, finishedAgoMs],
      );
      return row?.id as string;
    };
    const expired = await recovery(2 * RETENTION_MS, 3 * RETENTION_MS);
    const recent = await recovery(RETENTION_MS / 2, 3 * RETENTION_MS);
    const open = await recovery(null, 3 * RETENTION_MS);
    const deleted = await sweepAll(1);
    assert.ok(deleted.includes(expired));
    const left = await db.query<{ id: string }>('SELECT id FROM message_recoveries WHERE subscription_id = $1', [
      subscriptionId,
    ]);
    assert.deepEqual(left.map((row) => row.id).sort(), [recent, open].sort());
  });

  it('runs in the worker on its own and stops cleanly', async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: 'https://example.com/hook', companies: [company] });
    const id = await message(company, 'delivered', RETENTION_MS + 1_000);
    const logged: string[] = [];
    let sawIt: () => void = () => {};
    const swept = new Promise<void>((resolve) => {
      sawIt = resolve;
    });
    const sweeper = startRetentionSweeper({
      db,
      retentionMs: RETENTION_MS,
      intervalMs: 10,
      logger: { info: (_o: unknown, line: string) => logged.push(line), error: () => {} } as never,
      onSweep: (ids) => ids.includes(id) && sawIt(),
    });
    await swept;
    await sweeper.stop();
    assert.deepEqual((await remaining()).messages, []);
    assert.ok(logged.some((line) => line.includes('retention')));
  });
});
