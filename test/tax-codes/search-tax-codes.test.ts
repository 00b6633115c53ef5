import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';

const { t, company, token } = await startCompanyTestApp();
const created: { id: string; name: string; code: string | null; type: string; archived: boolean }[] = [];

// Five tax codes: names A..E, one without a code, two archived, one reverse.
before(async () => {
  const fixtures = [
    { name: 'C', code: 'c1', type: 'inclusive', archived: false },
    { name: 'A', code: null, type: 'inclusive', archived: false },
    { name: 'E', code: 'a1', type: 'reverse', archived: true },
    { name: 'B', code: 'b1', type: 'exclusive', archived: false },
    { name: 'D', code: 'd1', type: 'inclusive', archived: true },
  ];
  for (const fixture of fixtures) {
    const response = await t.request('POST', '/v0/tax-codes', {
      token,
      body: { companyId: company, rate: 0.25, ...fixture },
    });
    assert.equal(response.status, 201, response.text);
    created.push(response.body.data);
  }
  // Another company's tax code, never found.
  const stranger = randomUUID();
  await t.request('POST', '/v0/tax-codes', {
    token: await t.token({ companies: [stranger] }),
    body: { companyId: stranger, name: 'A', rate: 0, type: 'inclusive', archived: false },
  });
});

const search = (query: string, body?: unknown, as = token) =>
  t.request('POST', `/v0/tax-codes:search${query}`, { token: as, body });
const names = (response: { body: { data: { name: string }[] } }) => response.body.data.map((row) => row.name);

describe('POST /v0/tax-codes:search', () => {
  it("searches the token's only company by name without company_id or a body", async () => {
    const response = await search('');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(names(response), ['A', 'B', 'C', 'D', 'E']);
    assert.equal(response.body.pagination.total, 5);
    assert.deepEqual(response.body.data[0], created[1]);
  });

  it('needs company_id when the token lists several companies', async () => {
    const several = await t.token({ companies: [company, randomUUID()] });
    const missing = await search('', {}, several);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(missing.body.errors, [
      { path: '/company_id', message: 'is required when the token does not list exactly one company', in: 'query' },
    ]);
    const given = await search(`?company_id=${company.toUpperCase()}`, {}, several);
    assert.equal(given.status, 200);
    assert.equal(given.body.pagination.total, 5);
  });

  it('ANDs the filters: taxCodeIds, code, type and archived', async () => {
    assert.deepEqual(names(await search('', { archived: true })), ['D', 'E']);
    assert.deepEqual(names(await search('', { archived: false, type: 'inclusive' })), ['A', 'C']);
    assert.deepEqual(names(await search('', { code: 'b1' })), ['B']);
    const ids = [created[0]?.id, created[2]?.id, randomUUID()];
    assert.deepEqual(names(await search('', { taxCodeIds: ids })), ['C', 'E']);
    assert.deepEqual(names(await search('', { taxCodeIds: ids, archived: false })), ['C']);
  });

  it('sorts by code with nulls where asked, and by createdAt descending', async () => {
    assert.deepEqual(names(await search('?sorting_keys=code')), ['E', 'B', 'C', 'D', 'A']);
    assert.deepEqual(names(await search('?sorting_keys=code&sorting_order=DESC')), ['A', 'D', 'C', 'B', 'E']);
    assert.deepEqual(names(await search('?sorting_keys=code&sorting_order=ASC_NULLS_FIRST')), [
      'A',
      'E',
      'B',
      'C',
      'D',
    ]);
    assert.deepEqual(names(await search('?sorting_keys=createdAt&sorting_order=DESC')), ['D', 'B', 'E', 'A', 'C']);
  });

  it('pages with after cursors, two rows at a time, over the nullable code', async () => {
    const first = await search('?sorting_keys=code&limit=2');
    assert.deepEqual(names(first), ['E', 'B']);
    assert.equal(first.body.pagination.hasNextPage, true);
    assert.equal(first.body.pagination.hasPreviousPage, false);
    assert.equal(first.body.pagination.total, 5);
    const second = await search(`?sorting_keys=code&limit=2&after=${first.body.pagination.endCursor}`);
    assert.deepEqual(names(second), ['C', 'D']);
    const third = await search(`?sorting_keys=code&limit=2&after=${second.body.pagination.endCursor}`);
    assert.deepEqual(names(third), ['A']);
    assert.equal(third.body.pagination.hasNextPage, false);
    assert.equal(third.body.pagination.hasPreviousPage, true);
    const back = await search(`?sorting_keys=code&limit=2&before=${third.body.pagination.startCursor}`);
    assert.deepEqual(names(back), ['C', 'D']);
  });

  it('refuses a cursor of other filters, unknown sort keys, too many ids and a malformed company_id', async () => {
    const page = await search('?limit=1');
    const reused = await search(`?limit=1&after=${page.body.pagination.endCursor}`, { archived: true });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.type, 'INVALID_CURSOR');
    const badKey = await search('?sorting_keys=rate');
    assert.equal(badKey.status, 400);
    assert.equal(badKey.body.errors[0].in, 'query');
    const tooMany = await search('', { taxCodeIds: Array.from({ length: 1001 }, () => randomUUID()) });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.errors[0].path, '/taxCodeIds');
    const badCompany = await search('?company_id=42');
    assert.equal(badCompany.status, 400);
    assert.equal(badCompany.body.errors[0].path, '/company_id');
    const badType = await search('', { type: 'zero' });
    assert.equal(badType.status, 400);
    assert.equal(badType.body.errors[0].path, '/type');
  });
});
