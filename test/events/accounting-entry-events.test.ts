// The accounting entry events (docs/decisions/events.md): v1.accounting-entry.created and .deleted,
// each recorded with its change; entries are never changed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { entryFixtures } from '../accounting-entries/fixtures.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { eventsDuring } from '../support/events.ts';

const { t, company, token, freshCompany } = await startCompanyTestApp();
const { createAccount, newEntry, createEntry } = entryFixtures({ t, company, token });

async function getEntry(id: string) {
  const response = await t.request('GET', `/v1-beta/accounting-entries/${id}`, { token });
  assert.equal(response.status, 200, response.text);
  return response.body.data;
}

async function entryCount(): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM accounting_entries WHERE company_id = $1',
    [company],
  );
  return row?.n ?? -1;
}

const eventsOf = (change: () => Promise<unknown>) => eventsDuring(t.db, company, change);

describe('v1.accounting-entry.created', () => {
  it('records one event whose data is the entry as GET answers it', async () => {
    let entry: { id: string } = { id: '' };
    const events = await eventsOf(async () => {
      entry = await createEntry({ amount: '1234567.89' });
    });
    assert.deepEqual(
      events.map((event) => event.eventType),
      ['v1.accounting-entry.created'],
    );
    assert.deepEqual(events[0]?.data, await getEntry(entry.id));
    assert.equal(events[0]?.previousAttributes, undefined);
  });

  it('records nothing for an entry refused for its account (400 UNKNOWN_ACCOUNT)', async () => {
    const other = await freshCompany();
    const othersAccount = await createAccount(other.companyId, other.token);
    const events = await eventsOf(async () => {
      for (const account of [othersAccount, randomUUID()]) {
        const response = await t.request('POST', '/v1-beta/accounting-entries', {
          token,
          body: newEntry({ accountId: account }),
        });
        assert.equal(response.status, 400, response.text);
        assert.equal(response.body.type, 'UNKNOWN_ACCOUNT');
      }
    });
    assert.deepEqual(events, []);
  });
});

describe('v1.accounting-entry.deleted', () => {
  it("records the entry's last state", async () => {
    const entry = await createEntry();
    const last = await getEntry(entry.id);
    const events = await eventsOf(async () => {
      const response = await t.request('DELETE', `/v1-beta/accounting-entries/${entry.id}`, { token });
      assert.equal(response.status, 204, response.text);
    });
    assert.deepEqual(
      events.map((event) => event.eventType),
      ['v1.accounting-entry.deleted'],
    );
    assert.deepEqual(events[0]?.data, last);
    assert.equal(events[0]?.previousAttributes, undefined);
  });

  it('records nothing for a missing entry, nor for one deleted already', async () => {
    const entry = await createEntry();
    assert.equal((await t.request('DELETE', `/v1-beta/accounting-entries/${entry.id}`, { token })).status, 204);
    const events = await eventsOf(async () => {
      for (const id of [entry.id, randomUUID()]) {
        const response = await t.request('DELETE', `/v1-beta/accounting-entries/${id}`, { token });
        assert.equal(response.status, 404, response.text);
      }
    });
    assert.deepEqual(events, []);
  });

  it('keeps the entry, and makes none, when its event cannot be written', async () => {
    const entry = await createEntry();
    const entriesBefore = await entryCount();
    await t.db.exec(`CREATE FUNCTION refuse_entry_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'entry events refused'; END $$;
      CREATE TRIGGER refuse_entry_events BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION refuse_entry_events();`);
    const headers = { authorization: `Bearer ${token}` };
    try {
      // Not t.request: a 500 is no answer the OpenAPI document declares.
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1-beta/accounting-entries',
        headers,
        payload: newEntry(),
      });
      assert.equal(created.statusCode, 500);
      const deleted = await t.app.inject({ method: 'DELETE', url: `/v1-beta/accounting-entries/${entry.id}`, headers });
      assert.equal(deleted.statusCode, 500);
    } finally {
      await t.db.exec('DROP TRIGGER refuse_entry_events ON events; DROP FUNCTION refuse_entry_events();');
    }
    assert.deepEqual(await getEntry(entry.id), entry);
    assert.equal(await entryCount(), entriesBefore);
  });
});

describe('subscribing to the accounting entry events', () => {
  it('gives a subscriber one message per created and deleted entry', async () => {
    const { companyId, token: own } = await freshCompany();
    const account = await createAccount(companyId, own);
    const subscription = await t.request('POST', '/v1/subscriptions', {
      token: own,
      body: {
        eventTypes: ['v1.accounting-entry.created', 'v1.accounting-entry.deleted'],
        endpointUrl: 'https://example.com/webhook',
      },
    });
    assert.equal(subscription.status, 200, subscription.text);
    const created = await t.request('POST', '/v1-beta/accounting-entries', {
      token: own,
      body: newEntry({ companyId, accountId: account }),
    });
    assert.equal(created.status, 201, created.text);
    const entryId = created.body.data.id;
    assert.equal((await t.request('DELETE', `/v1-beta/accounting-entries/${entryId}`, { token: own })).status, 204);
    const messages = await t.db.query<{ entryId: string; eventType: string }>(
      `SELECT e.data->>'id' AS "entryId", e.event_type AS "eventType"
       FROM messages m JOIN events e ON e.id = m.event_id WHERE m.subscription_id = $1 ORDER BY e.sequence`,
      [subscription.body.data.id],
    );
    assert.deepEqual(messages, [
      { entryId, eventType: 'v1.accounting-entry.created' },
      { entryId, eventType: 'v1.accounting-entry.deleted' },
    ]);
  });

  it('refuses a subscription to an entry event without accounting-entries:read (403)', async () => {
    const narrowed = await t.token({ companies: [company], scopes: ['accounts:read', 'tax-codes:read'] });
    for (const type of ['v1.accounting-entry.created', 'v1.accounting-entry.deleted']) {
      const response = await t.request('POST', '/v1/subscriptions', {
        token: narrowed,
        body: { eventTypes: [type], endpointUrl: 'https://example.com/webhook' },
      });
      assert.equal(response.status, 403, `${type}: ${response.text}`);
    }
  });
});
