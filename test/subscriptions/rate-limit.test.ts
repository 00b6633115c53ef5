// rateLimitPerSecond (docs/decisions/subscriptions.md, "Rate limit"): set on create or PUT, kept by a
// PUT without it, removed by null, refused with a 400 naming it when it is not an integer from 1 to
// 1000; shown in the subscription, its list, its health and its trail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { createSubscription, errorPaths, subscriptionBody } from './fixtures.ts';

const { t, token } = await startCompanyTestApp();

const put = (id: string, fields: Record<string, unknown>) =>
  t.request('PUT', `/v1/subscriptions/${id}`, { token, body: subscriptionBody(fields) });

describe('rateLimitPerSecond', () => {
  it('is null unless set, set on create, kept by a PUT without it, removed by null', async () => {
    assert.equal((await createSubscription(t, token)).data.rateLimitPerSecond, null);
    const { data } = await createSubscription(t, token, { rateLimitPerSecond: 20 });
    assert.equal(data.rateLimitPerSecond, 20);
    const read = await t.request('GET', `/v1/subscriptions/${data.id}`, { token });
    assert.equal(read.body.data.rateLimitPerSecond, 20);
    const listed = await t.request('GET', '/v1/subscriptions', { token });
    assert.equal(listed.body.data.find((s: { id: string }) => s.id === data.id).rateLimitPerSecond, 20);
    const health = await t.request('GET', `/v1/subscriptions/${data.id}/health`, { token });
    assert.equal(health.body.data.rateLimitPerSecond, 20);

    // A client of the reference knows no such field: its PUT leaves the rate as it was.
    assert.equal((await put(data.id, { status: 'INACTIVE' })).body.data.rateLimitPerSecond, 20);
    assert.equal((await put(data.id, { rateLimitPerSecond: 5 })).body.data.rateLimitPerSecond, 5);
    assert.equal((await put(data.id, { rateLimitPerSecond: null })).body.data.rateLimitPerSecond, null);
    const after = await t.request('GET', `/v1/subscriptions/${data.id}/health`, { token });
    assert.equal(after.body.data.rateLimitPerSecond, null);
  });

  it('is an integer from 1 to 1000: anything else is a 400 naming it, and changes nothing', async () => {
    const { data } = await createSubscription(t, token, { rateLimitPerSecond: 7 });
    for (const bad of [0, -1, 1001, 2.5, '20', true, {}]) {
      const created = await t.request('POST', '/v1/subscriptions', {
        token,
        body: subscriptionBody({ rateLimitPerSecond: bad }),
      });
      assert.deepEqual(errorPaths(created), ['/rateLimitPerSecond'], `${JSON.stringify(bad)}: ${created.text}`);
      assert.equal(created.body.type, 'VALIDATION_FAILED');
      assert.deepEqual(errorPaths(await put(data.id, { rateLimitPerSecond: bad })), ['/rateLimitPerSecond']);
    }
    const read = await t.request('GET', `/v1/subscriptions/${data.id}`, { token });
    assert.equal(read.body.data.rateLimitPerSecond, 7);
    const edges = [1, 1000].map((rate) => createSubscription(t, token, { rateLimitPerSecond: rate }));
    assert.deepEqual(
      (await Promise.all(edges)).map((s) => s.data.rateLimitPerSecond),
      [1, 1000],
    );
  });

  it('a misspelt name is an unknown property, with the right one suggested', async () => {
    const answer = await t.request('POST', '/v1/subscriptions', {
      token,
      body: subscriptionBody({ rateLimitPerSecnd: 20 }),
    });
    assert.deepEqual(errorPaths(answer), ['/rateLimitPerSecnd']);
    assert.match(answer.text, /did you mean \\"rateLimitPerSecond\\"/);
  });

  it('a change of it is in the trail', async () => {
    const { data } = await createSubscription(t, token);
    await put(data.id, { rateLimitPerSecond: 50 });
    const trail = await t.request('GET', `/v1/subscriptions/${data.id}/activities`, { token });
    const update = trail.body.data.find((a: { operationType: string }) => a.operationType === 'UPDATE');
    assert.deepEqual(
      update.changes.find((c: { field: string }) => c.field === 'rateLimitPerSecond'),
      { field: 'rateLimitPerSecond', before: null, after: 50 },
    );
  });
});
