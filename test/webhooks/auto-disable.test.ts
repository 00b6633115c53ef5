// Auto-disable (docs/decisions/webhook-delivery.md, "Auto-disable"): an endpoint that failed every
// attempt for WEBHOOK_DISABLE_AFTER, with a handful of failed messages, has its subscription made
// INACTIVE with the reason in its answer (statusReason) and its trail, its pending messages failed; its owner enables it again
// with a PUT and gets the failures back with :recover.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { disableFailingSubscriptions, MIN_FAILED_MESSAGES, startAutoDisable } from '../../src/webhooks/auto-disable.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { emitEvent, markFailingFor, startReceiver, startTestWorker } from './delivery/fixtures.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const MINUTE = 60_000;

/** A subscription created through the API, its owner's token, and its company. */
async function subscription(endpointUrl = 'https://example.com/hook') {
  const company = randomUUID();
  const token = await t.token({ companies: [company], clientId: randomUUID() });
  const created = await t.request('POST', '/v1/subscriptions', {
    token,
    body: { eventTypes: ['v1.export-job.created'], endpointUrl },
  });
  assert.equal(created.status, 200, created.text);
  return { id: created.body.data.id as string, token, company };
}

const failingFor = (id: string, agoMs: number, failedMessages: number) =>
  markFailingFor(t.db, id, agoMs, failedMessages);

/** A subscription the sweep disabled: failing for 10 minutes, with a pending message it fails. */
async function disabledSubscription() {
  const dead = await subscription();
  await failingFor(dead.id, 10 * MINUTE, MIN_FAILED_MESSAGES);
  await emitEvent(t.db, dead.company);
  assert.deepEqual(await disableFailingSubscriptions(t.db, 5 * MINUTE, 100), [dead.id]);
  return dead;
}

const statusOf = async (id: string, token: string) =>
  (await t.request('GET', `/v1/subscriptions/${id}`, { token })).body.data.status;

/** Its status and why, as GET and the list answer them. */
async function statusAndReason(id: string, token: string) {
  const got = (await t.request('GET', `/v1/subscriptions/${id}`, { token })).body.data;
  const listed = (await t.request('GET', '/v1/subscriptions', { token })).body.data;
  assert.deepEqual(
    listed.map((s: { id: string; status: string; statusReason: string | null }) => [s.id, s.status, s.statusReason]),
    [[id, got.status, got.statusReason]],
  );
  return { status: got.status, statusReason: got.statusReason };
}

