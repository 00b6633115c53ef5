// The account events (docs/decisions/events.md): v1.account.created, .updated and .deleted, from the
// v1-beta routes and the v1 chart of accounts, its batch included, each recorded with its change.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { INLINE_FAN_OUT_MAX_EVENTS } from '../../src/webhooks/fan-out.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { eventsDuring } from '../support/events.ts';

const { t, company, token, freshCompany } = await startCompanyTestApp();

const ACCOUNT_TYPES = ['v1.account.created', 'v1.account.updated', 'v1.account.deleted'];

const newAccount = (fields: Record<string, unknown> = {}) => ({
  companyId: company,
  externalId: `ext-${randomUUID()}`,
  name: 'Bank charges',
  archived: false,
  code: '2001',
  ...fields,
});

async function create(fields: Record<string, unknown> = {}, base = '/v1-beta/accounts') {
  const response = await t.request('POST', base, { token, body: newAccount(fields) });
  assert.equal(response.status, 201, response.text);
  return response.body.data;
}

async function getAccount(id: string) {
  const response = await t.request('GET', `/v1-beta/accounts/${id}`, { token });
  assert.equal(response.status, 200, response.text);
  return response.body.data;
}

/** The events `change` records in the file's company. */
const eventsOf = (change: () => Promise<unknown>) => eventsDuring(t.db, company, change);

const typesOf = (events: { eventType: string }[]) => events.map((event) => event.eventType);

describe('v1.account.created', () => {
  for (const base of ['/v1-beta/accounts', '/v1/chart-of-accounts']) {
    it(`POST ${base} records one event whose data is the account as GET answers it`, async () => {
      let account: { id: string } = { id: '' };
      const events = await eventsOf(async () => {
        account = await create({ metadata: { erp: { id: 7 } } }, base);
      });
      assert.deepEqual(typesOf(events), ['v1.account.created']);
      assert.deepEqual(events[0]?.data, await getAccount(account.id));
      assert.equal(events[0]?.previousAttributes, undefined);
      assert.equal(typeof events[0]?.sequence, 'number');
    });
  }

  it('records nothing for a replayed create (200) nor for a conflicting one (409)', async () => {
    const body = newAccount();
    await create(body);
    const events = await eventsOf(async () => {
      const replay = await t.request('POST', '/v1-beta/accounts', { token, body });
      assert.equal(replay.status, 200, replay.text);
      const conflict = await t.request('POST', '/v1/chart-of-accounts', { token, body: { ...body, name: 'Other' } });
      assert.equal(conflict.status, 409, conflict.text);
    });
    assert.deepEqual(events, []);
  });
});

describe('v1.account.created from POST /v1/chart-of-accounts/batch', () => {
  // A batch of more than INLINE_FAN_OUT_MAX_EVENTS accounts leaves its fan-out to the workers: its
  // events are recorded the same way.
  for (const size of [6, INLINE_FAN_OUT_MAX_EVENTS + 10]) {
    it(`records one event per account created, in item order, none for replayed or failed items (${size} items)`, async () => {
      const stored = await create();
      // Item order differs from the order the batch inserts in (externalId order).
      const items = [
        newAccount({ externalId: `z-${randomUUID()}`, name: 'Zeta' }),
        newAccount({ externalId: stored.externalId, name: stored.name, code: stored.code }),
        newAccount({ externalId: `a-${randomUUID()}`, name: 'Alpha' }),
        newAccount({ externalId: stored.externalId, name: 'Differs from the stored account' }),
        newAccount({ name: '' }),
        newAccount({ externalId: `m-${randomUUID()}`, name: 'Mu' }),
      ];
      const more = Array.from({ length: size - items.length }, (_, i) => `Further ${i}`);
      items.push(...more.map((name) => newAccount({ externalId: `b-${randomUUID()}`, name })));
      let created: { id: string; externalId: string }[] = [];
      const events = await eventsOf(async () => {
        const response = await t.request('POST', '/v1/chart-of-accounts/batch', {
          token,
          body: { companyId: company, items },
        });
        assert.equal(response.status, 201, response.text);
        assert.equal(response.body.data.failed.length, 2, response.text);
        created = response.body.data.created;
      });
      assert.deepEqual(new Set(typesOf(events)), new Set(['v1.account.created']));
      const names = events.map((event) => (event.data as { name: string }).name);
      assert.deepEqual(names, ['Zeta', 'Alpha', 'Mu', ...more]);
      const fresh = created.filter((account) => account.id !== stored.id);
      assert.deepEqual(
        events.map((event) => event.data),
        await Promise.all(fresh.map((account) => getAccount(account.id))),
      );
    });

    // Nothing to fan out: an empty fan-out row would fail the statement (its event_ids are NOT NULL).
    it(`records nothing for a batch sent again whole (${size} items)`, async () => {
      const items = Array.from({ length: size }, () => newAccount());
      const send = () =>
        t.request('POST', '/v1/chart-of-accounts/batch', { token, body: { companyId: company, items } });
      assert.equal((await send()).status, 201);
      const events = await eventsOf(async () => {
        const again = await send();
        assert.equal(again.body.data.created.length, size, again.text);
      });
      assert.deepEqual(events, []);
    });
  }
});

