// Crash safety (docs/decisions/webhook-delivery.md): a worker process killed with SIGKILL at random
// moments while it delivers 1,000 messages, and restarted, ends with every message delivered at
// least once, every duplicate carrying the same webhook-id and body, and nothing left pending.
//
// Runs on PostgreSQL (TEST_DATABASE_URL: a database of its own, dropped afterwards) and on PGlite (a
// temporary DATA_DIR, which one process opens at a time: the test writes the events, closes it, runs
// the worker children, stops the last one and only then opens it again to read the outcome).
// CRASH_SEED=<n> replays a schedule of kills; the seed is printed with every run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import type { Database } from '../../src/db/database.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import {
  createWorkerDatabase,
  type InsertedSubscription,
  insertSubscription,
  readDeliveryLog,
  recordEvents,
  seededRandom,
  type WorkerDatabase,
  waitUntilNothingPending,
} from '../support/delivery-fixtures.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { startWorker, WORKER_TEST_ENV, type WorkerProcess } from '../support/worker-process.ts';

const MESSAGES = 1000;
const KILLS = 5;
// A killed worker's messages wait for its lease (WEBHOOK_TIMEOUT_MS + 30 s) before another takes them.
const DEADLINE_MS = 55_000;
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const random = seededRandom(seed);
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

