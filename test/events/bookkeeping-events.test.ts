// The events of bookkeeping category groups, categories, contra accounts and preferences
// (docs/decisions/events.md): recorded in the change's transaction; none for a replayed create, a
// PUT that changes nothing, or a refused change.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { CATEGORIES, GROUPS, startBookkeepingTestApp } from '../bookkeeping-categories/support.ts';
import { eventsOfCompany } from '../support/events.ts';
import { whileLocked } from '../support/while-locked.ts';
import {
  changeAndEvents,
  expectedPrevious,
  itRecordsLifecycleEvents,
  messageCount,
  subscribe,
  theOnlyEvent,
} from './support.ts';

const { t, company, token, freshCompany, make } = await startBookkeepingTestApp();
const CONTRA_ACCOUNTS = '/v1-beta/contra-accounts';
const PREFERENCES = '/v1-beta/bookkeeping-preferences';

type Fields = Record<string, unknown>;
const lifecycle = { t: () => t, company, token: () => token };

/** The PUT body of a record as it is: its mutable fields. */
const groupBody = ({ name, type, archived, metadata }: Fields) => ({ name, type, archived, metadata });
const categoryBody = ({ name, groupId, accountId, taxCodeExternalId, archived, metadata }: Fields) => ({
  name,
  groupId,
  accountId,
  taxCodeExternalId,
  archived,
  metadata,
});
const contraAccountBody = ({ accountId, metadata }: Fields) => ({ accountId, metadata });

// Each contra account of the company is a wallet in a currency of its own (one per currency).
let currencies = 0;
const nextCurrency = () =>
  [676, 26, 1].map((unit) => String.fromCharCode(65 + (Math.floor(currencies++ / unit) % 26))).join('');

itRecordsLifecycleEvents({
  ...lifecycle,
  resource: 'bookkeeping-category-group',
  path: GROUPS,
  scopes: { read: 'bookkeeping-categories:read', write: 'bookkeeping-categories:write' },
  newBody: async () => ({ companyId: company, name: 'Travel', type: 'TRAVEL', archived: false, metadata: { a: 1 } }),
  sameBody: groupBody,
  changedBody: async (group) => ({ ...groupBody(group), type: 'SOFTWARE', metadata: { a: 2 } }),
  changedFields: ['type', 'metadata'],
});

itRecordsLifecycleEvents({
  ...lifecycle,
  resource: 'bookkeeping-category',
  path: CATEGORIES,
  scopes: { read: 'bookkeeping-categories:read', write: 'bookkeeping-categories:write' },
  newBody: async () => ({
    companyId: company,
    name: 'Flights',
    groupId: (await make.group()).id,
    accountId: (await make.account()).id,
    archived: false,
  }),
  sameBody: categoryBody,
  changedBody: async (category) => ({ ...categoryBody(category), groupId: (await make.group()).id, archived: true }),
  changedFields: ['groupId', 'archived'],
});

itRecordsLifecycleEvents({
  ...lifecycle,
  resource: 'contra-account',
  path: CONTRA_ACCOUNTS,
  scopes: { read: 'contra-accounts:read', write: 'contra-accounts:write' },
  newBody: async () => ({
    companyId: company,
    kind: 'ADDITIONAL_CURRENCY_WALLET',
    currency: nextCurrency(),
    accountId: (await make.account()).id,
  }),
  sameBody: contraAccountBody,
  changedBody: async (contraAccount) => ({ ...contraAccountBody(contraAccount), accountId: (await make.account()).id }),
  changedFields: ['accountId'],
});

/** POSTs `body` to `url` as the company's token, with the events it recorded. */
const postDuring = (url: string, body: unknown) =>
  changeAndEvents(t, company, () => t.request('POST', url, { token, body }));

