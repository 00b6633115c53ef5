// v1.subscription.disabled (docs/decisions/events.md): when the service makes a subscription
// INACTIVE (its endpoint kept failing, or its client was revoked) it records one notice per
// subscription, in the disabling transaction, of no company and for the owner's other ACTIVE
// subscriptions of the type, whatever their companies; another owner's hear nothing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { createClient, revokeClientById } from '../../src/credentials/operations.ts';
import { isoTimestamp } from '../../src/db/iso-timestamp.ts';
import { disableFailingSubscriptions, MIN_FAILED_MESSAGES } from '../../src/webhooks/auto-disable.ts';
import { SubscriptionDisabledSchema } from '../../src/webhooks/event-types.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { eventsOfCompany } from '../support/events.ts';
import { insertSubscription, markFailingFor, startReceiver, startTestWorker } from '../webhooks/delivery/fixtures.ts';

const { t } = await startCompanyTestApp();

const MINUTE = 60_000;
const DISABLED = 'v1.subscription.disabled';

const ajv = new Ajv({ strict: false });
addFormats.default(ajv);
const validateNotice = ajv.compile(SubscriptionDisabledSchema);

/** The v1.subscription.disabled events of `owner`, oldest first. */
async function disabledEventsOf(owner: string) {
  return t.db.query<{ id: string; companyId: string | null; data: Record<string, unknown> }>(
    `SELECT id, company_id AS "companyId", data FROM events WHERE owner = $1 AND event_type = $2 ORDER BY sequence`,
    [owner, DISABLED],
  );
}

/** The subscriptions that got a message of the event. */
async function recipientsOf(eventId: string): Promise<string[]> {
  const rows = await t.db.query<{ id: string }>('SELECT subscription_id AS id FROM messages WHERE event_id = $1', [
    eventId,
  ]);
  return rows.map((row) => row.id);
}

async function subscribe(token: string, eventTypes: string[], endpointUrl: string, customHeaders = {}) {
  const created = await t.request('POST', '/v1/subscriptions', {
    token,
    body: { eventTypes, endpointUrl, customHeaders },
  });
  assert.equal(created.status, 200, created.text);
  return created.body.data as { id: string; updatedAt: string };
}

