// POST /v1/subscriptions/{id}:test: an event of one of the subscription's types with the registry's
// example data, queued for that subscription alone and delivered by the normal worker, signed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { findEventType } from '../../src/webhooks/event-types.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import {
  insertSubscription,
  startReceiver,
  startTestWorker,
  type TestReceiver,
  type TestSubscription,
  type TestWorker,
} from '../webhooks/delivery/fixtures.ts';

let t: TestApp;
let worker: TestWorker;
let receiver: TestReceiver;
let subscription: TestSubscription;
// Another subscription of the same owner, company and type: it must not get the test event.
let sibling: TestSubscription;
let token: string;

const owner = randomUUID();
const company = randomUUID();
const EVENT_TYPES = ['v1.account.updated', 'v1.tax-code.created'];

before(async () => {
  t = await startTestApp();
  worker = await startTestWorker(t.db);
  receiver = await startReceiver();
  token = await t.token({ subject: owner, companies: [company] });
  subscription = await insertSubscription(t.db, {
    endpointUrl: receiver.url,
    companies: [company],
    owner,
    eventTypes: EVENT_TYPES,
  });
  sibling = await insertSubscription(t.db, {
    endpointUrl: `${receiver.url}/sibling`,
    companies: [company],
    owner,
    eventTypes: EVENT_TYPES,
  });
});
after(async () => {
  await worker.stop();
  await receiver.close();
  await t.close();
});

const signatureHeaders = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

const sendTest = (subscriptionId: string, body: unknown, as = token) =>
  t.request('POST', `/v1/subscriptions/${subscriptionId}:test`, { token: as, body });

describe('POST /v1/subscriptions/{id}:test', () => {
  it('delivers the example event to this subscription only, signed, and lists it in the delivery log', async () => {
    const response = await sendTest(subscription.id, { eventType: 'v1.account.updated' });
    assert.equal(response.status, 202, response.text);
    const message = response.body.data;
    assert.equal(message.eventType, 'v1.account.updated');
    assert.equal(message.status, 'pending');

    const delivered = await receiver.nth(1);
    assert.equal(delivered.url, '/hook');
    assert.equal(delivered.headers['webhook-id'], message.id);
    const verified = new Webhook(subscription.secrets.at(-1) as string).verify(
      delivered.body,
      signatureHeaders(delivered.headers),
    ) as { payload: Record<string, unknown> };
    const definition = findEventType('v1.account.updated');
    assert.deepEqual(verified.payload.data, definition?.exampleData);
    assert.deepEqual(verified.payload.previousAttributes, definition?.examplePreviousAttributes);
    assert.equal(verified.payload.eventId, message.eventId);

    await worker.recorded(1, message.id);
    const log = await t.request('GET', `/v1/subscriptions/${subscription.id}/messages`, { token });
    assert.deepEqual(
      log.body.data.map((m: { id: string; status: string }) => [m.id, m.status]),
      [[message.id, 'delivered']],
    );
    const siblingLog = await t.request('GET', `/v1/subscriptions/${sibling.id}/messages`, { token });
    assert.deepEqual(siblingLog.body.data, []);
    const [event] = await t.db.query<{ companyId: string | null; owner: string | null }>(
      'SELECT company_id AS "companyId", owner FROM events WHERE id = $1',
      [message.eventId],
    );
    assert.deepEqual(event, { companyId: null, owner: null });
    const feed = await t.request('GET', `/v1/events?company_id=${company}`, { token });
    assert.deepEqual(feed.body.data, []);
  });

  it('answers 400 for a type the subscription does not carry, and for an unknown one', async () => {
    for (const eventType of ['v1.account.deleted', 'v1.nothing.happened']) {
      const response = await sendTest(subscription.id, { eventType });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.errors[0].path, '/eventType');
    }
    assert.equal((await sendTest(subscription.id, {})).status, 400);
  });

  it('answers 409 for an INACTIVE subscription and records nothing', async () => {
    const inactive = await insertSubscription(t.db, {
      endpointUrl: receiver.url,
      companies: [company],
      owner,
      status: 'INACTIVE',
      eventTypes: EVENT_TYPES,
    });
    const stopped = await insertSubscription(t.db, {
      endpointUrl: receiver.url,
      companies: [company],
      owner,
      eventTypes: EVENT_TYPES,
    });
    await t.db.query("UPDATE subscriptions SET status = 'INACTIVE', status_reason = 'ENDPOINT_FAILING' WHERE id = $1", [
      stopped.id,
    ]);
    const [before] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM events');
    for (const id of [inactive.id, stopped.id]) {
      const response = await sendTest(id, { eventType: 'v1.tax-code.created' });
      assert.equal(response.status, 409, response.text);
      assert.equal(response.body.type, 'SUBSCRIPTION_DISABLED');
    }
    const [afterwards] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM events');
    assert.deepEqual(afterwards, before);
  });

  it("needs the scopes that manage the subscription's types, and answers 404 out of reach", async () => {
    // A subscription's types are managed with every scope subscribing to them needs.
    const accountsOnly = await t.token({ subject: owner, companies: [company], scopes: ['accounts:read'] });
    const forbidden = await sendTest(subscription.id, { eventType: 'v1.account.updated' }, accountsOnly);
    assert.equal(forbidden.status, 403, forbidden.text);
    assert.deepEqual(forbidden.body.missingScopes, ['tax-codes:read']);
    const stranger = await t.token({ companies: [company] });
    const hidden = await sendTest(subscription.id, { eventType: 'v1.account.updated' }, stranger);
    assert.equal(hidden.status, 404, hidden.text);
  });
});
