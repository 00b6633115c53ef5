// Two worker processes on one PostgreSQL database never make the same attempt twice
// (docs/decisions/webhook-delivery.md): they share the queue through FOR UPDATE SKIP LOCKED and
// leases. The primary key of message_attempts makes a duplicate impossible to *record*, so the
// receiver's side is what proves it: each webhook-id arrives exactly as many times as it has
// attempt rows, and the totals agree. Some first attempts are answered 503, so that retries are
// claimed again by either worker. PostgreSQL only (TEST_DATABASE_URL): PGlite admits one process.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import {
  createWorkerDatabase,
  insertSubscription,
  readDeliveryLog,
  recordEvents,
  type WorkerDatabase,
  waitUntilNothingPending,
} from '../support/delivery-fixtures.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { startWorker, WORKER_TEST_ENV, type WorkerProcess } from '../support/worker-process.ts';

const MESSAGES = 600;
const SUBSCRIPTIONS = 3;
const DEADLINE_MS = 40_000;

/** A fifth of the webhook-ids, chosen by hash: their first attempt is refused. */
const refusedFirst = (id: string) => (createHash('sha256').update(id).digest()[0] ?? 0) % 5 === 0;

describe('two worker processes on one PostgreSQL', {
  timeout: 60_000,
  skip: TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL: PGlite admits one process',
}, () => {
  let target: WorkerDatabase;
  let db: Database;
  let receiver: Receiver;
  const workers: WorkerProcess[] = [];
  let companyOfEvents: string;

  before(async () => {
    const seen = new Set<string>();
    receiver = await startReceiver({
      respond: (request) => {
        const first = !seen.has(request.id);
        seen.add(request.id);
        // Short waits keep both workers' attempts in flight at the same time.
        return { status: first && refusedFirst(request.id) ? 503 : 204, delayMs: Math.floor(Math.random() * 4) };
      },
    });
    target = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_workers');
    db = await target.open();
    const companyId = crypto.randomUUID();
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      await insertSubscription(db, { endpointUrl: `${receiver.url}subscription-${i}`, companyId });
    }
    companyOfEvents = companyId;
  });

  after(async () => {
    await Promise.all(workers.map((worker) => worker.kill()));
    await db?.close();
    await receiver?.close();
    await target?.drop();
  });

  it('each attempt is made once: receiver hits per webhook-id equal its attempt rows', async () => {
    const started = Date.now();
    // debug: every attempt is logged with its worker, message and number.
    const env = { ...WORKER_TEST_ENV, ...target.env, LOG_LEVEL: 'debug' };
    workers.push(startWorker(env), startWorker(env));
    // Both idle and listening before the events commit, so that both race for every batch.
    await Promise.all(workers.map((worker) => worker.waitForLog('delivery worker started')));
    await recordEvents(db, companyOfEvents, MESSAGES / SUBSCRIPTIONS, 10);
    await waitUntilNothingPending(db, workers, started + DEADLINE_MS);
    // Stopped before reading, so no attempt is still in flight while the log is compared.
    for (const worker of workers) assert.equal(await worker.stop(), 0, worker.stderr());

    const log = await readDeliveryLog(db);
    assert.equal(log.messages.length, MESSAGES);
    assert.deepEqual(
      log.messages.filter((m) => m.status !== 'delivered'),
      [],
      'every message is delivered',
    );

    const hits = Map.groupBy(receiver.requests, (r) => r.id);
    const rows = Map.groupBy(log.attempts, (a) => a.messageId);
    const mismatched = log.messages
      .map((m) => ({ id: m.id, hits: hits.get(m.id)?.length ?? 0, rows: rows.get(m.id)?.length ?? 0 }))
      .filter((m) => m.hits !== m.rows);
    assert.deepEqual(mismatched, [], 'no webhook-id was sent more often than it has attempt rows');
    assert.equal(receiver.requests.length, log.attempts.length, 'receiver hits == attempts recorded');
    assert.deepEqual(
      [...hits.keys()].filter((id) => !rows.has(id)),
      [],
      'every webhook-id received is a message with attempts',
    );

    // The refused first attempts were retried, and the recorded status codes are what was answered.
    for (const m of log.messages) {
      const attempts = rows.get(m.id) ?? [];
      const answered = (hits.get(m.id) ?? []).map((r) => r.status);
      const expected = refusedFirst(m.id) ? [503, 204] : [204];
      assert.deepEqual(answered, expected, `${m.id}: the receiver answered ${answered}`);
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.statusCode, a.succeeded]),
        expected.map((status, i) => [i + 1, status, status === 204]),
        `${m.id}: its attempt rows`,
      );
    }
    // Each worker's own log of its attempts: both took part, and no (message, attempt) is in both.
    const logged = workers.map((worker) =>
      worker.logs.filter((entry) => typeof entry.messageId === 'string' && typeof entry.attempt === 'number'),
    );
    const shares = logged.map((entries) => entries.length);
    assert.ok(
      shares.every((n) => n > 0),
      `both workers made attempts: ${shares}`,
    );
    const keys = logged.flat().map((entry) => `${entry.messageId}#${entry.attempt}`);
    assert.equal(new Set(keys).size, keys.length, 'no attempt was logged by both workers');
    assert.equal(keys.length, log.attempts.length, 'every attempt was logged by the worker that made it');
    const lost = workers.flatMap((worker) => worker.logs.filter((entry) => /lease lost/.test(String(entry.msg))));
    assert.deepEqual(lost, [], 'no worker lost a lease');
    const workerOf = new Map(logged.flatMap((entries, w) => entries.map((e) => [`${e.messageId}#${e.attempt}`, w])));
    const handedOver = log.messages.filter(
      (m) => m.attempts > 1 && workerOf.get(`${m.id}#1`) !== workerOf.get(`${m.id}#${m.attempts}`),
    ).length;
    const retried = log.messages.filter((m) => refusedFirst(m.id)).length;
    assert.ok(retried > 0);
    console.log(
      `${MESSAGES} messages, ${retried} retried once (${handedOver} by the other worker), attempts per worker ` +
        `${shares.join(' / ')}, ${receiver.requests.length} requests, ` +
        `${log.attempts.length} attempts recorded, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });

  it("keeps a subscription's rate between them, retries included", async () => {
    // 20 a second (docs/decisions/webhook-delivery.md, "A rate per endpoint"); any 21 requests in a
    // row span a second, less what a late timer takes off (the in-process test says why 200 ms).
    const rate = 20;
    const companyId = crypto.randomUUID();
    const rated = await insertSubscription(db, { endpointUrl: `${receiver.url}rated`, companyId });
    await db.query('UPDATE subscriptions SET rate_limit = $2 WHERE id = $1', [rated.id, rate]);
    // The backlog is there before the workers start, as when an endpoint comes back.
    await recordEvents(db, companyId, 60, 60);
    const started = Date.now();
    const env = { ...WORKER_TEST_ENV, ...target.env };
    const pair = [startWorker(env), startWorker(env)];
    workers.push(...pair);
    await waitUntilNothingPending(db, pair, started + DEADLINE_MS);
    for (const worker of pair) assert.equal(await worker.stop(), 0, worker.stderr());

    const requests = receiver.requests.filter((r) => r.url === '/rated');
    const log = await readDeliveryLog(db);
    const messages = log.messages.filter((m) => m.subscriptionId === rated.id);
    assert.equal(messages.length, 60);
    assert.deepEqual(
      messages.filter((m) => m.status !== 'delivered'),
      [],
    );
    // The refused first attempts' retries went through the same slots.
    assert.ok(requests.length > 60, `${requests.length} requests: some were retries`);
    const arrivals = requests.map((r) => r.receivedAt).sort((a, b) => a - b);
    for (let i = 0; i + rate < arrivals.length; i++) {
      const span = (arrivals[i + rate] ?? 0) - (arrivals[i] ?? 0);
      assert.ok(span >= 800, `requests ${i + 1} to ${i + rate + 1} came within ${span.toFixed(1)} ms`);
    }
  });
});
