import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { createSubscription, EVENT_TYPE, subscriptionBody, TIMESTAMP } from './fixtures.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const stored = async (id: string) => {
  const [row] = await t.db.query<{ owner: string; companies: string[]; username: string; password: string }>(
    'SELECT owner, companies, basic_username AS username, basic_password AS password FROM subscriptions WHERE id = $1',
    [id],
  );
  return row;
};

describe('POST /v1/subscriptions', () => {
  it('answers 200 with the subscription in data and endpointAuth and customHeaders also beside it', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    const headers = { 'X-Api-Key': 'k-123', 'user-agent': 'custom', 'content-type': 'application/json' };
    const body = await createSubscription(t, token, { customHeaders: headers });
    const { id, createdAt, updatedAt } = body.data;
    assert.match(createdAt, TIMESTAMP);
    assert.equal(updatedAt, createdAt);
    assert.deepEqual(body, {
      data: {
        id,
        status: 'ACTIVE',
        statusReason: null,
        eventTypes: [EVENT_TYPE],
        endpointUrl: 'https://example.com/webhook',
        createdAt,
        updatedAt,
        endpointAuth: { type: 'NONE' },
        customHeaders: headers,
        rateLimitPerSecond: null,
      },
      endpointAuth: { type: 'NONE' },
      customHeaders: headers,
    });
    const got = await t.request('GET', `/v1/subscriptions/${id}`, { token });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, body);
  });

  it('stores BASIC credentials and never returns the password', async () => {
    const token = await t.token();
    const endpointAuth = { type: 'BASIC', credentials: { username: 'hook-user', password: 's3cret-pa55' } };
    const body = await createSubscription(t, token, { endpointAuth, status: 'INACTIVE' });
    assert.deepEqual(body.data.endpointAuth, { type: 'BASIC' });
    assert.deepEqual(body.endpointAuth, { type: 'BASIC' });
    assert.equal(body.data.status, 'INACTIVE');
    const got = await t.request('GET', `/v1/subscriptions/${body.data.id}`, { token });
    assert.ok(!got.text.includes('s3cret-pa55') && !got.text.includes('hook-user'), got.text);
    const list = await t.request('GET', '/v1/subscriptions', { token });
    assert.ok(!list.text.includes('s3cret-pa55'), list.text);
    const row = await stored(body.data.id);
    assert.equal(row?.username, 'hook-user');
    assert.equal(row?.password, 's3cret-pa55');
  });

  it("remembers the creating token's companies and belongs to its client_id, else its sub", async () => {
    const companies = [randomUUID(), randomUUID()].sort();
    const sub = randomUUID();
    const asUser = await t.token({ companies: companies.map((c) => c.toUpperCase()), subject: sub });
    const byUser = await createSubscription(t, asUser);
    assert.deepEqual(await stored(byUser.data.id), {
      owner: sub,
      companies,
      username: null,
      password: null,
    });
    const asClient = await t.token({ companies, clientId: 'accounting-app-1' });
    const byClient = await createSubscription(t, asClient);
    assert.equal((await stored(byClient.data.id))?.owner, 'accounting-app-1');
    // Another user of the same client for the same companies sees it; the user who made the first one
    // does not see this one (test/subscriptions/reach.test.ts: the client's tokens for other companies neither).
    const sameClient = await t.token({ companies, clientId: 'accounting-app-1' });
    assert.equal((await t.request('GET', `/v1/subscriptions/${byClient.data.id}`, { token: sameClient })).status, 200);
    assert.equal((await t.request('GET', `/v1/subscriptions/${byClient.data.id}`, { token: asUser })).status, 404);
  });

  it('answers 403 FORBIDDEN naming the scopes an event type needs that the token lacks', async () => {
    const cases = [
      { scopes: ['export-jobs:read'], missing: ['export-jobs:write'] },
      { scopes: ['accounts:write', 'export-items:read'], missing: ['export-jobs:read', 'export-jobs:write'] },
      { scopes: [], missing: ['export-jobs:read', 'export-jobs:write'] },
    ];
    for (const { scopes, missing } of cases) {
      const token = await t.token({ scopes });
      const response = await t.request('POST', '/v1/subscriptions', { token, body: subscriptionBody() });
      assert.equal(response.status, 403, response.text);
      assert.equal(response.body.type, 'FORBIDDEN');
      assert.deepEqual(response.body.missingScopes, missing);
      for (const scope of missing) assert.ok(response.body.detail.includes(scope), response.body.detail);
    }
    const enough = await t.token({ scopes: ['export-jobs:write'] });
    await createSubscription(t, enough);
  });

  it('creates a signing secret with the subscription', async () => {
    const token = await t.token();
    const { data } = await createSubscription(t, token);
    const secret = await t.request('GET', `/v1/subscriptions/${data.id}/secret`, { token });
    assert.equal(secret.status, 200, secret.text);
    assert.match(secret.body.data.secretKey, /^whsec_[A-Za-z0-9+/]{43}=$/);
  });
});

