// A subscription's rate limit (docs/decisions/webhook-delivery.md, "A rate per endpoint"): two
// workers on one database drain a backlog to one receiver at the rate, never faster, while another
// subscription's messages go at once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, afterEach, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Database } from '../../../src/db/database.ts';
import { startDeliveryWorker } from '../../../src/webhooks/delivery-worker.ts';
import { sweepRetentionBatch } from '../../../src/webhooks/retention-sweeper.ts';
import { startTestApp, type TestApp } from '../../support/harness.ts';
import {
  emitEvent,
  insertSubscription,
  messagesOf,
  startReceiver,
  startTestWorker,
  type TestReceiver,
  type TestWorker,
} from './fixtures.ts';

const RATE = 20;
const BACKLOG = 60;
// What a receiver may see beyond the rate: the requests are given slots 1/RATE apart, and one sent
// late (its worker's timer fired late, or its claim's answer came late: here two workers, the API
// and the test share one process on a busy machine) comes closer to the next. The rule checked: any
// RATE + 1 requests in a row span at least a second less LATENESS_MS and the latest this process's
// timers fired; without the rate the backlog's 60 come within a few milliseconds, and at twice the
// rate RATE + 1 of them within half a second.
const LATENESS_MS = 200;
const MOST_LATENESS_MS = 450;

let t: TestApp;
// The workers and receivers of the test running: closed when it ends, passed or failed, so that a
// failed test's workers take no message of the next.
const started: { close(): Promise<void> }[] = [];
before(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  for (const closing of started.splice(0).reverse()) await closing.close();
});
after(async () => {
  await t.close();
});

async function receiver(): Promise<TestReceiver> {
  const started_ = await startReceiver();
  started.push(started_);
  return started_;
}

async function worker(): Promise<TestWorker> {
  const started_ = await startTestWorker(t.db);
  started.push({ close: () => started_.stop() });
  return started_;
}

/**
 * A subscription of two a second to `endpoint` with two messages, and a worker: one claim takes
 * both, the second sent half a second after the first.
 */
async function secondWaiting(endpoint: TestReceiver) {
  const company = randomUUID();
  const subscription = await insertSubscription(t.db, { endpointUrl: endpoint.url, companies: [company] });
  await t.db.query('UPDATE subscriptions SET rate_limit = 2 WHERE id = $1', [subscription.id]);
  await emitEvent(t.db, company);
  await emitEvent(t.db, company);
  return { subscription, company, w: await worker() };
}

