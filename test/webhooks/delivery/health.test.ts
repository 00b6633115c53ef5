// A subscription's delivery health (docs/decisions/webhook-delivery.md, "Endpoint health"): kept by
// the statement that records attempts, read by GET /v1/subscriptions/{id}/health.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../support/harness.ts';
import { emitEvent, insertSubscription, startReceiver, startTestWorker, type TestWorker } from './fixtures.ts';

let t: TestApp;
let worker: TestWorker;
before(async () => {
  t = await startTestApp();
  // Two attempts per message: the first, and one retry 20 ms later.
  worker = await startTestWorker(t.db, { scheduleMs: [20] });
});
after(async () => {
  await worker.stop();
  await t.close();
});

async function subscribedTo(url: string) {
  const company = randomUUID();
  const clientId = randomUUID();
  const token = await t.token({ companies: [company], clientId });
  const { id } = await insertSubscription(t.db, { endpointUrl: url, companies: [company], owner: clientId });
  const health = async () => {
    const answer = await t.request('GET', `/v1/subscriptions/${id}/health`, { token });
    assert.equal(answer.status, 200);
    return answer.body.data;
  };
  return { company, token, id, health };
}

describe('GET /v1/subscriptions/{id}/health', () => {
  it('is empty before the first attempt', async () => {
    const { id, health } = await subscribedTo('http://127.0.0.1:9/never');
    assert.deepEqual(await health(), {
      subscriptionId: id,
      lastAttemptAt: null,
      lastDeliveredAt: null,
      lastFailure: null,
      consecutiveFailures: 0,
      failingSince: null,
      last24Hours: { delivered: 0, failedAttempts: 0, failed: 0 },
      rateLimitPerSecond: null,
    });
  });

  it('counts failures in a row, the last failure and its reason, and resets on a delivery', async () => {
    let failing = true;
    const receiver = await startReceiver(() =>
      failing ? { status: 503, body: 'down for maintenance' } : { status: 204 },
    );
    try {
      const { company, health } = await subscribedTo(receiver.url);
      const before_ = worker.attempts.length;
      await emitEvent(t.db, company);
      await emitEvent(t.db, company);
      // Two messages, two attempts each, all failed: both messages end failed.
      await worker.recorded(before_ + 4);
      const failed = await health();
      assert.equal(failed.consecutiveFailures, 4);
      assert.equal(failed.lastFailure.statusCode, 503);
      assert.equal(failed.lastFailure.error, null);
      assert.equal(failed.lastDeliveredAt, null);
      assert.ok(failed.failingSince <= failed.lastFailure.at);
      assert.equal(failed.lastAttemptAt, failed.lastFailure.at);
      assert.deepEqual(failed.last24Hours, { delivered: 0, failedAttempts: 4, failed: 2 });

      failing = false;
      await emitEvent(t.db, company);
      await worker.recorded(before_ + 5);
      const healthy = await health();
      assert.equal(healthy.consecutiveFailures, 0);
      assert.equal(healthy.failingSince, null);
      assert.equal(healthy.lastDeliveredAt, healthy.lastAttemptAt);
      assert.deepEqual(healthy.lastFailure, failed.lastFailure, 'the last failure is still told');
      assert.deepEqual(healthy.last24Hours, { delivered: 1, failedAttempts: 4, failed: 2 });
    } finally {
      await receiver.close();
    }
  });

  it('tells an unreachable endpoint by its error', async () => {
    const { company, health } = await subscribedTo('http://127.0.0.1:9/refused');
    const before_ = worker.attempts.length;
    await emitEvent(t.db, company);
    await worker.recorded(before_ + 2);
    const { lastFailure, consecutiveFailures } = await health();
    assert.equal(consecutiveFailures, 2);
    assert.equal(lastFailure.statusCode, null);
    assert.ok(lastFailure.error, 'a refused connection says why');
  });

  it('is 404 for another owner, and needs a token', async () => {
    const { id, company } = await subscribedTo('http://127.0.0.1:9/never');
    const stranger = await t.token({ companies: [company], clientId: randomUUID() });
    const answer = await t.request('GET', `/v1/subscriptions/${id}/health`, { token: stranger });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.type, 'SUBSCRIPTION_NOT_FOUND');
    assert.equal((await t.request('GET', `/v1/subscriptions/${id}/health`)).status, 401);
  });
});