describe('bookkeeping creates that record nothing', () => {
  it('records nothing for a replayed group create (200) nor a conflicting one (409)', async () => {
    const body = { companyId: company, externalId: randomUUID(), name: 'Travel', type: 'TRAVEL', archived: false };
    assert.equal((await postDuring(GROUPS, body)).events.length, 1);
    const replay = await postDuring(GROUPS, body);
    assert.equal(replay.response.status, 200, replay.response.text);
    assert.deepEqual(replay.events, []);
    const conflict = await postDuring(GROUPS, { ...body, name: 'Other' });
    assert.equal(conflict.response.status, 409, conflict.response.text);
    assert.deepEqual(conflict.events, []);
  });

  it('records nothing for a replayed category create nor one naming an unknown group (400)', async () => {
    const body = {
      companyId: company,
      externalId: randomUUID(),
      name: 'Flights',
      groupId: (await make.group()).id,
      accountId: (await make.account()).id,
      archived: false,
    };
    assert.equal((await postDuring(CATEGORIES, body)).events.length, 1);
    const replay = await postDuring(CATEGORIES, body);
    assert.equal(replay.response.status, 200, replay.response.text);
    assert.deepEqual(replay.events, []);
    const unknown = await postDuring(CATEGORIES, { ...body, externalId: randomUUID(), groupId: randomUUID() });
    assert.equal(unknown.response.status, 400, unknown.response.text);
    assert.deepEqual(unknown.events, []);
  });

  it('records nothing for a replayed contra account create, a conflicting one, nor one of an unknown account', async () => {
    const accountId = (await make.account()).id;
    const body = { companyId: company, kind: 'ADDITIONAL_CURRENCY_WALLET', currency: nextCurrency(), accountId };
    assert.equal((await postDuring(CONTRA_ACCOUNTS, body)).events.length, 1);
    const replay = await postDuring(CONTRA_ACCOUNTS, body);
    assert.equal(replay.response.status, 200, replay.response.text);
    assert.deepEqual(replay.events, []);
    const conflict = await postDuring(CONTRA_ACCOUNTS, { ...body, accountId: (await make.account()).id });
    assert.equal(conflict.response.status, 409, conflict.response.text);
    assert.deepEqual(conflict.events, []);
    const unknown = await postDuring(CONTRA_ACCOUNTS, { ...body, currency: nextCurrency(), accountId: randomUUID() });
    assert.equal(unknown.response.status, 400, unknown.response.text);
    assert.deepEqual(unknown.events, []);
  });
});

describe('bookkeeping changes refused, recording nothing', () => {
  const during = (method: string, url: string, body?: unknown) =>
    changeAndEvents(t, company, () => t.request(method, url, { token, body }));

  it('records nothing when a group with categories is not deleted (409)', async () => {
    const group = await make.group();
    await make.category(group.id, (await make.account()).id);
    const refused = await during('DELETE', `${GROUPS}/${group.id}`);
    assert.equal(refused.response.status, 409, refused.response.text);
    assert.deepEqual(refused.events, []);
  });

  it('records nothing for a category update naming an unknown account, nor a contra account one (400)', async () => {
    const category = await make.category((await make.group()).id, (await make.account()).id);
    const update = await during('PUT', `${CATEGORIES}/${category.id}`, {
      ...categoryBody(category),
      accountId: randomUUID(),
    });
    assert.equal(update.response.status, 400, update.response.text);
    assert.deepEqual(update.events, []);

    const contra = await postDuring(CONTRA_ACCOUNTS, {
      companyId: company,
      kind: 'ADDITIONAL_CURRENCY_WALLET',
      currency: nextCurrency(),
      accountId: (await make.account()).id,
    });
    const id = contra.response.body.data.id;
    const contraUpdate = await during('PUT', `${CONTRA_ACCOUNTS}/${id}`, { accountId: randomUUID() });
    assert.equal(contraUpdate.response.status, 400, contraUpdate.response.text);
    assert.deepEqual(contraUpdate.events, []);
  });
});

