// Who reaches a subscription (docs/decisions/subscriptions.md): a token of its owner that may read
// every company it delivers for. Two tokens of one client for different companies do not share
// subscriptions, so the token of company B cannot read A's secret, repoint A's subscription to its
// own receiver, resend or recover A's messages there, or read its health, while A keeps every right.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { startReceiver, startTestWorker, type TestReceiver, type TestWorker } from '../webhooks/delivery/fixtures.ts';
import { createSubscription, subscriptionBody } from './fixtures.ts';

let t: TestApp;
let worker: TestWorker;
let receiverOfA: TestReceiver;
let receiverOfB: TestReceiver;
const client = `client-${randomUUID()}`;
const companyA = randomUUID();
const companyB = randomUUID();
let tokenA: string;
let tokenB: string;
let tokenAB: string;
let subscriptionId: string;
let secretOfA: string;
let messageId: string;
let exportJobId: string;

before(async () => {
  t = await startTestApp();
  worker = await startTestWorker(t.db);
  receiverOfA = await startReceiver();
  receiverOfB = await startReceiver();
  tokenA = await t.token({ clientId: client, companies: [companyA] });
  tokenB = await t.token({ clientId: client, companies: [companyB] });
  tokenAB = await t.token({ clientId: client, companies: [companyA, companyB] });
  subscriptionId = (await createSubscription(t, tokenA, { endpointUrl: receiverOfA.url })).data.id;
  secretOfA = (await t.request('GET', `/v1/subscriptions/${subscriptionId}/secret`, { token: tokenA })).body.data
    .secretKey;

  const job = await t.request('POST', '/v2/export-jobs', { token: tokenA, body: { companyId: companyA } });
  assert.equal(job.status, 201, job.text);
  exportJobId = job.body.data.id;
  const delivered = await receiverOfA.nth(1);
  assert.equal(JSON.parse(delivered.body).payload.data.id, exportJobId);
  messageId = delivered.headers['webhook-id'] as string;
  // Recorded before the resend below: a resend while the attempt is in flight is settled by that
  // attempt's record (docs/decisions/webhook-delivery.md, "A resend while an attempt is in flight").
  await worker.recorded(1, messageId);
});
after(async () => {
  await worker.stop();
  await receiverOfA.close();
  await receiverOfB.close();
  await t.close();
});

describe("a token of another company of the same client and company A's subscription", { timeout: 30_000 }, () => {
  it('does not list it, and lists only what it reaches', async () => {
    const own = (await createSubscription(t, tokenB, { endpointUrl: receiverOfB.url })).data.id;
    const asB = await t.request('GET', '/v1/subscriptions', { token: tokenB });
    assert.equal(asB.status, 200, asB.text);
    assert.deepEqual(
      asB.body.data.map((s: { id: string }) => s.id),
      [own],
    );
    const asA = await t.request('GET', '/v1/subscriptions', { token: tokenA });
    assert.deepEqual(
      asA.body.data.map((s: { id: string }) => s.id),
      [subscriptionId],
    );
    await t.request('DELETE', `/v1/subscriptions/${own}`, { token: tokenB });
  });

  it('is answered 404 SUBSCRIPTION_NOT_FOUND on every route, as if it did not exist', async () => {
    const base = `/v1/subscriptions/${subscriptionId}`;
    const body = subscriptionBody({ endpointUrl: receiverOfB.url });
    for (const [method, url, sent] of [
      ['GET', base],
      ['PUT', base, body],
      ['GET', `${base}/secret`],
      ['POST', `${base}/secret:rotate`],
      ['GET', `${base}/messages`],
      ['GET', `${base}/messages/${messageId}/attempts`],
      ['POST', `${base}/messages/${messageId}:resend`],
      ['POST', `${base}:recover`, { since: '2020-01-01T00:00:00Z' }],
      ['GET', `${base}/health`],
      ['DELETE', base],
    ] as const) {
      const response = await t.request(method, url, { token: tokenB, body: sent });
      assert.equal(response.status, 404, `${method} ${url}: ${response.text}`);
      assert.equal(response.body.type, 'SUBSCRIPTION_NOT_FOUND', `${method} ${url}`);
      assert.equal(response.text.includes(secretOfA) || response.text.includes(exportJobId), false);
    }
  });

  it('changed nothing: A reads it as it was, with its secret, and a resend reaches only A', async () => {
    const asA = await t.request('GET', `/v1/subscriptions/${subscriptionId}`, { token: tokenA });
    assert.equal(asA.status, 200, asA.text);
    assert.equal(asA.body.data.endpointUrl, receiverOfA.url);
    const secret = await t.request('GET', `/v1/subscriptions/${subscriptionId}/secret`, { token: tokenA });
    assert.equal(secret.body.data.secretKey, secretOfA);

    const resend = await t.request('POST', `/v1/subscriptions/${subscriptionId}/messages/${messageId}:resend`, {
      token: tokenA,
    });
    assert.equal(resend.status, 202, resend.text);
    const again = await receiverOfA.nth(2);
    assert.equal(again.headers['webhook-id'], messageId);
    assert.equal(receiverOfB.requests.length, 0);
  });

  it('is reached by a token of the same client for A and more companies, but A alone does not reach theirs', async () => {
    const listed = await t.request('GET', '/v1/subscriptions', { token: tokenAB });
    assert.ok(listed.body.data.some((s: { id: string }) => s.id === subscriptionId));
    const wider = (await createSubscription(t, tokenAB)).data.id;
    for (const token of [tokenA, tokenB]) {
      const response = await t.request('GET', `/v1/subscriptions/${wider}`, { token });
      assert.equal(response.status, 404, response.text);
    }
    const asAB = await t.request('GET', `/v1/subscriptions/${wider}`, { token: tokenAB });
    assert.equal(asAB.status, 200, asAB.text);
  });
});
