// Delivery rules (docs/decisions/webhook-delivery.md) with a shortened schedule: retries at their
// offsets with the same webhook-id and fresh timestamps, eight attempts then failed, 3xx and
// timeouts are failures and redirects are never followed, and a hanging endpoint does not hold up
// another.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Database } from '../../../src/db/database.ts';
import { generateSecret } from '../../../src/webhooks/signature.ts';
import { openTestDatabase } from '../../support/database.ts';
import {
  EVENT_TYPE,
  emitEvent,
  insertSubscription,
  messagesOf,
  startReceiver,
  startTestWorker,
  type TestWorker,
} from './fixtures.ts';

// Waits after the 1st … 7th failure. Distinct values, so each gap shows which one was used.
const SCHEDULE = [40, 80, 120, 40, 40, 40, 40];
const TIMEOUT_MS = 300;
// Longer than the test: an answer this slow never comes while the test runs.
const NEVER_MS = 120_000;

let db: Database;
let worker: TestWorker;

before(async () => {
  db = await openTestDatabase();
  // Without a poll, a retry that comes at all came from its timer: how late it may come on a slow
  // machine needs no bound (a missed timer fails the test by its deadline).
  worker = await startTestWorker(db, { scheduleMs: SCHEDULE, timeoutMs: TIMEOUT_MS, retryByTimerOnly: true });
});
after(async () => {
  await worker.stop();
  await db.close();
});

const attemptsOf = (messageId: string) =>
  db.query<{
    attempt: number;
    statusCode: number | null;
    error: string | null;
    succeeded: boolean;
    responseBody: string | null;
  }>(
    `SELECT attempt, status_code AS "statusCode", error, succeeded, response_body AS "responseBody"
     FROM message_attempts WHERE message_id = $1 ORDER BY attempt`,
    [messageId],
  );