describe('v1.bookkeeping-preferences.updated', () => {
  const preferences = (companyId: string, fields: Fields = {}) => ({
    companyId,
    bookkeepingMethod: 'JOURNAL',
    exportExpensesAsPositiveAmounts: false,
    exportFormat: 'MULTI_LINE',
    ...fields,
  });
  const get = async (companyId: string, as: string) => {
    const got = await t.request('GET', `${PREFERENCES}?companyId=${companyId}`, { token: as });
    assert.equal(got.status, 200, got.text);
    return got.body.data as Fields;
  };
  const put = (c: { companyId: string; token: string }, fields: Fields = {}) =>
    changeAndEvents(t, c.companyId, () =>
      t.request('PUT', PREFERENCES, { token: c.token, body: preferences(c.companyId, fields) }),
    );
  const TYPE = 'v1.bookkeeping-preferences.updated';

  it('records the first PUT against the defaults GET answered before it', async () => {
    const c = await freshCompany();
    const defaults = await get(c.companyId, c.token);
    const { response, events } = await put(c, { metadata: { erp: 'x' } });
    assert.equal(response.status, 200, response.text);
    const event = theOnlyEvent(events, TYPE);
    const after = await get(c.companyId, c.token);
    assert.deepEqual(event.data, after);
    assert.deepEqual(event.previousAttributes, expectedPrevious(defaults, after, ['bookkeepingMethod', 'metadata']));
    assert.equal((event.previousAttributes as Fields).updatedAt, null);
  });

  it('records a later PUT against the stored preferences, and nothing for one that changes nothing', async () => {
    const c = await freshCompany();
    await put(c);
    const before = await get(c.companyId, c.token);
    const same = await put(c);
    assert.equal(same.response.status, 200, same.response.text);
    assert.notEqual(same.response.body.data.updatedAt, before.updatedAt, 'the PUT did write');
    assert.deepEqual(same.events, []);

    const stored = await get(c.companyId, c.token);
    const { events } = await put(c, { exportFormat: 'ONE_LINE', exportExpensesAsPositiveAmounts: true });
    const event = theOnlyEvent(events, TYPE);
    const after = await get(c.companyId, c.token);
    assert.deepEqual(event.data, after);
    assert.deepEqual(
      event.previousAttributes,
      expectedPrevious(stored, after, ['exportFormat', 'exportExpensesAsPositiveAmounts']),
    );
  });

  it('records nothing for a first PUT of exactly the defaults: only updatedAt moved', async () => {
    const c = await freshCompany();
    const { response, events } = await put(c, { bookkeepingMethod: 'NONE', metadata: null });
    assert.equal(response.status, 200, response.text);
    assert.notEqual((await get(c.companyId, c.token)).updatedAt, null);
    assert.deepEqual(events, []);
  });

  it('records a first PUT that waited for a concurrent first one against the one it replaced', async () => {
    const c = await freshCompany();
    // The other first PUT inserted and has not committed: this one's insert waits for it.
    const answer = await whileLocked(
      t.db,
      (tx) =>
        tx.query(
          `INSERT INTO bookkeeping_preferences
             (company_id, bookkeeping_method, export_expenses_as_positive_amounts, export_format, metadata)
           VALUES ($1, 'ACCOUNTS_PAYABLE', true, 'ONE_LINE', '{"by": "other"}')`,
          [c.companyId],
        ),
      () => t.request('PUT', PREFERENCES, { token: c.token, body: preferences(c.companyId) }),
    );
    assert.equal(answer.status, 200, answer.text);
    const [event, ...others] = await eventsOfCompany(t.db, c.companyId);
    assert.deepEqual(others, []);
    assert.equal(event?.eventType, TYPE);
    assert.deepEqual(event?.data, await get(c.companyId, c.token));
    const previous = event?.previousAttributes as Fields;
    assert.match(previous.updatedAt as string, /^\d{4}-/, 'the other PUT stored the preferences before');
    assert.deepEqual(previous, {
      bookkeepingMethod: 'ACCOUNTS_PAYABLE',
      exportExpensesAsPositiveAmounts: true,
      exportFormat: 'ONE_LINE',
      metadata: { by: 'other' },
      updatedAt: previous.updatedAt,
    });
  });

  it('sends the event to a subscriber holding only bookkeeping-preferences:read, and refuses one without it', async () => {
    const c = await freshCompany();
    const subscribed = await subscribe(t, c.companyId, ['bookkeeping-preferences:read'], [TYPE]);
    assert.equal(subscribed.status, 200, subscribed.text);
    const event = theOnlyEvent((await put(c)).events, TYPE);
    assert.equal(await messageCount(t, subscribed.body.data.id, event.eventId), 1);

    const refused = await subscribe(t, c.companyId, ['bookkeeping-categories:read', 'contra-accounts:write'], [TYPE]);
    assert.equal(refused.status, 403, refused.text);
  });
});
