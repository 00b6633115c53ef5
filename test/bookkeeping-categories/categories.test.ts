import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { describeRecordAccess } from '../support/security.ts';
import { CATEGORIES, fixtures, paths, startBookkeepingTestApp, TIMESTAMP } from './support.ts';

const { t, company, token, make } = await startBookkeepingTestApp();
const otherCompany = randomUUID();
let both: string;
const makeOther = fixtures(
  () => t,
  otherCompany,
  () => both,
);
let group: { id: string };
let account: { id: string };

before(async () => {
  both = await t.token({ companies: [company, otherCompany] });
  group = await make.group();
  account = await make.account();
});

const newCategory = (fields: Record<string, unknown> = {}) => ({
  companyId: company,
  name: 'Flights',
  groupId: group.id,
  accountId: account.id,
  archived: false,
  ...fields,
});

async function categoryRows(externalId: string): Promise<number> {
  return (await t.db.query('SELECT 1 FROM bookkeeping_categories WHERE external_id = $1', [externalId])).length;
}

describe('POST /v1-beta/bookkeeping-categories', () => {
  it('creates a category and returns every field, unset ones as null', async () => {
    const taxCode = await make.taxCode();
    const body = newCategory({ taxCodeExternalId: taxCode.code, metadata: { erp: 'x' } });
    const response = await t.request('POST', CATEGORIES, { token, body });
    assert.equal(response.status, 201, response.text);
    const { id, createdAt, updatedAt, ...rest } = response.body.data;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(createdAt, TIMESTAMP);
    assert.equal(updatedAt, createdAt);
    assert.deepEqual(rest, { ...body, externalId: null });
  });

  it('takes ids in upper case and answers them in lower case', async () => {
    const body = newCategory({ groupId: group.id.toUpperCase(), accountId: account.id.toUpperCase() });
    const response = await t.request('POST', CATEGORIES, { token, body });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.data.groupId, group.id);
    assert.equal(response.body.data.accountId, account.id);
  });

  it('accepts an archived account and an archived group', async () => {
    const archivedAccount = await make.account({ archived: true });
    const archivedGroup = await make.group({ archived: true });
    await make.category(archivedGroup.id, archivedAccount.id);
  });

  it('replays an identical create with the same externalId (200) and refuses a different one (409 with existingId)', async () => {
    const externalId = randomUUID();
    const body = newCategory({ externalId });
    const first = await t.request('POST', CATEGORIES, { token, body });
    assert.equal(first.status, 201);
    const replay = await t.request('POST', CATEGORIES, { token, body });
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(replay.body.data, first.body.data);
    const otherAccount = await make.account();
    const different = await t.request('POST', CATEGORIES, { token, body: { ...body, accountId: otherAccount.id } });
    assert.equal(different.status, 409);
    assert.equal(different.body.type, 'BOOKKEEPING_CATEGORY_ALREADY_EXISTS');
    assert.equal(different.body.existingId, first.body.data.id);
    assert.equal(await categoryRows(externalId), 1);
  });

  it('replays a create whose tax code was deleted since (200), and refuses a new category naming it (400)', async () => {
    const taxCode = await make.taxCode();
    const externalId = randomUUID();
    const body = newCategory({ externalId, taxCodeExternalId: taxCode.code });
    const first = await t.request('POST', CATEGORIES, { token, body });
    assert.equal(first.status, 201, first.text);
    const deleted = await t.request('DELETE', `/v0/tax-codes/${taxCode.id}`, { token });
    assert.equal(deleted.status, 204, deleted.text);

    const replay = await t.request('POST', CATEGORIES, { token, body });
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(replay.body.data, first.body.data);
    const another = await t.request('POST', CATEGORIES, { token, body: { ...body, externalId: randomUUID() } });
    assert.equal(another.status, 400, another.text);
    assert.equal(another.body.type, 'TAX_CODE_NOT_FOUND');
    assert.equal(await categoryRows(externalId), 1);
  });

  it('answers 400 UNKNOWN_ACCOUNT naming /accountId for a missing account and for an account of another company', async () => {
    const foreign = await makeOther.account();
    for (const accountId of [randomUUID(), foreign.id]) {
      const externalId = randomUUID();
      const response = await t.request('POST', CATEGORIES, {
        token: both,
        body: newCategory({ accountId, externalId }),
      });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, 'UNKNOWN_ACCOUNT');
      assert.deepEqual(paths(response.body), ['/accountId']);
      assert.equal(response.body.detail, `Company ${company} has no account ${accountId}`);
      assert.equal(await categoryRows(externalId), 0);
    }
  });

  it('answers 400 UNKNOWN_BOOKKEEPING_CATEGORY_GROUP naming /groupId for a missing group and for a group of another company', async () => {
    const foreign = await makeOther.group();
    for (const groupId of [randomUUID(), foreign.id]) {
      const externalId = randomUUID();
      const response = await t.request('POST', CATEGORIES, { token: both, body: newCategory({ groupId, externalId }) });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, 'UNKNOWN_BOOKKEEPING_CATEGORY_GROUP');
      assert.deepEqual(paths(response.body), ['/groupId']);
      assert.equal(await categoryRows(externalId), 0);
    }
  });

  it("answers 400 TAX_CODE_NOT_FOUND naming /taxCodeExternalId for an unknown code and another company's", async () => {
    const foreign = await makeOther.taxCode();
    for (const code of ['NO-SUCH-CODE', foreign.code]) {
      const externalId = randomUUID();
      const body = newCategory({ taxCodeExternalId: code, externalId });
      const response = await t.request('POST', CATEGORIES, { token: both, body });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, 'TAX_CODE_NOT_FOUND');
      assert.deepEqual(paths(response.body), ['/taxCodeExternalId']);
      assert.equal(await categoryRows(externalId), 0);
    }
  });

  it('lists every missing required field', async () => {
    const response = await t.request('POST', CATEGORIES, { token, body: { companyId: company } });
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(paths(response.body), ['/accountId', '/archived', '/groupId', '/name']);
  });

  for (const [field, value] of [
    ['name', ''],
    ['name', 'x'.repeat(256)],
    ['groupId', 'not-a-uuid'],
    ['accountId', null],
    ['accountId', 42],
    ['taxCodeExternalId', 'x'.repeat(256)],
    ['externalId', ''],
    ['archived', 0],
    ['metadata', []],
  ] as const) {
    it(`refuses ${field}=${JSON.stringify(value).slice(0, 20)} without coercing it`, async () => {
      const externalId = randomUUID();
      const response = await t.request('POST', CATEGORIES, {
        token,
        body: newCategory({ externalId, [field]: value }),
      });
      assert.equal(response.status, 400, response.text);
      assert.ok(
        response.body.errors.some((e: { path: string }) => e.path === `/${field}`),
        response.text,
      );
      assert.equal(await categoryRows(externalId), 0);
    });
  }
});

