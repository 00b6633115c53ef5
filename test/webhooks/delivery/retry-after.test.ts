// A receiver's Retry-After (src/webhooks/retry-after.ts): a 429 or 503 that asks for a wait gets its
// next attempt no sooner, up to the schedule's longest wait, and the attempt record keeps the wait.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { retryAfterMs } from '../../../src/webhooks/retry-after.ts';
import { openTestDatabase } from '../../support/database.ts';
import {
  emitEvent,
  insertSubscription,
  messagesOf,
  startReceiver,
  startTestWorker,
  type TestWorker,
} from './fixtures.ts';

// The first wait is short, the longest 1.5 s: the cap a receiver's Retry-After cannot pass.
const SCHEDULE = [40, 1500];

describe('reading Retry-After', () => {
  const now = Date.parse('2026-11-28T10:00:00Z');
  it('takes seconds or an HTTP date from a 429 or a 503, and nothing else', () => {
    assert.equal(retryAfterMs(429, '120', now), 120_000);
    assert.equal(retryAfterMs(503, ' 0 ', now), 0);
    assert.equal(retryAfterMs(503, 'Sat, 28 Nov 2026 10:01:30 GMT', now), 90_000);
    assert.equal(retryAfterMs(503, 'Sat, 28 Nov 2026 09:59:00 GMT', now), 0, 'a date past is now');
    for (const header of ['-5', '1.5', 'soon', '2026-11-28T10:01:30Z', '', undefined]) {
      assert.equal(retryAfterMs(503, header, now), null, String(header));
    }
    assert.equal(retryAfterMs(500, '120', now), null);
    assert.equal(retryAfterMs(200, '120', now), null);
    assert.equal(retryAfterMs(429, ['1', '2'], now), null, 'a repeated header is no answer');
  });
});

describe('a receiver that asks to wait', { timeout: 30_000 }, () => {
  let db: Database;
  let worker: TestWorker;
  before(async () => {
    db = await openTestDatabase();
    // Retries come from the worker's timer alone, never earlier than their due time.
    worker = await startTestWorker(db, { scheduleMs: SCHEDULE, timeoutMs: 1000, retryByTimerOnly: true });
  });
  after(async () => {
    await worker.stop();
    await db.close();
  });

  const attemptsOf = (messageId: string) =>
    db.query<{ attempt: number; statusCode: number; retryAfterMs: number | null }>(
      `SELECT attempt, status_code AS "statusCode", retry_after_ms AS "retryAfterMs"
       FROM message_attempts WHERE message_id = $1 ORDER BY attempt`,
      [messageId],
    );

  /** Delivers one event to a receiver that answers `first` once, then 204: the gap between the two. */
  async function deliverAfter(first: { status: number; headers: Record<string, string> }) {
    const receiver = await startReceiver((_, i) => (i === 0 ? first : { status: 204 }));
    try {
      const company = randomUUID();
      const subscription = await insertSubscription(db, { endpointUrl: receiver.url, companies: [company] });
      await emitEvent(db, company);
      const [message] = await messagesOf(db, subscription.id);
      assert.ok(message);
      await worker.recorded(2, message.id);
      const [one, two] = receiver.requests;
      assert.ok(one && two);
      return { gap: two.at - one.at, attempts: await attemptsOf(message.id) };
    } finally {
      await receiver.close();
    }
  }

  it('gets its next attempt no sooner than a 503 asked, where the schedule would come sooner', async () => {
    const { gap, attempts } = await deliverAfter({ status: 503, headers: { 'retry-after': '1' } });
    assert.ok(gap >= 1000 - 2, `the retry came ${gap.toFixed(1)} ms after the 503`);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.statusCode, a.retryAfterMs]),
      [
        [1, 503, 1000],
        [2, 204, null],
      ],
    );
  });

  it("waits no longer than the schedule's longest wait, however long a 429 asks for", async () => {
    const { gap, attempts } = await deliverAfter({ status: 429, headers: { 'retry-after': '36000' } });
    assert.ok(gap >= 1500 - 2, `the retry came ${gap.toFixed(1)} ms after the 429`);
    assert.deepEqual(
      attempts.map((a) => a.retryAfterMs),
      [1500, null],
    );
  });

  it('keeps the schedule when a 500 carries Retry-After', async () => {
    const { attempts } = await deliverAfter({ status: 500, headers: { 'retry-after': '1' } });
    assert.deepEqual(
      attempts.map((a) => [a.statusCode, a.retryAfterMs]),
      [
        [500, null],
        [204, null],
      ],
    );
  });
});
