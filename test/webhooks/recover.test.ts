// Recovering failed messages (docs/decisions/webhook-delivery.md, "Recover"): the API counts and
// records the window; workers queue the failed messages again in batches, in their order, once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { queueRecoveryBatch } from '../../src/webhooks/recovery-store.ts';
import { startRecoveryWorker } from '../../src/webhooks/recovery-worker.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { emitEvent, insertSubscription } from './delivery/fixtures.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** A subscription owned by a new client, and that client's token. */
async function ownSubscription() {
  const company = randomUUID();
  const clientId = randomUUID();
  const token = await t.token({ companies: [company], clientId });
  const subscription = await insertSubscription(t.db, {
    endpointUrl: 'https://example.com/hook',
    companies: [company],
    owner: clientId,
  });
  return { company, token, subscriptionId: subscription.id };
}

/** `count` messages of new events, created a second apart from `start`, ended in `status`. */
async function messages(company: string, count: number, status: string, start: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { eventId } = await emitEvent(t.db, company);
    const [row] = await t.db.query<{ id: string }>(
      `UPDATE messages SET status = $2, attempts = 8, created_at = to_timestamp($3::float8 / 1000)
       WHERE event_id = $1 RETURNING id`,
      [eventId, status, start + i * 1000],
    );
    ids.push(row?.id as string);
  }
  return ids;
}

const iso = (ms: number) => new Date(ms).toISOString();