describe('auto-disable', () => {
  it('disables only a subscription failing for the whole period with a handful of failed messages', async () => {
    const dead = await subscription();
    const young = await subscription();
    const few = await subscription();
    const quiet = await subscription();
    await failingFor(dead.id, 10 * MINUTE, MIN_FAILED_MESSAGES);
    await failingFor(young.id, 1000, MIN_FAILED_MESSAGES);
    await failingFor(few.id, 10 * MINUTE, MIN_FAILED_MESSAGES - 1);
    // Failed long enough once, but no attempt within the period: nothing says it still fails.
    await failingFor(quiet.id, 20 * MINUTE, MIN_FAILED_MESSAGES);
    await t.db.query(
      `UPDATE subscription_health SET last_failed_at = now() - interval '15 minutes' WHERE subscription_id = $1`,
      [quiet.id],
    );
    await emitEvent(t.db, dead.company);

    assert.deepEqual(await disableFailingSubscriptions(t.db, 5 * MINUTE, 100), [dead.id]);
    assert.deepEqual(await statusAndReason(dead.id, dead.token), {
      status: 'INACTIVE',
      statusReason: 'ENDPOINT_FAILING',
    });
    for (const alive of [young, few, quiet]) {
      assert.deepEqual(await statusAndReason(alive.id, alive.token), { status: 'ACTIVE', statusReason: null });
    }

    const messages = await t.request('GET', `/v1/subscriptions/${dead.id}/messages`, { token: dead.token });
    assert.deepEqual(
      messages.body.data.map((m: { status: string }) => m.status),
      ['failed'],
      'its pending message ended failed',
    );
    const trail = await t.request('GET', `/v1/subscriptions/${dead.id}/activities?operation_types=DISABLE`, {
      token: dead.token,
    });
    assert.equal(trail.body.data.length, 1);
    assert.equal(trail.body.data[0].actorUrn, 'urn:ledgerhook:system');
    assert.match(trail.body.data[0].description, /every attempt failed/);
    // A new event creates no message for it.
    await emitEvent(t.db, dead.company);
    const after_ = await t.request('GET', `/v1/subscriptions/${dead.id}/messages`, { token: dead.token });
    assert.equal(after_.body.data.length, 1);
    const metrics = (await t.request('GET', '/metrics')).text;
    assert.match(metrics, /ledgerhook_webhook_subscriptions_disabled\{reason="ENDPOINT_FAILING"\} 1/);
  });

  it('is undone by a PUT with status ACTIVE, after which :recover brings the failures back', async () => {
    const dead = await disabledSubscription();

    const put = await t.request('PUT', `/v1/subscriptions/${dead.id}`, {
      token: dead.token,
      body: { status: 'ACTIVE', eventTypes: ['v1.export-job.created'], endpointUrl: 'https://example.com/fixed' },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.data.status, 'ACTIVE');
    assert.equal(put.body.data.statusReason, null, 'the owner chose the status now');
    // Enabled just now: a whole period before it can be disabled again, though the streak is old.
    assert.deepEqual(await disableFailingSubscriptions(t.db, 5 * MINUTE, 100), []);
    const recovered = await t.request('POST', `/v1/subscriptions/${dead.id}:recover`, {
      token: dead.token,
      body: { since: new Date(Date.now() - MINUTE).toISOString() },
    });
    assert.equal(recovered.status, 202);
    assert.equal(recovered.body.data.messages, 1);
  });

  it('tells the reason until its owner sends a status, INACTIVE too', async () => {
    const dead = await disabledSubscription();

    const put = await t.request('PUT', `/v1/subscriptions/${dead.id}`, {
      token: dead.token,
      body: { status: 'INACTIVE', eventTypes: ['v1.export-job.created'], endpointUrl: 'https://example.com/hook' },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(await statusAndReason(dead.id, dead.token), { status: 'INACTIVE', statusReason: null });
  });

  it('disables a real dead endpoint that keeps failing, in the worker', async () => {
    const receiver = await startReceiver(() => ({ status: 500, body: 'down' }));
    const worker = await startTestWorker(t.db, { scheduleMs: [10] });
    const disableAfterMs = 500;
    const dead = await subscription(receiver.url);
    let disabled = false;
    let seen: () => void = () => {};
    const disabledNow = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const sweep = startAutoDisable({
      db: t.db,
      disableAfterMs,
      intervalMs: 20,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      onSweep: (ids) => {
        if (!ids.includes(dead.id)) return;
        disabled = true;
        seen();
      },
    });
    try {
      // Events keep coming and every attempt fails, until the sweep disables it (bounded).
      for (let i = 0; i < 400 && !disabled; i++) {
        await emitEvent(t.db, dead.company);
        // Its two attempts, unless it is disabled meanwhile (then its message is failed unsent).
        await Promise.race([worker.recorded(2 * (i + 1)).catch(() => undefined), disabledNow]);
      }
      assert.ok(disabled, 'disabled while its endpoint kept failing');
      assert.equal(await statusOf(dead.id, dead.token), 'INACTIVE');
      const health = (await t.request('GET', `/v1/subscriptions/${dead.id}/health`, { token: dead.token })).body.data;
      assert.ok(health.last24Hours.failed >= MIN_FAILED_MESSAGES);
      assert.equal(health.last24Hours.delivered, 0);
    } finally {
      await sweep.stop();
      await worker.stop();
      await receiver.close();
    }
  });
});