describe(`a worker killed with SIGKILL at random moments (seed ${seed})`, { timeout: 90_000 }, () => {
  const companyId = crypto.randomUUID();
  let target: WorkerDatabase;
  let receiver: Receiver;
  let subscription: InsertedSubscription;
  let eventIds: string[];
  let worker: WorkerProcess | undefined;
  let db: Database | undefined;
  const kills: string[] = [];

  before(async () => {
    // A short random delay before each answer keeps attempts in flight when the kill lands.
    receiver = await startReceiver({ respond: () => ({ status: 204, delayMs: Math.floor(Math.random() * 5) }) });
    target = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_crash');
    db = await target.open();
    subscription = await insertSubscription(db, { endpointUrl: receiver.url, companyId });
    eventIds = await recordEvents(db, companyId, MESSAGES);
    const [fannedOut] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages');
    assert.equal(fannedOut?.n, MESSAGES, 'recordEvent writes one message per matching subscription');
    // PGlite: the folder is the workers' from now on.
    if (target.kind === 'pglite') {
      await db.close();
      db = undefined;
    }
  });

  after(async () => {
    await worker?.kill();
    await db?.close();
    await receiver?.close();
    await target?.drop();
  });

  it('delivers every message at least once, duplicates with the same webhook-id and body, none pending', async () => {
    const env = { ...WORKER_TEST_ENV, ...target.env };
    const started = Date.now();
    for (let kill = 1; kill <= KILLS; kill++) {
      worker = startWorker(env);
      const before = receiver.requests.length;
      // Half the kills land after a random number of further deliveries (mid-stream), half at a
      // random time since the start (which may be during start-up, migrations or the first claim).
      if (random() < 0.5) {
        const more = between(20, 120);
        await waitForRequestsOrExit(receiver, worker, Math.min(before + more, MESSAGES), 20_000);
        await sleep(between(0, 3));
        kills.push(`after ${receiver.requests.length - before} requests`);
      } else {
        const ms = between(50, 1500);
        await sleep(ms);
        kills.push(`at ${ms} ms`);
      }
      await worker.kill();
      assert.equal(worker.child.signalCode, 'SIGKILL', `worker ${kill} ended before the kill:\n${worker.stderr()}`);
    }

    if (target.kind === 'postgres' && db) {
      worker = startWorker(env);
      await waitUntilNothingPending(db, [worker], started + DEADLINE_MS);
    } else {
      worker = undefined;
      db = await finishOnPglite(target, receiver, env, started + DEADLINE_MS);
    }

    const log = await readDeliveryLog(db);
    const byId = Map.groupBy(receiver.requests, (request) => request.id);
    const messageIds = new Set(log.messages.map((m) => m.id));
    const notDelivered = log.messages.filter((m) => m.status !== 'delivered');
    assert.equal(log.messages.length, MESSAGES);
    assert.deepEqual(notDelivered, [], 'every message is delivered, none pending or failed');
    assert.deepEqual(
      [...byId.keys()].filter((id) => !messageIds.has(id)),
      [],
      'every webhook-id received is a message',
    );
    assert.deepEqual(
      log.messages.filter((m) => !byId.has(m.id)).map((m) => m.id),
      [],
      'every message reached the receiver',
    );
    assert.deepEqual(new Set(log.messages.map((m) => m.eventId)), new Set(eventIds), 'one message per event');

    // Duplicates: the same webhook-id always carries the same body, and one event's body always
    // arrives under the same webhook-id.
    for (const [id, requests] of byId) {
      assert.equal(new Set(requests.map((r) => r.body)).size, 1, `${id} was sent with different bodies`);
    }
    const idsByEvent = Map.groupBy(receiver.requests, (r) => JSON.parse(r.body).payload.eventId as string);
    for (const [eventId, requests] of idsByEvent) {
      assert.equal(new Set(requests.map((r) => r.id)).size, 1, `event ${eventId} was sent under several webhook-ids`);
    }
    const message = log.messages.find((m) => m.id === receiver.requests[0]?.id);
    const body = JSON.parse(receiver.requests[0]?.body ?? '{}');
    assert.deepEqual(Object.keys(body), ['payload']);
    assert.deepEqual(Object.keys(body.payload), ['data', 'eventId', 'eventType', 'sequence']);
    assert.equal(body.payload.eventId, message?.eventId);

    // Every message has exactly one succeeded attempt, numbered last; each retry was recorded.
    const attemptsById = Map.groupBy(log.attempts, (a) => a.messageId);
    for (const m of log.messages) {
      const attempts = attemptsById.get(m.id) ?? [];
      assert.deepEqual(
        attempts.map((a) => a.attempt),
        attempts.map((_, i) => i + 1),
        `${m.id}: attempts are numbered 1..n`,
      );
      assert.equal(attempts.filter((a) => a.succeeded).length, 1, `${m.id}: one succeeded attempt`);
      assert.equal(attempts.at(-1)?.succeeded, true, `${m.id}: the last attempt is the successful one`);
      assert.equal(m.attempts, attempts.length, `${m.id}: messages.attempts counts its attempts`);
      assert.ok((byId.get(m.id)?.length ?? 0) >= attempts.length, `${m.id}: every recorded attempt was sent`);
    }

    // Signatures: every duplicate and a sample of the rest verify with the standardwebhooks library.
    const verifier = new Webhook(subscription.secret);
    const duplicates = [...byId.values()].filter((requests) => requests.length > 1).flat();
    const sample = receiver.requests.filter((_, i) => i % 37 === 0);
    for (const request of [...duplicates, ...sample]) {
      assert.doesNotThrow(
        () =>
          verifier.verify(request.body, {
            'webhook-id': request.id,
            'webhook-timestamp': request.timestamp,
            'webhook-signature': request.signature,
          }),
        `${request.id} verifies`,
      );
    }

    const resent = receiver.requests.length - byId.size;
    console.log(
      `seed ${seed}: ${KILLS} kills (${kills.join(', ')}); ${receiver.requests.length} requests for ` +
        `${MESSAGES} messages (${resent} sent again after a kill); ${log.attempts.length} attempts recorded; ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});

async function waitForRequestsOrExit(receiver: Receiver, worker: WorkerProcess, n: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (receiver.requests.length < n && Date.now() < deadline) {
    if (worker.child.exitCode !== null) throw new Error(`the worker exited:\n${worker.stderr()}`);
    await sleep(2);
  }
}

/**
 * PGlite cannot be read while a worker holds the folder: run the worker until every message reached
 * the receiver, stop it (it records the attempts in flight), and read. Messages a killed worker sent
 * without recording the outcome stay leased (and pending) until the lease runs out: then run the
 * worker again until each of them has arrived once more, and read again. Bounded by rounds and time.
 */
async function finishOnPglite(
  target: WorkerDatabase,
  receiver: Receiver,
  env: Record<string, string>,
  deadline: number,
): Promise<Database> {
  let expected = MESSAGES;
  for (let round = 1; ; round++) {
    // At info level it says when it has started: the killed workers may have delivered everything
    // already, and a SIGTERM before Node has loaded the service would end it uncleanly.
    const worker = startWorker({ ...env, LOG_LEVEL: 'info' });
    try {
      await worker.waitForLog('ledgerhook started');
      if (round === 1) await waitForDistinctIds(receiver, worker, MESSAGES, deadline);
      else await receiver.waitFor(expected, Math.max(0, deadline - Date.now()));
    } finally {
      assert.equal(await worker.stop(), 0, `the worker did not stop cleanly:\n${worker.stderr()}`);
    }
    const db = await target.open();
    const [row] = await db.query<{ pending: number }>(
      "SELECT count(*)::int AS pending FROM messages WHERE status = 'pending'",
    );
    if (!row?.pending || round === 3 || Date.now() > deadline) return db;
    await db.close();
    expected = receiver.requests.length + row.pending;
  }
}

async function waitForDistinctIds(receiver: Receiver, worker: WorkerProcess, n: number, deadline: number) {
  const seen = new Set<string>();
  let read = 0;
  for (let polls = 0; Date.now() < deadline && polls < 100_000; polls++) {
    if (worker.child.exitCode !== null) throw new Error(`the worker exited:\n${worker.stderr()}`);
    for (; read < receiver.requests.length; read++) seen.add(receiver.requests[read]?.id ?? '');
    if (seen.size >= n) return;
    await sleep(20);
  }
  throw new Error(`${seen.size} of ${n} messages reached the receiver by the deadline\n${worker.stderr()}`);
}