async function statusOf(ids: string[]) {
  const rows = await t.db.query<{ id: string; status: string; schedule_base: number; next_attempt_at: Date }>(
    'SELECT id, status, schedule_base, next_attempt_at FROM messages WHERE id = ANY($1::text[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Runs queue batches of `size` until no recovery is open, as the workers do over their passes. */
async function drain(size: number): Promise<string[]> {
  const queued: string[] = [];
  for (;;) {
    queued.push(...(await queueRecoveryBatch(t.db, size)).queued);
    const open = await t.db.query('SELECT 1 FROM message_recoveries WHERE finished_at IS NULL');
    if (open.length === 0) return queued;
  }
}

describe('POST /v1/subscriptions/{id}:recover', () => {
  it('queues the failed messages of the window again, in order, each once, with a fresh schedule', async () => {
    const { company, token, subscriptionId } = await ownSubscription();
    const start = Date.now() - 3_600_000;
    const before_ = await messages(company, 2, 'failed', start - 60_000);
    const inWindow = await messages(company, 5, 'failed', start);
    const delivered = await messages(company, 1, 'delivered', start + 10_000);

    const answer = await t.request('POST', `/v1/subscriptions/${subscriptionId}:recover`, {
      token,
      body: { since: iso(start) },
    });
    assert.equal(answer.status, 202);
    assert.equal(answer.body.data.messages, 5);
    assert.equal(answer.body.data.subscriptionId, subscriptionId);
    // Asked twice before the workers ran: each message is still queued once.
    const again = await t.request('POST', `/v1/subscriptions/${subscriptionId}:recover`, {
      token,
      body: { since: iso(start) },
    });
    assert.equal(again.status, 202);

    const queued = await drain(2);
    assert.deepEqual(queued, inWindow, 'queued once each, in the order they were created');
    const after_ = await statusOf([...before_, ...inWindow, ...delivered]);
    for (const id of inWindow) {
      assert.equal(after_.get(id)?.status, 'pending');
      assert.equal(after_.get(id)?.schedule_base, 8, 'the whole schedule ahead of it');
    }
    const due = inWindow.map((id) => after_.get(id)?.next_attempt_at.getTime() ?? 0);
    assert.deepEqual(
      [...due].sort((a, b) => a - b),
      due,
      'due in the order they were created',
    );
    for (const id of before_) assert.equal(after_.get(id)?.status, 'failed', 'before the window: untouched');
    for (const id of delivered) assert.equal(after_.get(id)?.status, 'delivered');
    const open = await t.db.query('SELECT 1 FROM message_recoveries WHERE finished_at IS NULL');
    assert.equal(open.length, 0, 'both recoveries finished');
  });

  it('takes until as the end of the window, exclusive', async () => {
    const { company, token, subscriptionId } = await ownSubscription();
    const start = Date.now() - 3_600_000;
    const ids = await messages(company, 4, 'failed', start);
    const answer = await t.request('POST', `/v1/subscriptions/${subscriptionId}:recover`, {
      token,
      body: { since: iso(start + 1000), until: iso(start + 3000) },
    });
    assert.equal(answer.body.data.messages, 2);
    await drain(1000);
    const status = await statusOf(ids);
    assert.deepEqual(
      ids.map((id) => status.get(id)?.status),
      ['failed', 'pending', 'pending', 'failed'],
    );
  });

  it('refuses a bad window, and another owner’s subscription, queueing nothing', async () => {
    const { company, token, subscriptionId } = await ownSubscription();
    const ids = await messages(company, 1, 'failed', Date.now() - 60_000);
    const url = `/v1/subscriptions/${subscriptionId}:recover`;
    // One clock reading: two could fall in different milliseconds and make an empty window a valid one.
    const now = Date.now();
    const cases: [unknown, number, string?][] = [
      [{}, 400, '/since'],
      [{ since: 'yesterday' }, 400, '/since'],
      [{ since: iso(now + 3_600_000) }, 400, '/since'],
      [{ since: iso(now - 60_000), until: iso(now - 120_000) }, 400, '/until'],
      [{ since: iso(now - 60_000), until: iso(now - 60_000) }, 400, '/until'],
      // A leap second the format allows: the database reads it as the next second.
      [{ since: '2099-12-31T23:59:60Z' }, 400, '/since'],
      [{ since: '2020-01-01T00:00:00Z', until: '2019-12-31T23:59:60Z' }, 400, '/until'],
    ];
    for (const [body, status, path] of cases) {
      const answer = await t.request('POST', url, { token, body });
      assert.equal(answer.status, status, JSON.stringify(body));
      assert.equal(answer.headers['content-type'], 'application/json;charset=UTF-8');
      assert.ok(
        answer.body.errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(body)}: ${JSON.stringify(answer.body.errors)}`,
      );
    }
    const stranger = await t.token({ companies: [company], clientId: randomUUID() });
    const foreign = await t.request('POST', url, { token: stranger, body: { since: iso(Date.now() - 120_000) } });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.type, 'SUBSCRIPTION_NOT_FOUND');
    const missing = await t.request('POST', `/v1/subscriptions/${randomUUID()}:recover`, {
      token,
      body: { since: iso(Date.now() - 120_000) },
    });
    assert.equal(missing.status, 404);
    assert.equal((await t.request('POST', url, { body: { since: iso(Date.now() - 120_000) } })).status, 401);
    assert.equal((await drain(1000)).length, 0);
    assert.equal((await statusOf(ids)).get(ids[0] as string)?.status, 'failed');
  });

  it('goes on after the last message it queued: one that fails again meanwhile is not queued twice', async () => {
    const { company, token, subscriptionId } = await ownSubscription();
    const ids = await messages(company, 4, 'failed', Date.now() - 60_000);
    await t.request('POST', `/v1/subscriptions/${subscriptionId}:recover`, {
      token,
      body: { since: iso(Date.now() - 120_000) },
    });
    assert.deepEqual((await queueRecoveryBatch(t.db, 2)).queued, ids.slice(0, 2));
    // The first two fail again at once (an endpoint still down).
    await t.db.query(`UPDATE messages SET status = 'failed' WHERE id = ANY($1::text[])`, [ids.slice(0, 2)]);
    assert.deepEqual((await queueRecoveryBatch(t.db, 2)).queued, ids.slice(2));
    assert.deepEqual((await queueRecoveryBatch(t.db, 2)).queued, []);
    const [recovery] = await t.db.query<{ queued: number; finished: boolean }>(
      'SELECT queued, finished_at IS NOT NULL AS finished FROM message_recoveries WHERE subscription_id = $1',
      [subscriptionId],
    );
    assert.deepEqual(recovery, { queued: 4, finished: true });
  });

  it('is 409 while the service keeps the subscription disabled', async () => {
    const { token, subscriptionId } = await ownSubscription();
    await t.db.query(`UPDATE subscriptions SET status = 'INACTIVE', status_reason = 'ENDPOINT_FAILING' WHERE id = $1`, [
      subscriptionId,
    ]);
    const answer = await t.request('POST', `/v1/subscriptions/${subscriptionId}:recover`, {
      token,
      body: { since: iso(Date.now() - 60_000) },
    });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.type, 'SUBSCRIPTION_DISABLED');
    assert.match(answer.body.detail, /PUT/);
  });

  it('resend is 409 like recover while the service keeps the subscription stopped, and queues nothing', async () => {
    const { company, token, subscriptionId } = await ownSubscription();
    const [messageId] = await messages(company, 1, 'failed', Date.now() - 60_000);
    const resend = () =>
      t.request('POST', `/v1/subscriptions/${subscriptionId}/messages/${messageId}:resend`, { token });
    for (const [reason, detail] of [
      ['ENDPOINT_FAILING', /PUT/],
      ['CLIENT_REVOKED', /revoked/],
    ] as const) {
      await t.db.query(`UPDATE subscriptions SET status = 'INACTIVE', status_reason = $2 WHERE id = $1`, [
        subscriptionId,
        reason,
      ]);
      const answer = await resend();
      assert.equal(answer.status, 409, answer.text);
      assert.equal(answer.body.type, 'SUBSCRIPTION_DISABLED');
      assert.match(answer.body.detail, detail);
      assert.equal((await statusOf([messageId as string])).get(messageId as string)?.status, 'failed');
    }
    // Made ACTIVE again by its owner, it resends.
    await t.db.query(`UPDATE subscriptions SET status = 'ACTIVE', status_reason = NULL WHERE id = $1`, [
      subscriptionId,
    ]);
    assert.equal((await resend()).status, 202);
    assert.equal((await statusOf([messageId as string])).get(messageId as string)?.status, 'pending');
  });

  it('is worked off by the recovery worker on its own, after many empty recoveries, in one pass', async () => {
    const { company, token, subscriptionId } = await ownSubscription();
    const ids = await messages(company, 3, 'failed', Date.now() - 60_000);
    // Many empty recoveries asked first, by another owner, do not hold this one back a pass each.
    const other = await ownSubscription();
    for (let i = 0; i < 20; i++) {
      await t.request('POST', `/v1/subscriptions/${other.subscriptionId}:recover`, {
        token: other.token,
        body: { since: iso(Date.now() - 60_000) },
      });
    }
    const answer = await t.request('POST', `/v1/subscriptions/${subscriptionId}:recover`, {
      token,
      body: { since: iso(Date.now() - 120_000) },
    });
    assert.equal(answer.status, 202);
    const firstPass = new Promise<string[]>((resolve) => {
      const worker = startRecoveryWorker({
        db: t.db,
        intervalMs: 10,
        logger: { info: () => {}, error: () => {} },
        onSweep: (queued) => {
          void worker.stop();
          resolve(queued);
        },
      });
    });
    assert.deepEqual(await firstPass, ids, 'queued in the first pass');
    for (const [, row] of await statusOf(ids)) assert.equal(row.status, 'pending');
  });
});
