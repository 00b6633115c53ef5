// An owner (the token's client, else its subject) has at most WEBHOOK_MAX_SUBSCRIPTIONS_PER_OWNER
// subscriptions: each may hold delivery slots, so their number bounds what one owner costs the others
// (docs/decisions/tenant-isolation.md).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { createSubscription, subscriptionBody } from './fixtures.ts';

const LIMIT = 3;

let t: TestApp;
before(async () => {
  t = await startTestApp({ webhookMaxSubscriptionsPerOwner: LIMIT });
});
after(() => t.close());

const ownedBy = async (owner: string) => {
  const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM subscriptions WHERE owner = $1', [
    owner,
  ]);
  return row?.n;
};

describe('the subscriptions of one owner', () => {
  it('are limited: one more answers 409 SUBSCRIPTION_LIMIT_REACHED and creates nothing', async () => {
    const clientId = `client-${randomUUID()}`;
    const token = await t.token({ companies: [randomUUID()], clientId });
    for (let i = 0; i < LIMIT; i++) await createSubscription(t, token);

    // Another of the client's tokens, for another company, counts under the same owner.
    const otherCompany = await t.token({ companies: [randomUUID()], clientId });
    const refused = await t.request('POST', '/v1/subscriptions', { token: otherCompany, body: subscriptionBody() });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.type, 'SUBSCRIPTION_LIMIT_REACHED');
    assert.match(refused.body.detail, new RegExp(`most it may have \\(${LIMIT}\\)`));
    assert.equal(await ownedBy(clientId), LIMIT);

    // Another owner is not held by this one's limit.
    await createSubscription(t, await t.token({ companies: [randomUUID()], clientId: `client-${randomUUID()}` }));

    // Deleting one makes room for one.
    const { body: page } = await t.request('GET', '/v1/subscriptions', { token });
    const first = page.data[0].id;
    assert.equal((await t.request('DELETE', `/v1/subscriptions/${first}`, { token })).status, 204);
    await createSubscription(t, token);
    assert.equal(await ownedBy(clientId), LIMIT);
  });

  it('are limited also when created at once', async () => {
    const clientId = `client-${randomUUID()}`;
    const token = await t.token({ companies: [randomUUID()], clientId });
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 3 }, () =>
        t.request('POST', '/v1/subscriptions', { token, body: subscriptionBody() }),
      ),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 200, 409, 409, 409]);
    assert.equal(await ownedBy(clientId), LIMIT);
  });
});