describe('v1.account.updated', () => {
  it('records the account as GET answers it, with the changed fields before', async () => {
    const account = await create({ metadata: { a: 1 } });
    const events = await eventsOf(async () => {
      const response = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
        token,
        body: { name: 'Travel', archived: false, code: '2001', metadata: { a: 2 } },
      });
      assert.equal(response.status, 200, response.text);
    });
    assert.deepEqual(typesOf(events), ['v1.account.updated']);
    assert.deepEqual(events[0]?.data, await getAccount(account.id));
    assert.deepEqual(events[0]?.previousAttributes, { name: 'Bank charges', metadata: { a: 1 } });
  });

  it('records archiving as an update of archived', async () => {
    const account = await create();
    const events = await eventsOf(async () => {
      const response = await t.request('PUT', `/v1/chart-of-accounts/${account.id}`, {
        token,
        body: { name: account.name, archived: true, code: account.code },
      });
      assert.equal(response.status, 200, response.text);
    });
    assert.deepEqual(typesOf(events), ['v1.account.updated']);
    assert.deepEqual(events[0]?.previousAttributes, { archived: false });
    assert.equal((events[0]?.data as { archived: boolean } | undefined)?.archived, true);
  });

  it('records nothing for an update that changes nothing, nor for a refused one', async () => {
    const account = await create();
    const same = { name: account.name, archived: false, code: account.code };
    const events = await eventsOf(async () => {
      const repeated = await t.request('PUT', `/v1-beta/accounts/${account.id}`, { token, body: same });
      assert.equal(repeated.status, 200, repeated.text);
      const refused = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
        token,
        body: { ...same, name: 'Renamed', taxCodeExternalId: `VAT-${randomUUID()}` },
      });
      assert.equal(refused.status, 400, refused.text);
      const missing = await t.request('PUT', `/v1-beta/accounts/${randomUUID()}`, { token, body: same });
      assert.equal(missing.status, 404, missing.text);
    });
    assert.deepEqual(events, []);
    assert.equal((await getAccount(account.id)).name, account.name);
  });
});

describe('v1.account.deleted', () => {
  for (const base of ['/v1-beta/accounts', '/v1/chart-of-accounts']) {
    it(`DELETE ${base}/{id} records the account's last state`, async () => {
      const account = await create({ metadata: { kept: true } });
      const last = await getAccount(account.id);
      const events = await eventsOf(async () => {
        const response = await t.request('DELETE', `${base}/${account.id}`, { token });
        assert.equal(response.status, 204, response.text);
      });
      assert.deepEqual(typesOf(events), ['v1.account.deleted']);
      assert.deepEqual(events[0]?.data, last);
      assert.equal(events[0]?.previousAttributes, undefined);
    });
  }

  it('records nothing when the account is in use (409) or missing (404)', async () => {
    const account = await create();
    const entry = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: { companyId: company, accountId: account.id, amount: '1.00', currency: 'EUR', date: '2026-11-22' },
    });
    assert.equal(entry.status, 201, entry.text);
    const events = await eventsOf(async () => {
      const inUse = await t.request('DELETE', `/v1-beta/accounts/${account.id}`, { token });
      assert.equal(inUse.status, 409, inUse.text);
      assert.equal(inUse.body.type, 'ACCOUNT_IN_USE');
      const missing = await t.request('DELETE', `/v1-beta/accounts/${randomUUID()}`, { token });
      assert.equal(missing.status, 404, missing.text);
    });
    assert.deepEqual(events, []);
    await getAccount(account.id);
  });

  it("orders an account's events by sequence: created, updated, deleted", async () => {
    const events = await eventsOf(async () => {
      const account = await create();
      const body = { name: 'Renamed', archived: false, code: account.code };
      assert.equal((await t.request('PUT', `/v1-beta/accounts/${account.id}`, { token, body })).status, 200);
      assert.equal((await t.request('DELETE', `/v1-beta/accounts/${account.id}`, { token })).status, 204);
    });
    assert.deepEqual(typesOf(events), ACCOUNT_TYPES);
    const sequences = events.map((event) => event.sequence);
    assert.deepEqual(
      sequences,
      [...sequences].sort((a, b) => a - b),
    );
  });
});