describe('delivery', { timeout: 30_000 }, () => {
  it('retries a receiver that fails 3 times at the scheduled offsets, same webhook-id, fresh timestamps', async () => {
    const receiver = await startReceiver((_, i) =>
      i < 3 ? { status: 500, body: `failure ${i + 1}` } : { status: 200 },
    );
    const company = randomUUID();
    const subscription = await insertSubscription(db, { endpointUrl: receiver.url, companies: [company] });
    const emittedAt = Date.now();
    await emitEvent(db, company);
    const [message] = await messagesOf(db, subscription.id);
    assert.ok(message);
    const reports = await worker.recorded(4, message.id);
    assert.equal(receiver.requests.length, 4);
    assert.deepEqual(
      reports.map((r) => r.recorded?.status),
      ['pending', 'pending', 'pending', 'delivered'],
    );
    const requests = receiver.requests;
    for (const [i, request] of requests.entries()) {
      assert.equal(request.headers['webhook-id'], message.id);
      assert.equal(request.body, requests[0]?.body);
      assert.ok(
        new StandardWebhook(subscription.secrets[0] as string).verify(request.body, {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        }),
      );
      // Signed when sent, after the previous attempt arrived: a retry hours later still passes the
      // receivers' 5-minute tolerance.
      const signedAt = Number(request.headers['webhook-timestamp']);
      const notBefore = Math.floor((i === 0 ? emittedAt : (requests[i - 1]?.wallClock ?? 0)) / 1000);
      assert.ok(signedAt >= notBefore && signedAt <= request.wallClock / 1000, `timestamp ${signedAt}`);
      if (i === 0) continue;
      // Never before its wait. Not bounded above: the worker has no poll (see before()).
      const gap = request.at - (requests[i - 1]?.at ?? 0);
      const wait = SCHEDULE[i - 1] as number;
      assert.ok(gap >= wait - 2, `attempt ${i + 1} came ${gap.toFixed(1)} ms after the last, wait ${wait}`);
    }
    assert.deepEqual(
      (await attemptsOf(message.id)).map((a) => [a.attempt, a.statusCode, a.succeeded, a.responseBody]),
      [
        [1, 500, false, 'failure 1'],
        [2, 500, false, 'failure 2'],
        [3, 500, false, 'failure 3'],
        [4, 200, true, ''],
      ],
    );
    const [stored] = await messagesOf(db, subscription.id);
    assert.deepEqual({ status: stored?.status, attempts: stored?.attempts }, { status: 'delivered', attempts: 4 });
    await receiver.close();
  });

  it('gives up after exactly 8 attempts (1 + 7 waits): the message is failed', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    const company = randomUUID();
    const subscription = await insertSubscription(db, { endpointUrl: receiver.url, companies: [company] });
    await emitEvent(db, company);
    const [message] = await messagesOf(db, subscription.id);
    assert.ok(message);
    const reports = await worker.recorded(8, message.id);
    assert.equal(reports.at(-1)?.recorded?.status, 'failed');
    assert.deepEqual(
      reports.map((r) => r.recorded?.attempt),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    const [stored] = await messagesOf(db, subscription.id);
    assert.deepEqual({ status: stored?.status, attempts: stored?.attempts }, { status: 'failed', attempts: 8 });
    // Nothing more comes: a later fresh message of the same subscription is delivered around it.
    const before = receiver.requests.length;
    assert.equal(before, 8);
    await receiver.close();
  });

  it('treats 301, 302 and 307 as failures and never calls the redirect target', async () => {
    const target = await startReceiver();
    for (const status of [301, 302, 307]) {
      const receiver = await startReceiver(() => ({ status, headers: { location: target.url } }));
      const company = randomUUID();
      const subscription = await insertSubscription(db, { endpointUrl: receiver.url, companies: [company] });
      await emitEvent(db, company);
      const [message] = await messagesOf(db, subscription.id);
      assert.ok(message);
      const [report] = await worker.recorded(1, message.id);
      assert.deepEqual(
        {
          succeeded: report?.outcome.succeeded,
          statusCode: report?.outcome.statusCode,
          status: report?.recorded?.status,
        },
        { succeeded: false, statusCode: status, status: 'pending' },
      );
      await receiver.close();
    }
    assert.equal(target.requests.length, 0);
    await target.close();
  });

  it('fails an attempt whose answer comes later than WEBHOOK_TIMEOUT_MS, and keeps 4 KiB of a long body', async () => {
    // The first answer never comes while the test runs: only the timeout can end that attempt.
    const slow = await startReceiver((_, i) =>
      i === 0 ? { status: 200, delayMs: NEVER_MS } : { status: 400, body: 'x'.repeat(10_000) },
    );
    const company = randomUUID();
    const subscription = await insertSubscription(db, { endpointUrl: slow.url, companies: [company] });
    await emitEvent(db, company);
    const [message] = await messagesOf(db, subscription.id);
    assert.ok(message);
    const [first, second] = await worker.recorded(2, message.id);
    assert.equal(first?.outcome.succeeded, false);
    assert.equal(first?.outcome.statusCode, null);
    assert.match(String(first?.outcome.error), /timed out after 300 ms/);
    assert.ok((first?.outcome.durationMs ?? 0) >= TIMEOUT_MS - 5, `the attempt took ${first?.outcome.durationMs} ms`);
    assert.equal(second?.outcome.statusCode, 400);
    const stored = await attemptsOf(message.id);
    assert.equal(stored[1]?.responseBody, 'x'.repeat(4096));
    await slow.close();
  });

  it('records a refused connection as an error', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const company = randomUUID();
    const subscription = await insertSubscription(db, { endpointUrl: url, companies: [company] });
    await emitEvent(db, company);
    const [message] = await messagesOf(db, subscription.id);
    assert.ok(message);
    const [report] = await worker.recorded(1, message.id);
    assert.equal(report?.outcome.error, 'connection refused');
    assert.equal(report?.outcome.statusCode, null);
  });
});

