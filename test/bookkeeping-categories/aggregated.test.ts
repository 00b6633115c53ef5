import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { itEnforcesAccess } from '../support/security.ts';
import { AGGREGATED, startBookkeepingTestApp } from './support.ts';

const { t, company, token, make } = await startBookkeepingTestApp();
let travel: { id: string; name: string };
let software: { id: string };
let empty: { id: string };
let airfare: { id: string; code: string; name: string };
let licences: { id: string; code: string; name: string };
const categories: Record<string, { id: string; taxCodeExternalId: string | null }> = {};

before(async () => {
  travel = await make.group({ name: 'Travel', type: 'TRAVEL', externalId: 'grp-travel' });
  software = await make.group({ name: 'Software', type: 'SOFTWARE' });
  empty = await make.group({ name: 'Archived group', type: 'OTHER', archived: true });
  airfare = await make.account({ name: 'Airfare', code: '6110' });
  licences = await make.account({ name: 'Licences', code: null, archived: true });
  const taxCode = await make.taxCode();
  categories.Trains = await make.category(travel.id, airfare.id, { name: 'Trains', archived: true });
  categories.Flights = await make.category(travel.id, airfare.id, { name: 'Flights', taxCodeExternalId: taxCode.code });
  categories.SaaS = await make.category(software.id, licences.id, { name: 'SaaS', externalId: 'erp-saas' });
});

const search = (body: Record<string, unknown> = {}, query = '', as = token) =>
  t.request('POST', `${AGGREGATED}${query}`, { token: as, body: { companyId: company, ...body } });

describe('POST /v1-beta/aggregated-bookkeeping-category-groups:search', () => {
  it('answers each group with its categories by name and each category with its account', async () => {
    const response = await search({}, '?sorting_keys=name&sorting_order=DESC');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      response.body.data.map((g: { name: string }) => g.name),
      ['Travel', 'Software', 'Archived group'],
    );
    const [travelGroup, softwareGroup, emptyGroup] = response.body.data;
    const group = await t.request('GET', `/v1-beta/bookkeeping-category-groups/${travel.id}`, { token });
    const { categories: travelCategories, hasMoreCategories, ...travelFields } = travelGroup;
    assert.deepEqual(travelFields, group.body.data);
    assert.equal(hasMoreCategories, false);
    const airfareView = { id: airfare.id, code: '6110', name: 'Airfare', archived: false };
    assert.deepEqual(travelCategories, [
      {
        id: categories.Flights?.id,
        externalId: null,
        name: 'Flights',
        archived: false,
        taxCodeExternalId: categories.Flights?.taxCodeExternalId,
        account: airfareView,
      },
      {
        id: categories.Trains?.id,
        externalId: null,
        name: 'Trains',
        archived: true,
        taxCodeExternalId: null,
        account: airfareView,
      },
    ]);
    assert.deepEqual(softwareGroup.categories, [
      {
        id: categories.SaaS?.id,
        externalId: 'erp-saas',
        name: 'SaaS',
        archived: false,
        taxCodeExternalId: null,
        account: { id: licences.id, code: null, name: 'Licences', archived: true },
      },
    ]);
    assert.equal(emptyGroup.id, empty.id);
    assert.deepEqual(emptyGroup.categories, []);
    assert.equal(response.body.pagination.total, 3);
  });

  it("shows a category's account as it is now", async () => {
    const account = await make.account({ name: 'Before', code: '1' });
    const group = await make.group({ name: 'Renames', type: 'OTHER' });
    await make.category(group.id, account.id);
    const update = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
      token,
      body: { name: 'After', code: '2', archived: false },
    });
    assert.equal(update.status, 200);
    const response = await search({ ids: [group.id] });
    assert.deepEqual(response.body.data[0].categories[0].account, {
      id: account.id,
      code: '2',
      name: 'After',
      archived: false,
    });
  });

  it('filters groups by archived, types, ids and externalId, and categories by categoryArchived', async () => {
    const picker = await search({ archived: false, categoryArchived: false, types: ['TRAVEL', 'OTHER'] });
    assert.equal(picker.status, 200, picker.text);
    const travelOnly = picker.body.data.filter((g: { id: string }) => g.id === travel.id);
    assert.deepEqual(
      travelOnly[0].categories.map((c: { name: string }) => c.name),
      ['Flights'],
    );
    assert.ok(!picker.body.data.some((g: { id: string }) => g.id === empty.id || g.id === software.id));
    const archivedOnly = await search({ externalId: 'grp-travel', categoryArchived: true });
    assert.deepEqual(
      archivedOnly.body.data.map((g: { categories: { name: string }[] }) => g.categories.map((c) => c.name)),
      [['Trains']],
    );
    const byId = await search({ ids: [software.id] });
    assert.deepEqual(
      byId.body.data.map((g: { id: string }) => g.id),
      [software.id],
    );
  });

  it('pages groups with cursors bound to the filters', async () => {
    const first = await search({}, '?limit=1');
    assert.equal(first.body.data.length, 1);
    assert.equal(first.body.pagination.hasNextPage, true);
    const second = await search({}, `?limit=1&after=${first.body.pagination.endCursor}`);
    assert.equal(second.status, 200);
    assert.notEqual(second.body.data[0].id, first.body.data[0].id);
    const other = await search({ categoryArchived: true }, `?limit=1&after=${first.body.pagination.endCursor}`);
    assert.equal(other.status, 400);
    assert.equal(other.body.type, 'INVALID_CURSOR');
  });

  it('refuses a malformed body naming the field', async () => {
    const response = await search({ categoryArchived: 'no', types: ['NOPE'] });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.errors.map((e: { path: string }) => e.path).sort(), [
      '/categoryArchived',
      '/types/0',
    ]);
  });

  it('shows nothing of another company', async () => {
    const stranger = randomUUID();
    const strangerToken = await t.token({ companies: [stranger] });
    const response = await t.request('POST', AGGREGATED, {
      token: strangerToken,
      body: { companyId: stranger, ids: [travel.id] },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, []);
    assert.equal(response.body.pagination.total, 0);
  });

  describe('access', () =>
    itEnforcesAccess(() => t, {
      method: 'POST',
      url: () => AGGREGATED,
      body: (c) => ({ companyId: c }),
      scope: 'bookkeeping-categories:read',
      company: () => company,
      companyInBody: true,
    }));
});
