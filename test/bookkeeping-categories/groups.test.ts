import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { GROUP_TYPES } from '../../src/bookkeeping-categories/schemas.ts';
import { describeRecordAccess } from '../support/security.ts';
import { GROUPS, paths, startBookkeepingTestApp, TIMESTAMP } from './support.ts';

const { t, company, token, make } = await startBookkeepingTestApp();

const newGroup = (fields: Record<string, unknown> = {}) => ({
  companyId: company,
  name: 'Travel',
  type: 'TRAVEL',
  archived: false,
  ...fields,
});

describe('POST /v1-beta/bookkeeping-category-groups', () => {
  it('creates a group and returns every field, unset ones as null', async () => {
    const body = newGroup({ metadata: { source: 'erp' } });
    const response = await t.request('POST', GROUPS, { token, body });
    assert.equal(response.status, 201, response.text);
    const { id, createdAt, updatedAt, ...rest } = response.body.data;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(createdAt, TIMESTAMP);
    assert.equal(updatedAt, createdAt);
    assert.deepEqual(rest, { ...body, externalId: null });
  });

  it('takes every type of the reference', async () => {
    for (const type of GROUP_TYPES) assert.equal((await make.group({ type })).type, type);
  });

  it('allows the same name twice and several groups without externalId', async () => {
    const [first, second] = [await make.group(), await make.group()];
    assert.notEqual(first.id, second.id);
  });

  it('replays an identical create with the same externalId (200) and refuses a different one (409 with existingId)', async () => {
    const body = newGroup({ externalId: randomUUID(), metadata: { a: 1, b: [2] } });
    const first = await t.request('POST', GROUPS, { token, body });
    assert.equal(first.status, 201);
    const replay = await t.request('POST', GROUPS, { token, body: { ...body, metadata: { b: [2], a: 1 } } });
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(replay.body.data, first.body.data);
    const different = await t.request('POST', GROUPS, { token, body: { ...body, name: 'Other' } });
    assert.equal(different.status, 409);
    assert.equal(different.body.type, 'BOOKKEEPING_CATEGORY_GROUP_ALREADY_EXISTS');
    assert.equal(different.body.existingId, first.body.data.id);
  });

  it('allows the same externalId in another company', async () => {
    const other = randomUUID();
    const both = await t.token({ companies: [company, other] });
    const externalId = randomUUID();
    for (const companyId of [company, other]) {
      const response = await t.request('POST', GROUPS, { token: both, body: newGroup({ companyId, externalId }) });
      assert.equal(response.status, 201, response.text);
    }
  });

  it('lists every missing required field', async () => {
    const response = await t.request('POST', GROUPS, { token, body: { companyId: company } });
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(paths(response.body), ['/archived', '/name', '/type']);
  });

  for (const [field, value] of [
    ['type', 'FOOD'],
    ['type', 'travel'],
    ['type', null],
    ['name', ''],
    ['name', 'x'.repeat(256)],
    ['name', 'a\u0000b'],
    ['externalId', ''],
    ['externalId', 'x'.repeat(256)],
    ['archived', 'false'],
    ['metadata', 'text'],
    ['companyId', 'not-a-uuid'],
  ] as const) {
    it(`refuses ${field}=${JSON.stringify(value).slice(0, 20)} without coercing it, and stores nothing`, async () => {
      const externalId = randomUUID();
      const response = await t.request('POST', GROUPS, { token, body: newGroup({ externalId, [field]: value }) });
      assert.equal(response.status, 400, response.text);
      assert.ok(
        response.body.errors.some((e: { path: string }) => e.path === `/${field}`),
        response.text,
      );
      const rows = await t.db.query('SELECT 1 FROM bookkeeping_category_groups WHERE external_id = $1', [externalId]);
      assert.equal(rows.length, 0);
    });
  }

  it('refuses metadata over 64 KiB naming /metadata', async () => {
    const response = await t.request('POST', GROUPS, {
      token,
      body: newGroup({ metadata: { x: 'y'.repeat(70_000) } }),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(paths(response.body), ['/metadata']);
  });
});

describe('GET /v1-beta/bookkeeping-category-groups/{groupId}', () => {
  it('returns the group', async () => {
    const group = await make.group({ externalId: randomUUID() });
    const response = await t.request('GET', `${GROUPS}/${group.id}`, { token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, group);
  });

  it('answers 404 BOOKKEEPING_CATEGORY_GROUP_NOT_FOUND for an unknown id and 400 for a malformed one', async () => {
    const missing = await t.request('GET', `${GROUPS}/${randomUUID()}`, { token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'BOOKKEEPING_CATEGORY_GROUP_NOT_FOUND');
    const malformed = await t.request('GET', `${GROUPS}/42`, { token });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errors[0].in, 'path');
  });
});

describe('PUT /v1-beta/bookkeeping-category-groups/{groupId}', () => {
  it('replaces the mutable fields; omitted metadata becomes null; externalId stays', async () => {
    const group = await make.group({ externalId: randomUUID(), metadata: { a: 1 } });
    const body = { name: 'Software', type: 'SOFTWARE', archived: true };
    const response = await t.request('PUT', `${GROUPS}/${group.id}`, { token, body });
    assert.equal(response.status, 200, response.text);
    const { updatedAt, ...rest } = response.body.data;
    const { updatedAt: before, ...unchanged } = group;
    assert.ok(updatedAt > before);
    assert.deepEqual(rest, { ...unchanged, ...body, metadata: null });
  });

  it('answers 404 for an unknown group, 400 for a bad type, and changes nothing', async () => {
    const missing = await t.request('PUT', `${GROUPS}/${randomUUID()}`, {
      token,
      body: { name: 'x', type: 'OTHER', archived: false },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'BOOKKEEPING_CATEGORY_GROUP_NOT_FOUND');
    const group = await make.group();
    const invalid = await t.request('PUT', `${GROUPS}/${group.id}`, {
      token,
      body: { name: 'Renamed', type: 'NOPE', archived: false },
    });
    assert.equal(invalid.status, 400);
    assert.deepEqual(paths(invalid.body), ['/type']);
    assert.deepEqual((await t.request('GET', `${GROUPS}/${group.id}`, { token })).body.data, group);
  });
});

describe('DELETE /v1-beta/bookkeeping-category-groups/{groupId}', () => {
  it('deletes a group without categories: 204, then 404', async () => {
    const group = await make.group();
    const response = await t.request('DELETE', `${GROUPS}/${group.id}`, { token });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.equal((await t.request('GET', `${GROUPS}/${group.id}`, { token })).status, 404);
    assert.equal((await t.request('DELETE', `${GROUPS}/${group.id}`, { token })).status, 404);
  });

  it('answers 409 BOOKKEEPING_CATEGORY_GROUP_IN_USE naming its categories, archived ones too, and keeps it', async () => {
    const group = await make.group();
    const account = await make.account();
    const active = await make.category(group.id, account.id);
    const archived = await make.category(group.id, account.id, { archived: true, name: 'Trains' });
    const response = await t.request('DELETE', `${GROUPS}/${group.id}`, { token });
    assert.equal(response.status, 409, response.text);
    assert.equal(response.body.type, 'BOOKKEEPING_CATEGORY_GROUP_IN_USE');
    assert.deepEqual(response.body.usedBy, [{ resource: 'bookkeeping-categories', ids: [active.id, archived.id] }]);
    assert.match(response.body.detail, new RegExp(active.id));
    assert.equal((await t.request('GET', `${GROUPS}/${group.id}`, { token })).status, 200);
    for (const category of [active, archived]) {
      assert.equal(
        (await t.request('DELETE', `/v1-beta/bookkeeping-categories/${category.id}`, { token })).status,
        204,
      );
    }
    assert.equal((await t.request('DELETE', `${GROUPS}/${group.id}`, { token })).status, 204);
  });
});

describe('POST /v1-beta/bookkeeping-category-groups:search', () => {
  const searcher = randomUUID();
  let own: string;
  const groups: Record<string, { id: string }> = {};
  before(async () => {
    own = await t.token({ companies: [searcher] });
    const create = async (name: string, type: string, archived: boolean, externalId: string | null = null) => {
      const response = await t.request('POST', GROUPS, {
        token: own,
        body: { companyId: searcher, name, type, archived, externalId },
      });
      groups[name] = response.body.data;
    };
    await create('Travel', 'TRAVEL', false, 'erp-travel');
    await create('Software', 'SOFTWARE', false);
    await create('Meals', 'MEALS_AND_DRINKS', true);
    await create('Hardware', 'EQUIPMENT_AND_HARDWARE', false);
  });
  const search = (body: Record<string, unknown>, query = '') =>
    t.request('POST', `${GROUPS}:search${query}`, { token: own, body: { companyId: searcher, ...body } });
  const names = (response: { body: { data: { name: string }[] } }) => response.body.data.map((g) => g.name);

  it("lists the company's groups by name, with the total", async () => {
    const response = await search({});
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(names(response), ['Hardware', 'Meals', 'Software', 'Travel']);
    assert.equal(response.body.pagination.total, 4);
  });

  it('filters by ids, types, externalId and archived, ANDed', async () => {
    assert.deepEqual(names(await search({ archived: true })), ['Meals']);
    assert.deepEqual(names(await search({ types: ['SOFTWARE', 'TRAVEL'] })), ['Software', 'Travel']);
    assert.deepEqual(names(await search({ externalId: 'erp-travel' })), ['Travel']);
    const ids = [groups.Travel?.id, groups.Meals?.id];
    assert.deepEqual(names(await search({ ids, archived: false })), ['Travel']);
  });

  it('sorts by type descending and pages with cursors', async () => {
    const first = await search({}, '?sorting_keys=type&sorting_order=DESC&limit=3');
    assert.deepEqual(names(first), ['Travel', 'Software', 'Meals']);
    assert.equal(first.body.pagination.hasNextPage, true);
    const next = await search(
      {},
      `?sorting_keys=type&sorting_order=DESC&limit=3&after=${first.body.pagination.endCursor}`,
    );
    assert.deepEqual(names(next), ['Hardware']);
    assert.equal(next.body.pagination.hasPreviousPage, true);
    const reused = await search({ archived: false }, `?after=${first.body.pagination.endCursor}`);
    assert.equal(reused.status, 400);
    assert.equal(reused.body.type, 'INVALID_CURSOR');
  });

  it('refuses an unknown type or sort key', async () => {
    assert.equal((await search({ types: ['FOOD'] })).status, 400);
    assert.equal((await search({}, '?sorting_keys=accountId')).status, 400);
  });
});

describe('access to category groups', () => {
  let group: { id: string };
  before(async () => {
    group = await make.group();
  });
  describeRecordAccess(describe, () => t, {
    base: GROUPS,
    id: () => group.id,
    createBody: (c) => newGroup({ companyId: c }),
    updateBody: () => ({ name: 'Travel', type: 'TRAVEL', archived: false }),
    resource: 'bookkeeping-categories',
    company: () => company,
  });

  it('lets a token with bookkeeping-categories:read read but not write', async () => {
    const reader = await t.token({ companies: [company], scopes: ['bookkeeping-categories:read'] });
    assert.equal((await t.request('GET', `${GROUPS}/${group.id}`, { token: reader })).status, 200);
    assert.equal((await t.request('POST', GROUPS, { token: reader, body: newGroup() })).status, 403);
  });

  it("never changes another company's group", async () => {
    const stranger = await t.token({ companies: [randomUUID()] });
    const body = { name: 'Taken', type: 'OTHER', archived: true };
    assert.equal((await t.request('PUT', `${GROUPS}/${group.id}`, { token: stranger, body })).status, 404);
    assert.equal((await t.request('DELETE', `${GROUPS}/${group.id}`, { token: stranger })).status, 404);
    const still = await t.request('GET', `${GROUPS}/${group.id}`, { token });
    assert.equal(still.body.data.name, 'Travel');
  });
});
