// Delivery latency in /metrics (docs/decisions/webhook-delivery.md, "Metrics"): attempt durations and
// the wait from a message's creation to its first attempt, by outcome, from the process that ran the
// worker: the API's /metrics beside it, or METRICS_PORT's in a worker-only process.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase } from '../support/delivery-fixtures.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { startWorker, WORKER_TEST_ENV } from '../support/worker-process.ts';
import { emitEvent, insertSubscription, startReceiver, startTestWorker } from '../webhooks/delivery/fixtures.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** The value of the sample `name{labels}` in a Prometheus text answer; 0 when absent. */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('attempt histograms', () => {
  it('count each attempt by outcome, and each message once in the wait for its first', async () => {
    const metrics = async () => (await t.request('GET', '/metrics')).text;
    const before_ = await metrics();
    for (const outcome of ['delivered', 'rejected', 'no_response']) {
      assert.match(
        before_,
        new RegExp(`ledgerhook_webhook_attempt_duration_seconds_bucket\\{le="0.005",outcome="${outcome}"\\}`),
      );
      assert.match(
        before_,
        new RegExp(`ledgerhook_webhook_first_attempt_delay_seconds_count\\{outcome="${outcome}"\\}`),
      );
    }
    // One endpoint answers 204, one 500 (two attempts: the first and its retry), one is closed.
    const ok = await startReceiver();
    const failing = await startReceiver(() => ({ status: 500 }));
    const worker = await startTestWorker(t.db, { scheduleMs: [10] });
    try {
      const company = randomUUID();
      for (const url of [ok.url, failing.url, 'http://127.0.0.1:9/closed']) {
        await insertSubscription(t.db, { endpointUrl: url, companies: [company] });
      }
      await emitEvent(t.db, company);
      await worker.recorded(5);
    } finally {
      await worker.stop();
      await ok.close();
      await failing.close();
    }
    const after_ = await metrics();
    const added = (name: string, outcome: string) =>
      sample(after_, name, `outcome="${outcome}"`) - sample(before_, name, `outcome="${outcome}"`);
    const durations = 'ledgerhook_webhook_attempt_duration_seconds_count';
    const firsts = 'ledgerhook_webhook_first_attempt_delay_seconds_count';
    assert.deepEqual(
      [added(durations, 'delivered'), added(durations, 'rejected'), added(durations, 'no_response')],
      [1, 2, 2],
    );
    assert.deepEqual([added(firsts, 'delivered'), added(firsts, 'rejected'), added(firsts, 'no_response')], [1, 1, 1]);
    // The first attempt came after the message's creation: a positive wait.
    assert.ok(
      sample(after_, 'ledgerhook_webhook_first_attempt_delay_seconds_sum', 'outcome="delivered"') >
        sample(before_, 'ledgerhook_webhook_first_attempt_delay_seconds_sum', 'outcome="delivered"'),
    );
  });

  it('count a message whose first attempt went unrecorded once, at the attempt that was', async () => {
    const metrics = async () => (await t.request('GET', '/metrics')).text;
    const firsts = 'ledgerhook_webhook_first_attempt_delay_seconds_count';
    const durations = 'ledgerhook_webhook_attempt_duration_seconds_count';
    const before_ = await metrics();
    // Slow enough to answer after the test has taken the first attempt's lease away.
    const slow = await startReceiver(() => ({ status: 204, delayMs: 400 }));
    const worker = await startTestWorker(t.db);
    try {
      const company = randomUUID();
      await insertSubscription(t.db, { endpointUrl: slow.url, companies: [company] });
      await emitEvent(t.db, company);
      const first = await slow.nth(1);
      await t.db.query(`UPDATE messages SET leased_by = 'another-worker' WHERE id = $1`, [first.headers['webhook-id']]);
      const [lost] = await worker.recorded(1);
      assert.equal(lost?.recorded, undefined, 'the first attempt lost its lease');
      // Given back, as when the other worker's lease runs out: the worker's poll claims it again.
      await t.db.query('UPDATE messages SET leased_by = NULL, leased_until = NULL WHERE id = $1', [
        first.headers['webhook-id'],
      ]);
      const [, again] = await worker.recorded(2);
      assert.equal(again?.recorded?.attempt, 1);
    } finally {
      await worker.stop();
      await slow.close();
    }
    const after_ = await metrics();
    const added = (name: string) =>
      sample(after_, name, 'outcome="delivered"') - sample(before_, name, 'outcome="delivered"');
    assert.deepEqual([added(durations), added(firsts)], [2, 1]);
  });

  it('a worker-only process serves them on METRICS_PORT, and nothing else there', async () => {
    // A database of the suite's kind: PostgreSQL in its pass, a migrated DATA_DIR in the PGlite pass.
    const database = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_worker_metrics');
    const worker = startWorker({ ...WORKER_TEST_ENV, ...database.env, METRICS_PORT: '0', LOG_LEVEL: 'info' });
    try {
      await worker.waitForLog('worker metrics served at /metrics');
      const port = worker.logs.find((entry) => entry.msg === 'worker metrics served at /metrics')?.port;
      assert.equal(typeof port, 'number');
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await answer.text();
      assert.match(text, /ledgerhook_webhook_attempt_duration_seconds_count\{outcome="delivered"\} 0/);
      assert.match(text, /ledgerhook_webhook_first_attempt_delay_seconds_bucket/);
      assert.match(text, /process_cpu_user_seconds_total/);
      const other = await fetch(`http://127.0.0.1:${port}/v1/subscriptions`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(other.status, 404);
      await other.body?.cancel();
    } finally {
      try {
        assert.equal(await worker.stop(), 0, worker.stderr());
      } finally {
        await database.drop();
      }
    }
  });
});