describe('an account and its event are written together', () => {
  /** Runs `work` while the outbox refuses the account events. */
  async function whileEventsRefused(work: () => Promise<void>) {
    await t.db.exec(`CREATE FUNCTION refuse_account_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.event_type LIKE 'v1.account.%' THEN RAISE EXCEPTION 'account events refused'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_account_events BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION refuse_account_events();`);
    try {
      await work();
    } finally {
      await t.db.exec('DROP TRIGGER refuse_account_events ON events; DROP FUNCTION refuse_account_events();');
    }
  }

  // Not t.request: a 500 is no answer the OpenAPI document declares.
  const send = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    (
      await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(body ? { payload: body } : {}),
      })
    ).statusCode;

  it('leaves no account, change or deletion behind when its event cannot be written', async () => {
    const account = await create();
    const before = await getAccount(account.id);
    const [single, batched] = [newAccount(), newAccount()];
    await whileEventsRefused(async () => {
      assert.equal(await send('POST', '/v1-beta/accounts', single), 500);
      assert.equal(await send('POST', '/v1/chart-of-accounts/batch', { companyId: company, items: [batched] }), 500);
      assert.equal(await send('PUT', `/v1-beta/accounts/${account.id}`, { name: 'Renamed', archived: true }), 500);
      assert.equal(await send('DELETE', `/v1-beta/accounts/${account.id}`), 500);
    });
    assert.deepEqual(await getAccount(account.id), before);
    for (const { externalId } of [single, batched]) {
      const found = await t.request('POST', '/v1-beta/accounts:search', {
        token,
        body: { companyId: company, externalId },
      });
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(found.body.data, []);
    }
  });
});

describe('subscribing to the account events', () => {
  it('gives a subscriber to v1.account.created one message per account created, and none of another company', async () => {
    const { companyId, token: own } = await freshCompany();
    const subscription = await t.request('POST', '/v1/subscriptions', {
      token: own,
      body: { eventTypes: ['v1.account.created'], endpointUrl: 'https://example.com/webhook' },
    });
    assert.equal(subscription.status, 200, subscription.text);
    const single = await t.request('POST', '/v1/chart-of-accounts', { token: own, body: newAccount({ companyId }) });
    assert.equal(single.status, 201, single.text);
    const items = [newAccount({ companyId }), newAccount({ companyId })];
    const batch = await t.request('POST', '/v1/chart-of-accounts/batch', { token: own, body: { companyId, items } });
    assert.equal(batch.status, 201, batch.text);
    const updated = await t.request('PUT', `/v1/chart-of-accounts/${single.body.data.id}`, {
      token: own,
      body: { name: 'Renamed', archived: false },
    });
    assert.equal(updated.status, 200, updated.text);
    await create();

    const messages = await t.db.query<{ accountId: string; eventType: string }>(
      `SELECT e.data->>'id' AS "accountId", e.event_type AS "eventType"
       FROM messages m JOIN events e ON e.id = m.event_id WHERE m.subscription_id = $1 ORDER BY e.sequence`,
      [subscription.body.data.id],
    );
    const createdIds = [single.body.data.id, ...batch.body.data.created.map((account: { id: string }) => account.id)];
    assert.deepEqual(
      messages,
      createdIds.map((accountId) => ({ accountId, eventType: 'v1.account.created' })),
    );
  });

  it('refuses a subscription to an account event without accounts:read (403)', async () => {
    const narrowed = await t.token({ companies: [company], scopes: ['tax-codes:read', 'accounting-entries:read'] });
    for (const type of ACCOUNT_TYPES) {
      const response = await t.request('POST', '/v1/subscriptions', {
        token: narrowed,
        body: { eventTypes: [type], endpointUrl: 'https://example.com/webhook' },
      });
      assert.equal(response.status, 403, `${type}: ${response.text}`);
    }
    const reader = await t.token({ companies: [company], scopes: ['accounts:read'] });
    const allowed = await t.request('POST', '/v1/subscriptions', {
      token: reader,
      body: { eventTypes: ACCOUNT_TYPES, endpointUrl: 'https://example.com/webhook' },
    });
    assert.equal(allowed.status, 200, allowed.text);
  });
});
