// Revoking a client stops its webhooks (docs/decisions/subscriptions.md, "A revoked client's
// subscriptions"): through the code `ledgerhook clients revoke` runs, beside a running worker, its
// subscriptions turn INACTIVE for CLIENT_REVOKED, what was queued is failed unsent, later events are
// not sent, and nothing makes them ACTIVE again. Another client's subscription to the same company
// keeps receiving, and tells when the worker has moved past the revoked client's messages.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../src/auth/mint-token.ts';
import { type CreatedClient, revokeClientById } from '../../src/credentials/operations.ts';
import { type CredentialsApp, startCredentialsApp } from '../credentials/support.ts';
import { TEST_JWT_SECRET } from '../support/harness.ts';
import {
  EVENT_TYPE,
  emitEvent,
  insertSubscription,
  startReceiver,
  startTestWorker,
  type TestReceiver,
  type TestWorker,
} from '../webhooks/delivery/fixtures.ts';

let t: CredentialsApp;
let worker: TestWorker | undefined;
let receiverOfClient: TestReceiver;
let receiverOfOther: TestReceiver;
const company = randomUUID();
let client: CreatedClient;
let token: string;
let subscriptionId: string;

before(async () => {
  t = await startCredentialsApp({ webhookAllowPrivateTargets: true });
  receiverOfClient = await startReceiver();
  receiverOfOther = await startReceiver();
  client = await t.createClient({ scope: 'export-jobs:write', companies: [company] });
  const issued = await t.token({
    grant_type: 'client_credentials',
    client_id: client.client.id,
    client_secret: client.clientSecret,
  });
  assert.equal(issued.status, 200, issued.text);
  token = issued.body.access_token;
  const created = await t.request('POST', '/v1/subscriptions', {
    headers: { authorization: `Bearer ${token}` },
    body: { eventTypes: [EVENT_TYPE], endpointUrl: receiverOfClient.url },
  });
  assert.equal(created.status, 200, created.text);
  subscriptionId = created.body.data.id;
  await insertSubscription(t.db, { endpointUrl: receiverOfOther.url, companies: [company] });
});
after(async () => {
  await worker?.stop();
  await receiverOfClient.close();
  await receiverOfOther.close();
  await t.close();
});

const stored = async () =>
  (
    await t.db.query<{ status: string; reason: string | null }>(
      'SELECT status, status_reason AS reason FROM subscriptions WHERE id = $1',
      [subscriptionId],
    )
  )[0];
const messageStatuses = async () =>
  (
    await t.db.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM messages WHERE subscription_id = $1 ORDER BY created_at, id',
      [subscriptionId],
    )
  ).map((m) => `${m.status}/${m.attempts}`);

describe('revoking a client', { timeout: 60_000 }, () => {
  it('stops its subscription: queued messages are failed unsent, later events are not delivered', async () => {
    worker = await startTestWorker(t.db);
    await emitEvent(t.db, company);
    await receiverOfClient.nth(1);
    await receiverOfOther.nth(1);

    // A message queued while no worker runs, then the revocation.
    await worker.stop();
    worker = undefined;
    await emitEvent(t.db, company);
    assert.deepEqual(await messageStatuses(), ['delivered/1', 'pending/0']);
    assert.deepEqual(await revokeClientById(t.db, client.client.id), { subscriptions: 1, messages: 1 });
    assert.deepEqual(await stored(), { status: 'INACTIVE', reason: 'CLIENT_REVOKED' });
    assert.deepEqual(await messageStatuses(), ['delivered/1', 'failed/0']);

    // An event whose transaction read the subscription before the revocation committed still adds a
    // message to it; the worker fails it at claim time instead of sending it.
    const [event] = await t.db.query<{ id: string }>(
      `INSERT INTO events (event_type, company_id, data) VALUES ($1, $2, '{}') RETURNING id`,
      [EVENT_TYPE, company],
    );
    await t.db.query('INSERT INTO messages (id, subscription_id, event_id) VALUES (new_message_id(), $1, $2)', [
      subscriptionId,
      event?.id,
    ]);

    worker = await startTestWorker(t.db);
    await emitEvent(t.db, company); // fans out to the other client only
    await receiverOfOther.nth(3);
    await worker.recorded(2); // the other subscription's two messages since the restart
    assert.equal(receiverOfOther.requests.length, 3, 'the other subscription got every event');
    assert.equal(receiverOfClient.requests.length, 1, 'nothing after the revocation reached the revoked client');
    assert.deepEqual(await messageStatuses(), ['delivered/1', 'failed/0', 'failed/0']);
  });

  it("refuses the revoked client's token, and no token naming the client makes the subscription ACTIVE", async () => {
    const asRevoked = await t.request('GET', `/v1/subscriptions/${subscriptionId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(asRevoked.status, 401, asRevoked.text);

    // An external token that claims the revoked client's id reads it INACTIVE and cannot re-activate it.
    const claimingClient = await mintToken(TEST_JWT_SECRET, {
      subject: randomUUID(),
      clientId: client.client.id,
      companies: [company],
      scope: 'export-jobs:write',
    });
    const headers = { authorization: `Bearer ${claimingClient}` };
    const read = await t.request('GET', `/v1/subscriptions/${subscriptionId}`, { headers });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.data.status, 'INACTIVE');
    assert.equal(read.body.data.statusReason, 'CLIENT_REVOKED', 'the answer says why');
    const body = { eventTypes: [EVENT_TYPE], endpointUrl: receiverOfClient.url };
    const reactivate = await t.request('PUT', `/v1/subscriptions/${subscriptionId}`, { headers, body });
    assert.equal(reactivate.status, 403, reactivate.text);
    assert.match(reactivate.body.detail, /revoked/);
    const edit = await t.request('PUT', `/v1/subscriptions/${subscriptionId}`, {
      headers,
      body: { ...body, status: 'INACTIVE' },
    });
    assert.equal(edit.status, 200, edit.text);
    assert.equal(edit.body.data.statusReason, 'CLIENT_REVOKED');
    assert.deepEqual(await stored(), { status: 'INACTIVE', reason: 'CLIENT_REVOKED' });

    // Nor can it create a subscription the revoked client would own.
    const count = async () => (await t.db.query('SELECT 1 FROM subscriptions')).length;
    const subscriptions = await count();
    const created = await t.request('POST', '/v1/subscriptions', { headers, body });
    assert.equal(created.status, 403, created.text);
    assert.match(created.body.detail, /revoked/);
    assert.equal(await count(), subscriptions, 'nothing created');
  });
});
