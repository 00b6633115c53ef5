// The audit trail (docs/decisions/subscriptions.md, "Activities"): every create, change, rotation,
// delete and disable of a subscription, by whom, with the fields before and after and never a
// secret; filtered and paged as every list; readable after the delete by its owner only.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { withoutCredentials } from '../../src/subscriptions/activity-changes.ts';
import { stopSubscriptionsOf } from '../../src/subscriptions/store.ts';
import { sweepRetentionBatch } from '../../src/webhooks/retention-sweeper.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { createSubscription, subscriptionBody, TIMESTAMP } from './fixtures.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

async function owner() {
  const clientId = randomUUID();
  const companies = [randomUUID()];
  return { clientId, companies, token: await t.token({ companies, clientId }) };
}

async function trail(id: string, token: string, query = '') {
  const answer = await t.request('GET', `/v1/subscriptions/${id}/activities${query}`, { token });
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
}

describe('GET /v1/subscriptions/{id}/activities', () => {
  it('records create, change, rotation and delete with who, what changed, and no secret', async () => {
    const { clientId, token } = await owner();
    const created = await createSubscription(t, token, {
      customHeaders: { 'x-api-key': 'secret-header-value' },
      endpointAuth: { type: 'BASIC', credentials: { username: 'hook', password: 'basic-password-1' } },
    });
    const id = created.data.id;
    const put = await t.request('PUT', `/v1/subscriptions/${id}`, {
      token,
      body: subscriptionBody({
        status: 'INACTIVE',
        endpointUrl: 'https://example.com/in?token=query-secret',
        customHeaders: { 'x-api-key': 'another-secret-value' },
        endpointAuth: { type: 'BASIC', credentials: { username: 'hook', password: 'basic-password-2' } },
      }),
    });
    assert.equal(put.status, 200, put.text);
    assert.equal((await t.request('POST', `/v1/subscriptions/${id}/secret:rotate`, { token })).status, 200);
    assert.equal((await t.request('DELETE', `/v1/subscriptions/${id}`, { token })).status, 204);

    const { data, pagination } = await trail(id, token);
    assert.deepEqual(
      data.map((a: { operationType: string }) => a.operationType),
      ['CREATE', 'UPDATE', 'UPDATE', 'DELETE'],
    );
    assert.equal(pagination.total, 4);
    for (const activity of data) {
      assert.equal(activity.subscriptionId, id);
      assert.equal(activity.actorUrn, `urn:ledgerhook:client:${clientId}`);
      assert.match(activity.createdAt, TIMESTAMP);
    }
    const [create, update, rotation] = data;
    assert.deepEqual(
      create.changes.find((c: { field: string }) => c.field === 'endpointAuth'),
      { field: 'endpointAuth', before: null, after: { type: 'BASIC', username: 'hook' } },
    );
    const changed = Object.fromEntries(update.changes.map((c: { field: string }) => [c.field, c]));
    assert.deepEqual(Object.keys(changed).sort(), [
      'customHeaderValues',
      'endpointAuthPassword',
      'endpointUrl',
      'status',
    ]);
    assert.deepEqual(changed.status, { field: 'status', before: 'ACTIVE', after: 'INACTIVE' });
    assert.equal(changed.endpointUrl.after, 'https://example.com/in?token=…');
    assert.deepEqual(changed.customHeaderValues.after, { changed: ['x-api-key'] });
    assert.match(update.description, /status/);
    assert.match(rotation.description, /secret rotated/i);
    // Neither a secret, a header value, a password nor a query value is anywhere in the trail.
    const text = JSON.stringify(data);
    for (const secret of [
      'secret-header-value',
      'another-secret-value',
      'basic-password',
      'url-password',
      'query-secret',
      'whsec_',
    ]) {
      assert.ok(!text.includes(secret), `${secret} in the trail`);
    }
  });

  it('tells an endpoint URL without its user info and query values', () => {
    assert.equal(
      withoutCredentials('https://u:p@example.com:8443/a/b?k=v&t=x#f'),
      'https://***@example.com:8443/a/b?k=…&t=…',
    );
    assert.equal(withoutCredentials('https://example.com/plain'), 'https://example.com/plain');
  });

  it('hides tokens in path segments and ;parameter values, as in Slack and Discord webhook URLs', async () => {
    const slackToken = 'q2Xv9LmN4bT7kR1sW8yZ3cD6';
    const discordToken = 'Hk3_9xPq-Lw2ZrT8vN5mYb1cJf7sDg4aQe6uWi0oRt';
    const { token } = await owner();
    const urls = [
      `https://hooks.slack.com/services/T024BE7LD/B08T1KQ2ZRX/${slackToken}`,
      `https://discord.com/api/webhooks/1234567890123456789/${discordToken};jsessionid=1A2B3C4D5E6F`,
      'https://discord.com/api/webhooks/1234567890123456789/anotherTokenOfTheSameHook9',
    ];
    const id = (await createSubscription(t, token, { endpointUrl: urls[0] })).data.id;
    for (const endpointUrl of urls.slice(1)) {
      const put = await t.request('PUT', `/v1/subscriptions/${id}`, { token, body: subscriptionBody({ endpointUrl }) });
      assert.equal(put.status, 200, put.text);
    }
    const { data } = await trail(id, token);
    const told = data.map(
      (a: { changes: { field: string; before: unknown; after: unknown }[] }) =>
        a.changes.find((c) => c.field === 'endpointUrl')?.after,
    );
    assert.deepEqual(told, [
      'https://hooks.slack.com/services/…/…/…',
      'https://discord.com/api/webhooks/…/…;jsessionid=…',
      'https://discord.com/api/webhooks/…/…',
    ]);
    const text = JSON.stringify(data);
    for (const secret of [slackToken, discordToken, '1A2B3C4D5E6F', 'anotherTokenOfTheSameHook9']) {
      assert.ok(!text.includes(secret), `${secret} in the trail`);
    }
    // Words stay readable: a version, a file, one change of case.
    assert.equal(
      withoutCredentials('https://example.com/v2/webhookReceiver/hook.php;mode=x?api_key=y'),
      'https://example.com/v2/webhookReceiver/hook.php;mode=…?api_key=…',
    );
    assert.equal(withoutCredentials('https://example.com/in?s3cr3t'), 'https://example.com/in?…=…');
  });

  it('filters by operation_types and pages with the shared cursors', async () => {
    const { token } = await owner();
    const id = (await createSubscription(t, token)).data.id;
    for (const url of ['https://example.com/a', 'https://example.com/b']) {
      await t.request('PUT', `/v1/subscriptions/${id}`, { token, body: subscriptionBody({ endpointUrl: url }) });
    }
    const updates = await trail(id, token, '?operation_types=UPDATE');
    assert.deepEqual(
      updates.data.map((a: { changes: { after: unknown }[] }) => a.changes[0]?.after),
      ['https://example.com/a', 'https://example.com/b'],
    );
    const both = await trail(id, token, '?operation_types=CREATE&operation_types=DELETE');
    assert.equal(both.data.length, 1);
    const first = await trail(id, token, '?limit=2');
    assert.equal(first.data.length, 2);
    assert.equal(first.pagination.hasNextPage, true);
    const next = await trail(id, token, `?limit=2&after=${first.pagination.endCursor}`);
    assert.deepEqual(
      next.data.map((a: { operationType: string }) => a.operationType),
      ['UPDATE'],
    );
    const newestFirst = await trail(id, token, '?sorting_keys=createdAt&sorting_order=DESC');
    assert.equal(newestFirst.data[0].changes[0].after, 'https://example.com/b');
    const bad = await t.request('GET', `/v1/subscriptions/${id}/activities?operation_types=RENAME`, { token });
    assert.equal(bad.status, 400);
  });

  it('keeps a deleted subscription’s trail for its owner only, then lets retention take it', async () => {
    const { clientId, companies, token } = await owner();
    const id = (await createSubscription(t, token)).data.id;
    assert.equal((await t.request('DELETE', `/v1/subscriptions/${id}`, { token })).status, 204);
    assert.equal((await trail(id, token)).data.length, 2);

    // The same client with another company's token, another client, no token: as if it never was.
    const otherCompany = await t.token({ companies: [randomUUID()], clientId });
    const otherClient = await t.token({ companies, clientId: randomUUID() });
    for (const stranger of [otherCompany, otherClient]) {
      const answer = await t.request('GET', `/v1/subscriptions/${id}/activities`, { token: stranger });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.type, 'SUBSCRIPTION_NOT_FOUND');
    }
    assert.equal((await t.request('GET', `/v1/subscriptions/${id}/activities`)).status, 401);
    assert.equal((await t.request('GET', `/v1/subscriptions/${randomUUID()}/activities`, { token })).status, 404);
    // The owner's narrowed tokens: the event type's read scope reads it, another resource's does not.
    for (const [scopes, status] of [
      [['export-jobs:read'], 200],
      [['accounts:read'], 403],
      [[], 403],
    ] as const) {
      const narrowed = await t.token({ companies, clientId, scopes: [...scopes] });
      const answer = await t.request('GET', `/v1/subscriptions/${id}/activities`, { token: narrowed });
      assert.equal(answer.status, status, answer.text);
    }

    // A minute past the retention, the trail goes; a live subscription's stays.
    const live = (await createSubscription(t, token)).data.id;
    await t.db.query(
      `UPDATE subscription_activities SET created_at = now() - interval '2 minutes' WHERE subscription_id = ANY($1::uuid[])`,
      [[id, live]],
    );
    // Batches smaller than the trail: it is still deleted whole.
    while ((await sweepRetentionBatch(t.db, 60_000, 1)).length >= 1);
    const left = await t.db.query('SELECT 1 FROM subscription_activities WHERE subscription_id = $1', [id]);
    assert.equal(left.length, 0, 'no row of the deleted trail is left behind');
    assert.equal((await t.request('GET', `/v1/subscriptions/${id}/activities`, { token })).status, 404);
    assert.equal((await trail(live, token)).data.length, 1);
  });

  it('records the service disabling a revoked client’s subscriptions', async () => {
    const { clientId, token } = await owner();
    const id = (await createSubscription(t, token)).data.id;
    await t.db.transaction((tx) => stopSubscriptionsOf(tx, clientId, 'CLIENT_REVOKED'));
    const { data } = await trail(id, token, '?operation_types=DISABLE');
    assert.equal(data.length, 1);
    assert.equal(data[0].actorUrn, 'urn:ledgerhook:operator');
    assert.match(data[0].description, /revoked/);
    assert.deepEqual(data[0].changes, [{ field: 'status', before: 'ACTIVE', after: 'INACTIVE' }]);
  });
});
