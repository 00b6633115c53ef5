// The delivery log routes (docs/decisions/webhook-delivery.md) end to end: an export job created
// through the API is delivered by the worker, listed with its attempts, and resent on a fresh
// schedule.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../support/harness.ts';
import { insertSubscription, startReceiver, startTestWorker, type TestReceiver, type TestWorker } from './fixtures.ts';

let t: TestApp;
let worker: TestWorker;
let receiver: TestReceiver;
// The receiver fails while this is set.
let failing = true;

const subject = randomUUID();
const company = randomUUID();
let token: string;
let subscriptionId: string;

before(async () => {
  t = await startTestApp();
  worker = await startTestWorker(t.db, { scheduleMs: [5, 5, 5, 5, 5, 5, 5] });
  receiver = await startReceiver(() => (failing ? { status: 500, body: 'not now' } : { status: 200, body: 'ok' }));
  token = await t.token({ subject, companies: [company] });
  subscriptionId = (await insertSubscription(t.db, { endpointUrl: receiver.url, companies: [company], owner: subject }))
    .id;
});
after(async () => {
  await worker.stop();
  await receiver.close();
  await t.close();
});

/** Creates an export job (emitting v1.export-job.created) and completes it, so the next may start. */
async function createExportJob(): Promise<string> {
  const response = await t.request('POST', '/v2/export-jobs', {
    token,
    body: { companyId: company, accountingEntryIds: [] },
  });
  assert.equal(response.status, 201, response.text);
  const jobId = response.body.data.id;
  for (const event of ['started', 'completed']) {
    const progress = await t.request('POST', '/v2/export-job-events', { token, body: { jobId, event } });
    assert.equal(progress.status, 202, progress.text);
  }
  return jobId;
}

