import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { activeSecrets, MAX_PREVIOUS_SECRETS } from '../../src/subscriptions/store.ts';
import { signatureHeader } from '../../src/webhooks/signature.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { createSubscription } from './fixtures.ts';

const { t, token } = await startCompanyTestApp();

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

async function currentSecret(id: string): Promise<string> {
  const response = await t.request('GET', `/v1/subscriptions/${id}/secret`, { token });
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(Object.keys(response.body), ['data']);
  assert.deepEqual(Object.keys(response.body.data), ['secretKey']);
  return response.body.data.secretKey;
}

async function rotate(id: string): Promise<string> {
  const response = await t.request('POST', `/v1/subscriptions/${id}/secret:rotate`, { token });
  assert.equal(response.status, 200, response.text);
  assert.match(response.body.data.secretKey, SECRET);
  return response.body.data.secretKey;
}

/** Hours until each secret of the subscription expires (null: the current one), newest first. */
async function expiries(id: string) {
  return t.db.query<{ secret: string; hours: number | null }>(
    `SELECT secret, round(extract(epoch FROM expires_at - now()) / 3600)::int AS hours
     FROM subscription_secrets WHERE subscription_id = $1 ORDER BY created_at DESC`,
    [id],
  );
}

describe('subscription secrets', () => {
  it('every subscription has its own secret from creation, which activeSecrets lists', async () => {
    const a = (await createSubscription(t, token)).data.id;
    const b = (await createSubscription(t, token)).data.id;
    const [secretA, secretB] = [await currentSecret(a), await currentSecret(b)];
    assert.match(secretA, SECRET);
    assert.notEqual(secretA, secretB);
    assert.equal(await currentSecret(a), secretA, 'reading does not change it');
    assert.deepEqual(await activeSecrets(t.db, a), [secretA]);
  });

  it('rotate answers a new current secret; the old one keeps signing beside it for 24 hours', async () => {
    const id = (await createSubscription(t, token)).data.id;
    const old = await currentSecret(id);
    const fresh = await rotate(id);
    assert.notEqual(fresh, old);
    assert.equal(await currentSecret(id), fresh);
    assert.deepEqual(await activeSecrets(t.db, id), [fresh, old]);
    assert.deepEqual(await expiries(id), [
      { secret: fresh, hours: null },
      { secret: old, hours: 24 },
    ]);

    // A receiver that still holds the old secret verifies a notification signed with both.
    const body = JSON.stringify({ payload: { data: {}, eventId: 'e', eventType: 'v1.export-job.created' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_rotation',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(
        { messageId: 'msg_rotation', timestamp, body },
        await activeSecrets(t.db, id),
      ),
    };
    for (const secret of [old, fresh]) assert.ok(new Webhook(secret).verify(body, headers));

    // 24 hours later (the expiry moved into the past) the old secret no longer signs.
    await t.db.query(`UPDATE subscription_secrets SET expires_at = now() - interval '1 second' WHERE secret = $1`, [
      old,
    ]);
    assert.deepEqual(await activeSecrets(t.db, id), [fresh]);
    assert.equal(await currentSecret(id), fresh);
  });

  it('repeated rotations list newest first, and at most four replaced secrets sign at once', async () => {
    const id = (await createSubscription(t, token)).data.id;
    const secrets = [await currentSecret(id)];
    for (let i = 0; i < MAX_PREVIOUS_SECRETS + 2; i++) secrets.unshift(await rotate(id));
    assert.deepEqual(await activeSecrets(t.db, id), secrets.slice(0, MAX_PREVIOUS_SECRETS + 1));
    const [row] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM subscription_secrets WHERE subscription_id = $1 AND expires_at IS NULL',
      [id],
    );
    assert.equal(row?.n, 1, 'exactly one current secret');
  });

  it('concurrent rotations leave exactly one current secret, and every answered secret still signs', async () => {
    const id = (await createSubscription(t, token)).data.id;
    const answered = await Promise.all(Array.from({ length: 4 }, () => rotate(id)));
    const active = await activeSecrets(t.db, id);
    assert.equal(active.length, 5);
    assert.deepEqual([...active.slice(0, 4)].sort(), [...answered].sort());
    assert.equal(await currentSecret(id), active[0]);
  });

  it('a deleted subscription has no secrets', async () => {
    const id = (await createSubscription(t, token)).data.id;
    await rotate(id);
    assert.equal((await t.request('DELETE', `/v1/subscriptions/${id}`, { token })).status, 204);
    assert.deepEqual(await activeSecrets(t.db, id), []);
    const secret = await t.request('GET', `/v1/subscriptions/${id}/secret`, { token });
    assert.equal(secret.status, 404);
    assert.equal((await t.request('POST', `/v1/subscriptions/${id}/secret:rotate`, { token })).status, 404);
  });
});