describe('PUT /v1/subscriptions/{id}', () => {
  it('replaces every field; omitted optional fields take their defaults; companies stay', async () => {
    const company = randomUUID();
    const clientId = `client-${randomUUID()}`;
    const token = await t.token({ companies: [company], clientId });
    const created = await createSubscription(t, token, {
      status: 'INACTIVE',
      customHeaders: { 'x-one': '1' },
      endpointAuth: { type: 'BASIC', credentials: { username: 'u', password: 'p' } },
    });
    const { id } = created.data;
    // The same client, another user whose token lists another company besides the subscription's.
    const updater = await t.token({ companies: [randomUUID(), company], clientId });
    const put = await t.request('PUT', `/v1/subscriptions/${id}`, {
      token: updater,
      body: { eventTypes: [EVENT_TYPE], endpointUrl: 'https://example.org/hooks?v=2' },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.data, {
      ...created.data,
      status: 'ACTIVE',
      endpointUrl: 'https://example.org/hooks?v=2',
      endpointAuth: { type: 'NONE' },
      customHeaders: {},
      updatedAt: put.body.data.updatedAt,
    });
    assert.deepEqual(put.body.endpointAuth, { type: 'NONE' });
    assert.deepEqual(put.body.customHeaders, {});
    assert.ok(put.body.data.updatedAt > created.data.updatedAt);
    assert.deepEqual(await stored(id), { owner: clientId, companies: [company], username: null, password: null });
    const got = await t.request('GET', `/v1/subscriptions/${id}`, { token });
    assert.deepEqual(got.body, put.body);
  });

  it('applies the validations and the scope rule of create', async () => {
    const subject = randomUUID();
    const token = await t.token({ subject });
    const { data } = await createSubscription(t, token);
    const invalid = await t.request('PUT', `/v1/subscriptions/${data.id}`, {
      token,
      body: subscriptionBody({ eventTypes: ['v1.nope'], customHeaders: { Host: 'x' } }),
    });
    assert.equal(invalid.status, 400, invalid.text);
    assert.deepEqual(invalid.body.errors.map((e: { path: string }) => e.path).sort(), [
      '/customHeaders/Host',
      '/eventTypes/0',
    ]);
    const reader = await t.token({ scopes: ['export-jobs:read'], subject });
    const forbidden = await t.request('PUT', `/v1/subscriptions/${data.id}`, {
      token: reader,
      body: subscriptionBody(),
    });
    assert.equal(forbidden.status, 403, forbidden.text);
    assert.deepEqual(forbidden.body.missingScopes, ['export-jobs:write']);
    assert.deepEqual((await t.request('GET', `/v1/subscriptions/${data.id}`, { token })).body.data, data);
  });
});

describe('DELETE /v1/subscriptions/{id}', () => {
  it('answers 204, and the subscription, its secrets and its pending messages are gone', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    const { data } = await createSubscription(t, token);
    const [event] = await t.db.query<{ id: string }>(
      `INSERT INTO events (event_type, company_id, data) VALUES ($1, $2, '{}') RETURNING id`,
      [EVENT_TYPE, company],
    );
    const messageId = `msg_${randomUUID().replaceAll('-', '').slice(0, 26)}`;
    await t.db.query('INSERT INTO messages (id, subscription_id, event_id) VALUES ($1, $2, $3)', [
      messageId,
      data.id,
      event?.id,
    ]);
    const deleted = await t.request('DELETE', `/v1/subscriptions/${data.id}`, { token });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal(deleted.text, '');
    const count = async (sql: string, id: string) => (await t.db.query<{ n: number }>(sql, [id]))[0]?.n;
    assert.equal(await count('SELECT count(*)::int AS n FROM messages WHERE id = $1', messageId), 0);
    assert.equal(
      await count('SELECT count(*)::int AS n FROM subscription_secrets WHERE subscription_id = $1', data.id),
      0,
    );
    assert.equal((await t.request('GET', `/v1/subscriptions/${data.id}`, { token })).status, 404);
    const again = await t.request('DELETE', `/v1/subscriptions/${data.id}`, { token });
    assert.equal(again.status, 404);
    assert.equal(again.body.type, 'SUBSCRIPTION_NOT_FOUND');
  });
});