describe('delivery log', { timeout: 30_000 }, () => {
  let messageId: string;
  let eventJobId: string;

  it('lists a failed message with its 8 attempts, then resends it on a fresh schedule', async () => {
    eventJobId = await createExportJob();
    const [report] = await worker.recorded(1);
    messageId = report?.messageId as string;
    await worker.recorded(8, messageId);

    const list = await t.request('GET', `/v1/subscriptions/${subscriptionId}/messages`, { token });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.data.length, 1);
    const [message] = list.body.data;
    assert.equal(message.id, messageId);
    assert.equal(message.eventType, 'v1.export-job.created');
    assert.deepEqual(
      {
        status: message.status,
        attempts: message.attempts,
        nextAttemptAt: message.nextAttemptAt,
        deliveredAt: message.deliveredAt,
      },
      { status: 'failed', attempts: 8, nextAttemptAt: null, deliveredAt: null },
    );
    const [event] = await t.db.query<{ id: string; data: { id: string } }>(
      'SELECT id, data FROM events WHERE id = $1',
      [message.eventId],
    );
    assert.equal(event?.data.id, eventJobId);
    const sent = JSON.parse(receiver.requests[0]?.body ?? '{}').payload;
    assert.equal(sent.data.id, eventJobId);

    // One message reads back with the payload its notifications carried.
    const one = await t.request('GET', `/v1/subscriptions/${subscriptionId}/messages/${messageId}`, { token });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body.data, { ...message, payload: sent });

    const attempts = await t.request('GET', `/v1/subscriptions/${subscriptionId}/messages/${messageId}/attempts`, {
      token,
    });
    assert.equal(attempts.status, 200, attempts.text);
    assert.deepEqual(
      attempts.body.data.map((a: { attempt: number; statusCode: number; responseBody: string; succeeded: boolean }) => [
        a.attempt,
        a.statusCode,
        a.responseBody,
        a.succeeded,
      ]),
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 500, 'not now', false]),
    );
    for (const a of attempts.body.data) {
      assert.equal(a.error, null);
      assert.ok(Number.isInteger(a.durationMs) && a.durationMs >= 0);
      assert.ok(!Number.isNaN(Date.parse(a.startedAt)));
    }

    // A resend keeps the webhook-id and gives the message the whole schedule again: 8 more attempts.
    const resent = await t.request('POST', `/v1/subscriptions/${subscriptionId}/messages/${messageId}:resend`, {
      token,
    });
    assert.equal(resent.status, 202, resent.text);
    assert.equal(resent.body.data.status, 'pending');
    const reports = await worker.recorded(16, messageId);
    assert.deepEqual(
      reports.slice(8).map((r) => r.recorded?.attempt),
      [9, 10, 11, 12, 13, 14, 15, 16],
    );
    assert.equal(reports.at(-1)?.recorded?.status, 'failed');
    assert.ok(receiver.requests.every((r) => r.headers['webhook-id'] === messageId));

    failing = false;
    const again = await t.request('POST', `/v1/subscriptions/${subscriptionId}/messages/${messageId}:resend`, {
      token,
    });
    assert.equal(again.status, 202);
    const [last] = (await worker.recorded(17, messageId)).slice(16);
    assert.deepEqual(
      { attempt: last?.recorded?.attempt, status: last?.recorded?.status },
      { attempt: 17, status: 'delivered' },
    );
    const delivered = await t.request('GET', `/v1/subscriptions/${subscriptionId}/messages?status=delivered`, {
      token,
    });
    assert.equal(delivered.body.data.length, 1);
    assert.equal(delivered.body.data[0].attempts, 17);
    assert.ok(delivered.body.data[0].deliveredAt);
  });

  it('filters by status and pages with cursors', async () => {
    for (let i = 0; i < 2; i++) await createExportJob();
    await worker.recorded(19);
    const all = await t.request('GET', `/v1/subscriptions/${subscriptionId}/messages?limit=2`, { token });
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body.pagination.total, 3);
    assert.equal(all.body.data.length, 2);
    assert.equal(all.body.pagination.hasNextPage, true);
    const next = await t.request(
      'GET',
      `/v1/subscriptions/${subscriptionId}/messages?limit=2&after=${all.body.pagination.endCursor}`,
      { token },
    );
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.data.length, 1);
    const ids = [...all.body.data, ...next.body.data].map((m: { id: string }) => m.id);
    assert.equal(new Set(ids).size, 3);
    const pending = await t.request('GET', `/v1/subscriptions/${subscriptionId}/messages?status=failed`, { token });
    assert.equal(pending.body.pagination.total, 0);
    const bad = await t.request('GET', `/v1/subscriptions/${subscriptionId}/messages?status=lost`, { token });
    assert.equal(bad.status, 400);
  });

  it('answers 404 for another client’s subscription, an unknown one, and a message of another subscription', async () => {
    const stranger = await t.token({ companies: [company] });
    for (const path of ['messages', `messages/${messageId}`, `messages/${messageId}/attempts`]) {
      const response = await t.request('GET', `/v1/subscriptions/${subscriptionId}/${path}`, { token: stranger });
      assert.equal(response.status, 404, response.text);
      assert.equal(response.body.type, 'SUBSCRIPTION_NOT_FOUND');
    }
    const resend = await t.request('POST', `/v1/subscriptions/${subscriptionId}/messages/${messageId}:resend`, {
      token: stranger,
    });
    assert.equal(resend.status, 404, resend.text);
    const unknown = await t.request('GET', `/v1/subscriptions/${randomUUID()}/messages`, { token });
    assert.equal(unknown.body.type, 'SUBSCRIPTION_NOT_FOUND');
    const other = await insertSubscription(t.db, { endpointUrl: receiver.url, companies: [company], owner: subject });
    for (const path of [`messages/${messageId}`, `messages/${messageId}/attempts`]) {
      const foreign = await t.request('GET', `/v1/subscriptions/${other.id}/${path}`, { token });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.type, 'MESSAGE_NOT_FOUND');
    }
    const malformed = await t.request('GET', `/v1/subscriptions/${subscriptionId}/messages/not-a-message-id`, {
      token,
    });
    assert.equal(malformed.status, 400, malformed.text);
    const missing = await t.request('POST', `/v1/subscriptions/${other.id}/messages/msg_${'a'.repeat(26)}:resend`, {
      token,
    });
    assert.equal(missing.body.type, 'MESSAGE_NOT_FOUND');
  });

  it('answers 401 without a token', async () => {
    for (const [method, path] of [
      ['GET', 'messages'],
      ['GET', `messages/${messageId}`],
      ['GET', `messages/${messageId}/attempts`],
      ['POST', `messages/${messageId}:resend`],
    ] as const) {
      const response = await t.request(method, `/v1/subscriptions/${subscriptionId}/${path}`, { token: null });
      assert.equal(response.status, 401);
    }
  });
});