// Its own database and worker, whose timeout outlasts the test: an attempt to the hanging endpoint
// ends only when the test closes it, so what the healthy endpoint got meanwhile shows the order of
// events, whatever the machine's speed.
describe('a hanging endpoint', { timeout: 30_000 }, () => {
  let ownDb: Database;
  let ownWorker: TestWorker;
  before(async () => {
    ownDb = await openTestDatabase();
    ownWorker = await startTestWorker(ownDb, { timeoutMs: NEVER_MS });
  });
  after(async () => {
    await ownWorker.stop();
    await ownDb.close();
  });

  it('does not delay another endpoint, and holds no more than its 8 slots', async () => {
    const hanging = await startReceiver(() => ({ status: 200, delayMs: NEVER_MS }));
    const healthy = await startReceiver();
    try {
      const [slowCompany, fastCompany] = [randomUUID(), randomUUID()];
      await insertSubscription(ownDb, { endpointUrl: hanging.url, companies: [slowCompany] });
      await insertSubscription(ownDb, { endpointUrl: healthy.url, companies: [fastCompany] });
      // More hanging messages than the per-endpoint cap (8), all committed before the healthy one.
      for (let i = 0; i < 20; i++) await emitEvent(ownDb, slowCompany);
      await hanging.nth(8);
      await emitEvent(ownDb, fastCompany);
      await healthy.nth(1);
      // The healthy message went out while all eight hanging attempts were still open, and the
      // cap held: no ninth attempt to the hanging endpoint.
      assert.equal(hanging.requests.length, 8);
      assert.equal(hanging.maxOpen(), 8);
    } finally {
      await hanging.close();
      await healthy.close();
    }
  });
});

// One tenant's many hanging endpoints, as an attacker with one client's credentials for one company
// could make them: each subscription is under its own cap of 8, and only the tenant's cap keeps
// slots for others.
describe("a tenant's 200 hanging endpoints", { timeout: 60_000 }, () => {
  let ownDb: Database;
  let ownWorker: TestWorker;
  before(async () => {
    ownDb = await openTestDatabase();
    ownWorker = await startTestWorker(ownDb, { timeoutMs: NEVER_MS });
  });
  after(async () => {
    await ownWorker.stop();
    await ownDb.close();
  });

  it("do not delay another tenant's endpoint, and hold no more than the tenant's 16 slots", async () => {
    const hanging = await startReceiver(() => ({ status: 200, delayMs: NEVER_MS }));
    const healthy = await startReceiver();
    try {
      const [slowCompany, fastCompany] = [randomUUID(), randomUUID()];
      const owner = `client-${randomUUID()}`;
      await ownDb.query(
        `WITH created AS (
           INSERT INTO subscriptions (owner, companies, status, event_types, endpoint_url)
           SELECT $1, $2::uuid[], 'ACTIVE', $3::text[], $4 || '/' || n FROM generate_series(1, 200) AS n
           RETURNING id
         )
         INSERT INTO subscription_secrets (subscription_id, secret) SELECT id, $5 FROM created`,
        [owner, [slowCompany], [EVENT_TYPE], hanging.url, generateSecret()],
      );
      await insertSubscription(ownDb, { endpointUrl: healthy.url, companies: [fastCompany] });
      // One event: 200 messages of one tenant, one per subscription, all committed before the healthy one.
      await emitEvent(ownDb, slowCompany);
      await hanging.nth(16);
      await emitEvent(ownDb, fastCompany);
      await healthy.nth(1);
      // The healthy message went out while the tenant's sixteen attempts were still open, and the
      // tenant's cap held: no seventeenth attempt, though 184 of its subscriptions have a free slot.
      assert.equal(hanging.requests.length, 16);
      assert.equal(hanging.maxOpen(), 16);
    } finally {
      await hanging.close();
      await healthy.close();
    }
  });
});