describe("another client's subscription", () => {
  it('is 404 SUBSCRIPTION_NOT_FOUND for read, update, delete, secret and rotate, and stays unchanged', async () => {
    const company = randomUUID();
    const owner = await t.token({ companies: [company], clientId: `owner-${randomUUID()}` });
    const { data } = await createSubscription(t, owner);
    const secret = (await t.request('GET', `/v1/subscriptions/${data.id}/secret`, { token: owner })).body.data
      .secretKey;
    // Same company, every scope, but another client; and a user of no client.
    for (const stranger of [
      await t.token({ companies: [company], clientId: `other-${randomUUID()}` }),
      await t.token({ companies: [company] }),
    ]) {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['PUT', '', subscriptionBody({ endpointUrl: 'https://attacker.example/hook' })],
        ['DELETE', '', undefined],
        ['GET', '/secret', undefined],
        ['POST', '/secret:rotate', undefined],
      ] as const) {
        const response = await t.request(method, `/v1/subscriptions/${data.id}${path}`, { token: stranger, body });
        assert.equal(response.status, 404, `${method} ${path}: ${response.text}`);
        assert.equal(response.body.type, 'SUBSCRIPTION_NOT_FOUND');
      }
      const list = await t.request('GET', '/v1/subscriptions', { token: stranger });
      assert.ok(!list.body.data.some((s: { id: string }) => s.id === data.id));
    }
    const got = await t.request('GET', `/v1/subscriptions/${data.id}`, { token: owner });
    assert.deepEqual(got.body.data, data);
    const after = await t.request('GET', `/v1/subscriptions/${data.id}/secret`, { token: owner });
    assert.equal(after.body.data.secretKey, secret);
  });

  it('is 404 for an id that does not exist, and 400 for an id that is not a uuid', async () => {
    const token = await t.token();
    const missing = await t.request('GET', `/v1/subscriptions/${randomUUID()}`, { token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'SUBSCRIPTION_NOT_FOUND');
    const malformed = await t.request('GET', '/v1/subscriptions/not-a-uuid', { token });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errors[0].path, '/id');
  });
});

describe('the OpenAPI document', () => {
  it("names the subscription operations as the reference API does, under 'Webhook subscriptions'", async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    const operations: string[] = [];
    for (const [path, ops] of Object.entries(
      paths as Record<string, Record<string, { operationId: string; tags: string[] }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.tags?.includes('Webhook subscriptions'))
          operations.push(`${method.toUpperCase()} ${path} ${op.operationId}`);
      }
    }
    assert.deepEqual(operations.sort(), [
      'DELETE /v1/subscriptions/{id} deleteSubscription',
      'GET /v1/subscriptions getSubscriptions',
      'GET /v1/subscriptions/{id} getSubscriptionById',
      'GET /v1/subscriptions/{id}/activities getSubscriptionActivities',
      'GET /v1/subscriptions/{id}/secret getSubscriptionSecret',
      'POST /v1/subscriptions createSubscription',
      'POST /v1/subscriptions/{id}/secret:rotate rotateSubscriptionSecret',
      'PUT /v1/subscriptions/{id} updateSubscription',
    ]);
  });
});