describe('a rate per endpoint', () => {
  it('two workers drain a backlog at the rate, never faster, and another endpoint waits for none of it', async () => {
    const rated = await receiver();
    const other = await receiver();
    const company = randomUUID();
    const slow = await insertSubscription(t.db, { endpointUrl: rated.url, companies: [company] });
    await t.db.query('UPDATE subscriptions SET rate_limit = $2 WHERE id = $1', [slow.id, RATE]);
    // The backlog is there before any worker runs, as when an endpoint comes back.
    for (let i = 0; i < BACKLOG; i++) await emitEvent(t.db, company);

    const timers = monitorEventLoopDelay({ resolution: 10 });
    timers.enable();
    const first = await worker();
    const second = await worker();
    // Another tenant's endpoint without a rate, subscribed once the drain has begun.
    await rated.nth(2);
    const otherCompany = randomUUID();
    await insertSubscription(t.db, { endpointUrl: other.url, companies: [otherCompany] });
    for (let i = 0; i < 5; i++) await emitEvent(t.db, otherCompany);
    await other.nth(5);
    // Before the rated backlog has drained (its 60 take 3 s at the rate; were the other endpoint's
    // messages queued behind them, they would come after all 60).
    assert.ok(
      rated.requests.length < BACKLOG,
      `the other endpoint got its 5 while the rated one had ${rated.requests.length} of ${BACKLOG}`,
    );

    await rated.nth(BACKLOG);
    timers.disable();
    const lateness = Math.min(LATENESS_MS + timers.max / 1e6, MOST_LATENESS_MS);
    const ids = new Set(rated.requests.map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, BACKLOG, 'every message of the backlog, each once');
    const arrivals = rated.requests.map((r) => r.at).sort((a, b) => a - b);
    for (let i = 0; i + RATE < arrivals.length; i++) {
      const span = (arrivals[i + RATE] ?? 0) - (arrivals[i] ?? 0);
      assert.ok(
        span >= 1000 - lateness,
        `requests ${i + 1} to ${i + RATE + 1} came within ${span.toFixed(1)} ms (timers up to ${lateness.toFixed(0)} ms late)`,
      );
    }
    // A stop waits for the attempts in flight to be recorded.
    await first.stop();
    await second.stop();
    // Both workers sent some: the rate held across them, not by one doing all the work.
    const sentBy = (w: TestWorker) => w.attempts.filter((a) => a.subscriptionId === slow.id).length;
    assert.ok(sentBy(first) > 0 && sentBy(second) > 0, `sent ${sentBy(first)} and ${sentBy(second)}`);
    // Waiting for a slot is no attempt: each message was delivered by its first.
    const messages = await messagesOf(t.db, slow.id);
    assert.deepEqual(
      messages.map((m) => [m.status, m.attempts]),
      messages.map(() => ['delivered', 1]),
    );
  });

  it('a message whose subscription stopped it while it waited for its slot is not sent', async () => {
    const rated = await receiver();
    const { subscription, company, w } = await secondWaiting(rated);

    const first = await rated.nth(1);
    const [waiting] = (await messagesOf(t.db, subscription.id)).filter((m) => m.id !== first.headers['webhook-id']);
    assert.ok(waiting);
    // As disabling the subscription does to its pending messages.
    await t.db.query(`UPDATE messages SET status = 'failed' WHERE id = $1`, [waiting.id]);
    // A later message's slot comes after the waiting one's: once it has arrived, the waiting one's
    // turn has passed.
    await emitEvent(t.db, company);
    const last = await rated.nth(2);

    assert.notEqual(last.headers['webhook-id'], waiting.id);
    assert.equal(rated.requests.filter((r) => r.headers['webhook-id'] === waiting.id).length, 0);
    await w.stop();
    assert.deepEqual(
      (await messagesOf(t.db, subscription.id)).find((m) => m.id === waiting.id),
      { ...waiting, status: 'failed' },
    );
  });

  it('a message whose subscription changed while it waited for its slot goes where the subscription says now', async () => {
    const before_ = await receiver();
    const now_ = await receiver();
    const { subscription, w } = await secondWaiting(before_);

    const first = await before_.nth(1);
    // As a PUT of a new endpoint URL does, while the second message waits for its slot.
    await t.db.query('UPDATE subscriptions SET endpoint_url = $2, updated_at = now() WHERE id = $1', [
      subscription.id,
      now_.url,
    ]);
    const second = await now_.nth(1);
    await w.stop();

    assert.notEqual(second.headers['webhook-id'], first.headers['webhook-id']);
    assert.equal(before_.requests.length, 1, 'nothing more to the endpoint it had');
    assert.deepEqual(
      (await messagesOf(t.db, subscription.id)).map((m) => [m.status, m.attempts]),
      [
        ['delivered', 1],
        ['delivered', 1],
      ],
    );
  });

  it('a message whose check after its wait fails is sent later, and its worker keeps its slots', async () => {
    const rated = await receiver();
    const company = randomUUID();
    const subscription = await insertSubscription(t.db, { endpointUrl: rated.url, companies: [company] });
    // One a second, and the next free slot a second away: every message waits for its slot, however
    // long an attempt takes.
    await t.db.query('UPDATE subscriptions SET rate_limit = 1 WHERE id = $1', [subscription.id]);
    await t.db.query(
      `INSERT INTO subscription_rate_slots (subscription_id, next_slot_at) VALUES ($1, now() + interval '1 second')`,
      [subscription.id],
    );
    for (let i = 0; i < 3; i++) await emitEvent(t.db, company);
    // The database goes away for the first check of a message that waited for its slot.
    let failed = false;
    const flaky: Database = {
      ...t.db,
      query: (sql, params, options) => {
        if (!failed && sql.includes('AS unchanged')) {
          failed = true;
          return Promise.reject(new Error('connection terminated'));
        }
        return t.db.query(sql, params, options);
      },
    };
    // One attempt at a time: a slot the failed check kept would stop this worker for good.
    const w = await startDeliveryWorker({
      db: flaky,
      logger: pino({ level: 'silent' }),
      config: {
        webhookRetrySchedule: [20],
        webhookTimeoutMs: 2000,
        webhookLeaseMarginMs: 30_000,
        webhookAllowPrivateTargets: true,
      },
      concurrency: 1,
      pollIntervalMs: 50,
    });
    started.push({ close: () => w.stop() });

    await rated.nth(3);
    assert.ok(failed, 'a message waited for its slot');
    await w.stop();
    const ids = new Set(rated.requests.map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, 3, 'each of the three messages');
    assert.deepEqual(
      (await messagesOf(t.db, subscription.id)).map((m) => m.status),
      ['delivered', 'delivered', 'delivered'],
    );
  });

  it('the retention sweep deletes the slots of subscriptions that no longer have a rate, past their last slot', async () => {
    const slotsOf = async (ids: string[]) =>
      (
        await t.db.query<{ id: string }>(
          'SELECT subscription_id AS id FROM subscription_rate_slots WHERE subscription_id = ANY($1::uuid[])',
          [ids],
        )
      ).map((row) => row.id);
    const [deleted, later] = [randomUUID(), randomUUID()];
    const rated = await insertSubscription(t.db, { endpointUrl: 'https://example.com/rated' });
    const plain = await insertSubscription(t.db, { endpointUrl: 'https://example.com/plain' });
    await t.db.query('UPDATE subscriptions SET rate_limit = 5 WHERE id = $1', [rated.id]);
    await t.db.query(
      `INSERT INTO subscription_rate_slots (subscription_id, next_slot_at)
       VALUES ($1, now() - interval '1 second'), ($2, now() - interval '1 second'), ($3, now() - interval '1 second'),
              ($4, now() + interval '1 hour')`,
      [rated.id, plain.id, deleted, later],
    );
    await sweepRetentionBatch(t.db, 86_400_000, 500);
    // The rated one stays; the one whose last slot is ahead stays until it has passed.
    assert.deepEqual((await slotsOf([rated.id, plain.id, deleted, later])).sort(), [rated.id, later].sort());
  });
});