describe('GET /v1-beta/bookkeeping-categories/{categoryId}', () => {
  it('returns the category, and 404 BOOKKEEPING_CATEGORY_NOT_FOUND for an unknown id', async () => {
    const category = await make.category(group.id, account.id);
    const response = await t.request('GET', `${CATEGORIES}/${category.id}`, { token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, category);
    const missing = await t.request('GET', `${CATEGORIES}/${randomUUID()}`, { token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'BOOKKEEPING_CATEGORY_NOT_FOUND');
  });
});

describe('PUT /v1-beta/bookkeeping-categories/{categoryId}', () => {
  it('replaces the mutable fields, moving it to another group and account; omitted ones become null', async () => {
    const taxCode = await make.taxCode();
    const category = await make.category(group.id, account.id, {
      externalId: randomUUID(),
      taxCodeExternalId: taxCode.code,
      metadata: { a: 1 },
    });
    const [otherGroup, otherAccount] = [await make.group({ type: 'OTHER' }), await make.account()];
    const body = { name: 'Trains', groupId: otherGroup.id, accountId: otherAccount.id, archived: true };
    const response = await t.request('PUT', `${CATEGORIES}/${category.id}`, { token, body });
    assert.equal(response.status, 200, response.text);
    const { updatedAt, ...rest } = response.body.data;
    const { updatedAt: before, ...unchanged } = category;
    assert.ok(updatedAt > before);
    assert.deepEqual(rest, { ...unchanged, ...body, taxCodeExternalId: null, metadata: null });
  });

  it("refuses another company's account, group or tax code with 400 naming the field, and changes nothing", async () => {
    const category = await make.category(group.id, account.id);
    const [foreignAccount, foreignGroup, foreignTaxCode] = [
      await makeOther.account(),
      await makeOther.group(),
      await makeOther.taxCode(),
    ];
    const cases = [
      [{ accountId: foreignAccount.id }, 'UNKNOWN_ACCOUNT', '/accountId'],
      [{ groupId: foreignGroup.id }, 'UNKNOWN_BOOKKEEPING_CATEGORY_GROUP', '/groupId'],
      [{ taxCodeExternalId: foreignTaxCode.code }, 'TAX_CODE_NOT_FOUND', '/taxCodeExternalId'],
    ] as const;
    for (const [change, type, path] of cases) {
      const body = { name: 'Changed', groupId: group.id, accountId: account.id, archived: true, ...change };
      const response = await t.request('PUT', `${CATEGORIES}/${category.id}`, { token: both, body });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, type);
      assert.deepEqual(paths(response.body), [path]);
    }
    assert.deepEqual((await t.request('GET', `${CATEGORIES}/${category.id}`, { token })).body.data, category);
  });

  it('answers 404 for an unknown category', async () => {
    const response = await t.request('PUT', `${CATEGORIES}/${randomUUID()}`, {
      token,
      body: { name: 'x', groupId: group.id, accountId: account.id, archived: false },
    });
    assert.equal(response.status, 404);
    assert.equal(response.body.type, 'BOOKKEEPING_CATEGORY_NOT_FOUND');
  });
});

describe('DELETE /v1-beta/bookkeeping-categories/{categoryId}', () => {
  it('deletes: 204, then 404', async () => {
    const category = await make.category(group.id, account.id);
    assert.equal((await t.request('DELETE', `${CATEGORIES}/${category.id}`, { token })).status, 204);
    assert.equal((await t.request('GET', `${CATEGORIES}/${category.id}`, { token })).status, 404);
    assert.equal((await t.request('DELETE', `${CATEGORIES}/${category.id}`, { token })).status, 404);
  });
});

describe('POST /v1-beta/bookkeeping-categories:search', () => {
  const searcher = randomUUID();
  let own: string;
  const mine = fixtures(
    () => t,
    searcher,
    () => own,
  );
  const ids: Record<string, string> = {};
  let travel: { id: string };
  let cash: { id: string };
  before(async () => {
    own = await t.token({ companies: [searcher] });
    travel = await mine.group();
    const software = await mine.group({ name: 'Software', type: 'SOFTWARE' });
    cash = await mine.account();
    const bank = await mine.account();
    ids.Flights = (await mine.category(travel.id, cash.id, { name: 'Flights', externalId: 'erp-1' })).id;
    ids.Trains = (await mine.category(travel.id, bank.id, { name: 'Trains', archived: true })).id;
    ids.Licences = (await mine.category(software.id, cash.id, { name: 'Licences' })).id;
  });
  const search = (body: Record<string, unknown>, query = '') =>
    t.request('POST', `${CATEGORIES}:search${query}`, { token: own, body: { companyId: searcher, ...body } });
  const names = (response: { body: { data: { name: string }[] } }) => response.body.data.map((c) => c.name);

  it("lists the company's categories by name, with the total", async () => {
    const response = await search({});
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(names(response), ['Flights', 'Licences', 'Trains']);
    assert.equal(response.body.pagination.total, 3);
  });

  it('filters by ids, groupIds, accountIds, externalId and archived, ANDed', async () => {
    assert.deepEqual(names(await search({ groupIds: [travel.id] })), ['Flights', 'Trains']);
    assert.deepEqual(names(await search({ accountIds: [cash.id] })), ['Flights', 'Licences']);
    assert.deepEqual(names(await search({ accountIds: [cash.id], groupIds: [travel.id] })), ['Flights']);
    assert.deepEqual(names(await search({ archived: true })), ['Trains']);
    assert.deepEqual(names(await search({ externalId: 'erp-1' })), ['Flights']);
    assert.deepEqual(names(await search({ ids: [ids.Trains, ids.Licences] })), ['Licences', 'Trains']);
  });

  it('pages backwards with before and by offset, newest first', async () => {
    const newest = await search({}, '?sorting_keys=createdAt&sorting_order=DESC&limit=2');
    assert.deepEqual(names(newest), ['Licences', 'Trains']);
    const rest = await search({}, '?sorting_keys=createdAt&sorting_order=DESC&limit=2&offset=2');
    assert.deepEqual(names(rest), ['Flights']);
    const back = await search(
      {},
      `?sorting_keys=createdAt&sorting_order=DESC&limit=2&before=${rest.body.pagination.startCursor}`,
    );
    assert.deepEqual(names(back), ['Licences', 'Trains']);
  });
});

describe('access to categories', () => {
  let category: { id: string };
  before(async () => {
    category = await make.category(group.id, account.id);
  });
  describeRecordAccess(describe, () => t, {
    base: CATEGORIES,
    id: () => category.id,
    createBody: (c) => newCategory({ companyId: c }),
    updateBody: () => ({ name: 'Flights', groupId: group.id, accountId: account.id, archived: false }),
    resource: 'bookkeeping-categories',
    company: () => company,
  });

  it('lets a token with bookkeeping-categories:read read but not write', async () => {
    const reader = await t.token({ companies: [company], scopes: ['bookkeeping-categories:read'] });
    assert.equal((await t.request('GET', `${CATEGORIES}/${category.id}`, { token: reader })).status, 200);
    assert.equal((await t.request('POST', CATEGORIES, { token: reader, body: newCategory() })).status, 403);
  });

  it("never lets a token of another company create a category on this company's account", async () => {
    const stranger = randomUUID();
    const strangerToken = await t.token({ companies: [stranger] });
    const strangerGroup = await fixtures(
      () => t,
      stranger,
      () => strangerToken,
    ).group();
    const response = await t.request('POST', CATEGORIES, {
      token: strangerToken,
      body: newCategory({ companyId: stranger, groupId: strangerGroup.id }),
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'UNKNOWN_ACCOUNT');
  });
});