describe('v1.subscription.disabled', () => {
  it("auto-disable tells the owner's other subscriptions, of any company, and no one else's", async () => {
    const owner = randomUUID();
    const [companyA, companyB] = [randomUUID(), randomUUID()];
    const tokenA = await t.token({ companies: [companyA], clientId: owner });
    // The type needs no scope: a credential that reads only tax codes subscribes to it.
    const tokenB = await t.token({ companies: [companyB], clientId: owner, scopes: ['tax-codes:read'] });
    const receiver = await startReceiver();
    const dead = await subscribe(tokenA, ['v1.export-job.created'], 'https://example.com/dead', {
      'x-endpoint-key': 'the endpoint credential',
    });
    const listener = await subscribe(tokenB, [DISABLED], receiver.url);
    const strangerToken = await t.token({ companies: [companyA], clientId: randomUUID() });
    const stranger = await subscribe(strangerToken, [DISABLED], 'https://example.com/stranger');
    await markFailingFor(t.db, dead.id, 10 * MINUTE, MIN_FAILED_MESSAGES);

    assert.deepEqual(await disableFailingSubscriptions(t.db, 5 * MINUTE, 100), [dead.id]);

    const disabledNow = (await t.request('GET', `/v1/subscriptions/${dead.id}`, { token: tokenA })).body.data;
    assert.equal(disabledNow.status, 'INACTIVE');
    const events = await disabledEventsOf(owner);
    assert.equal(events.length, 1);
    const [event] = events;
    assert.ok(event);
    const notice = {
      subscriptionId: dead.id,
      endpointUrl: 'https://example.com/dead',
      eventTypes: ['v1.export-job.created'],
      reason: 'ENDPOINT_FAILING',
      disabledAt: disabledNow.updatedAt,
    };
    assert.deepEqual(event.data, notice);
    assert.ok(validateNotice(event.data), ajv.errorsText(validateNotice.errors));
    assert.equal(event.companyId, null);
    assert.deepEqual(
      (await eventsOfCompany(t.db, companyA)).filter((e) => e.eventType === DISABLED),
      [],
      "in no company's feed",
    );
    assert.deepEqual(await recipientsOf(event.id), [listener.id], 'the stranger and the disabled one get none');
    const strangerMessages = await t.request('GET', `/v1/subscriptions/${stranger.id}/messages`, {
      token: strangerToken,
    });
    assert.deepEqual(strangerMessages.body.data, [], "another owner's subscription of the type hears nothing");

    // Delivered as any event, without the disabled subscription's custom headers.
    const worker = await startTestWorker(t.db);
    try {
      const delivered = await receiver.nth(1);
      const { payload } = JSON.parse(delivered.body);
      assert.equal(payload.eventType, DISABLED);
      assert.equal(payload.eventId, event.id);
      assert.deepEqual(payload.data, notice);
      assert.equal(payload.previousAttributes, undefined);
      assert.doesNotMatch(delivered.body, /the endpoint credential/);
    } finally {
      await worker.stop();
      await receiver.close();
    }
  });

  it("a client's revocation records one per subscription it made INACTIVE, heard by none", async () => {
    const company = randomUUID();
    const { client } = await createClient(t.db, Buffer.from('pepper'), {
      name: 'Integration to revoke',
      companies: [company],
      scope: 'export-jobs:write',
    });
    const active = await insertSubscription(t.db, {
      owner: client.id,
      companies: [company],
      endpointUrl: 'https://example.com/active',
    });
    const listening = await insertSubscription(t.db, {
      owner: client.id,
      companies: [company],
      eventTypes: [DISABLED],
      endpointUrl: 'https://example.com/listening',
    });
    // Already INACTIVE: the revocation does not disable it, so tells nothing of it.
    await insertSubscription(t.db, {
      owner: client.id,
      companies: [company],
      status: 'INACTIVE',
      endpointUrl: 'https://example.com/paused',
    });

    assert.deepEqual(await revokeClientById(t.db, client.id), { subscriptions: 3, messages: 0 });

    const stored = await t.db.query<{ id: string; updatedAt: string }>(
      `SELECT id, ${isoTimestamp('updated_at')} AS "updatedAt" FROM subscriptions WHERE id = ANY($1::uuid[])`,
      [[active.id, listening.id]],
    );
    const disabledAt = new Map(stored.map((row) => [row.id, row.updatedAt]));
    const events = await disabledEventsOf(client.id);
    assert.deepEqual(
      events.map((e) => e.data).sort((a, b) => String(a.subscriptionId).localeCompare(String(b.subscriptionId))),
      [
        {
          subscriptionId: active.id,
          endpointUrl: 'https://example.com/active',
          eventTypes: ['v1.export-job.created'],
          reason: 'CLIENT_REVOKED',
          disabledAt: disabledAt.get(active.id),
        },
        {
          subscriptionId: listening.id,
          endpointUrl: 'https://example.com/listening',
          eventTypes: [DISABLED],
          reason: 'CLIENT_REVOKED',
          disabledAt: disabledAt.get(listening.id),
        },
      ].sort((a, b) => a.subscriptionId.localeCompare(b.subscriptionId)),
    );
    for (const event of events) {
      assert.equal(event.companyId, null);
      // Every subscription of the owner stopped at once: none is left to hear it.
      assert.deepEqual(await recipientsOf(event.id), []);
    }
    assert.equal(await revokeClientById(t.db, client.id), undefined, 'revoked once');
    assert.equal((await disabledEventsOf(client.id)).length, 2);
  });
});
