// A tenant (a client, else the token's subject, for one set of companies) has at most
// WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT subscriptions: each may hold delivery slots, so their number
// bounds what one tenant costs the others (docs/decisions/tenant-isolation.md).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { createSubscription, subscriptionBody } from './fixtures.ts';

const LIMIT = 3;

let t: TestApp;
before(async () => {
  t = await startTestApp({ webhookMaxSubscriptionsPerTenant: LIMIT });
});
after(() => t.close());

const countOf = async (owner: string) => {
  const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM subscriptions WHERE owner = $1', [
    owner,
  ]);
  return row?.n;
};

describe('the subscriptions of one tenant', () => {
  it('are limited: one more answers 409 SUBSCRIPTION_LIMIT_REACHED and creates nothing', async () => {
    const clientId = `client-${randomUUID()}`;
    const company = randomUUID();
    const token = await t.token({ companies: [company], clientId });
    for (let i = 0; i < LIMIT; i++) await createSubscription(t, token);

    // Another token of the same client for the same company is the same tenant.
    const sameTenant = await t.token({ companies: [company], clientId });
    const refused = await t.request('POST', '/v1/subscriptions', { token: sameTenant, body: subscriptionBody() });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.type, 'SUBSCRIPTION_LIMIT_REACHED');
    assert.match(refused.body.detail, new RegExp(`most it may have \\(${LIMIT}\\)`));
    assert.equal(await countOf(clientId), LIMIT);

    // Deleting one makes room for one.
    const { body: page } = await t.request('GET', '/v1/subscriptions', { token });
    const first = page.data[0].id;
    assert.equal((await t.request('DELETE', `/v1/subscriptions/${first}`, { token })).status, 204);
    await createSubscription(t, token);
    assert.equal(await countOf(clientId), LIMIT);
  });

  it("does not hold another company's subscriptions of the same client, nor another client's", async () => {
    const clientId = `client-${randomUUID()}`;
    const company = randomUUID();
    const token = await t.token({ companies: [company], clientId });
    for (let i = 0; i < LIMIT; i++) await createSubscription(t, token);

    await createSubscription(t, await t.token({ companies: [randomUUID()], clientId }));
    await createSubscription(t, await t.token({ companies: [company, randomUUID()], clientId }));
    await createSubscription(t, await t.token({ companies: [company], clientId: `client-${randomUUID()}` }));
    assert.equal(await countOf(clientId), LIMIT + 2);
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
    assert.equal(await countOf(clientId), LIMIT);
  });
});
