import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';

const { t, company, token } = await startCompanyTestApp();
const accounts: string[] = [];
const entries: { id: string; description: string }[] = [];

// Five entries over two accounts, created in the order of their descriptions (e1..e5).
before(async () => {
  for (let i = 0; i < 2; i++) {
    const account = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: { companyId: company, externalId: randomUUID(), name: `Account ${i}`, archived: false },
    });
    accounts.push(account.body.data.id);
  }
  const fixtures = [
    { amount: '10.00', date: '2026-03-01', account: 0 },
    { amount: '-5', date: '2026-01-15', account: 1 },
    { amount: '2.5', date: '2026-02-01', account: 0 },
    { amount: '-20.25', date: '2026-02-01', account: 1 },
    { amount: '100', date: '2025-12-31', account: 0 },
  ];
  for (const [i, { account, ...fixture }] of fixtures.entries()) {
    const response = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: { companyId: company, accountId: accounts[account], currency: 'DKK', description: `e${i + 1}`, ...fixture },
    });
    assert.equal(response.status, 201, response.text);
    entries.push(response.body.data);
  }
});

const search = (query: string, body: Record<string, unknown> = {}) =>
  t.request('POST', `/v1-beta/accounting-entries:search${query}`, { token, body: { companyId: company, ...body } });
const described = (response: { body: { data: { description: string }[] } }) =>
  response.body.data.map((row) => row.description);

describe('POST /v1-beta/accounting-entries:search', () => {
  it("lists the company's entries in creation order by default", async () => {
    const response = await search('');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(described(response), ['e1', 'e2', 'e3', 'e4', 'e5']);
    assert.deepEqual(response.body.data[0], entries[0]);
    assert.equal(response.body.pagination.total, 5);
  });

  it("totals the company's entries as they are created and deleted, and a filtered set by its own rows", async () => {
    const created = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: { companyId: company, accountId: accounts[1], currency: 'DKK', amount: '1', date: '2026-04-01' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await search('?limit=1')).body.pagination.total, 6);
    assert.equal((await search('?limit=1', { accountIds: [accounts[1]] })).body.pagination.total, 3);
    assert.equal((await search('?limit=1', { dateFrom: '2026-02-01' })).body.pagination.total, 4);
    const deleted = await t.request('DELETE', `/v1-beta/accounting-entries/${created.body.data.id}`, { token });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal((await search('?limit=1')).body.pagination.total, 5);
    assert.equal((await search('?limit=1', { accountIds: [accounts[1]] })).body.pagination.total, 2);
    // Another company's entries are not in this company's total.
    const other = randomUUID();
    const otherToken = await t.token({ companies: [other] });
    const otherAccount = await t.request('POST', '/v1-beta/accounts', {
      token: otherToken,
      body: { companyId: other, externalId: 'x', name: 'Other', archived: false },
    });
    const otherEntry = await t.request('POST', '/v1-beta/accounting-entries', {
      token: otherToken,
      body: {
        companyId: other,
        accountId: otherAccount.body.data.id,
        currency: 'DKK',
        amount: '1',
        date: '2026-04-01',
      },
    });
    assert.equal(otherEntry.status, 201, otherEntry.text);
    assert.equal((await search('?limit=1')).body.pagination.total, 5);
  });

  it('ANDs the filters: ids, accountIds and the inclusive date range', async () => {
    assert.deepEqual(described(await search('', { accountIds: [accounts[1]] })), ['e2', 'e4']);
    assert.deepEqual(described(await search('', { ids: [entries[0]?.id, entries[1]?.id, randomUUID()] })), [
      'e1',
      'e2',
    ]);
    assert.deepEqual(described(await search('', { dateFrom: '2026-01-15', dateTo: '2026-02-01' })), ['e2', 'e3', 'e4']);
    assert.deepEqual(described(await search('', { accountIds: [accounts[0]], dateFrom: '2026-02-01' })), ['e1', 'e3']);
  });

  it('sorts by amount numerically, and by date then id', async () => {
    assert.deepEqual(described(await search('?sorting_keys=amount')), ['e4', 'e2', 'e3', 'e1', 'e5']);
    assert.deepEqual(described(await search('?sorting_keys=amount&sorting_order=DESC')), [
      'e5',
      'e1',
      'e3',
      'e2',
      'e4',
    ]);
    const byDate = described(await search('?sorting_keys=date'));
    assert.deepEqual([byDate[0], byDate[1], byDate[4]], ['e5', 'e2', 'e1']);
  });

  it('pages with after cursors, two rows at a time', async () => {
    const first = await search('?sorting_keys=amount&limit=2');
    assert.deepEqual(described(first), ['e4', 'e2']);
    assert.equal(first.body.pagination.hasNextPage, true);
    assert.equal(first.body.pagination.total, 5);
    const second = await search(`?sorting_keys=amount&limit=2&after=${first.body.pagination.endCursor}`);
    assert.deepEqual(described(second), ['e3', 'e1']);
    assert.equal(second.body.pagination.hasPreviousPage, true);
    const third = await search(`?sorting_keys=amount&limit=2&after=${second.body.pagination.endCursor}`);
    assert.deepEqual(described(third), ['e5']);
    assert.equal(third.body.pagination.hasNextPage, false);
  });

  it('refuses a cursor of another sort, unknown sort keys and malformed filters', async () => {
    const page = await search('?limit=1');
    const reused = await search(`?limit=1&sorting_keys=date&after=${page.body.pagination.endCursor}`);
    assert.equal(reused.status, 400);
    assert.equal(reused.body.type, 'INVALID_CURSOR');
    const badKey = await search('?sorting_keys=currency');
    assert.equal(badKey.status, 400);
    assert.equal(badKey.body.errors[0].in, 'query');
    const badDate = await search('', { dateFrom: 'yesterday' });
    assert.equal(badDate.status, 400);
    assert.equal(badDate.body.errors[0].path, '/dateFrom');
    const missingCompany = await t.request('POST', '/v1-beta/accounting-entries:search', { token, body: {} });
    assert.equal(missingCompany.status, 400);
    assert.equal(missingCompany.body.errors[0].path, '/companyId');
  });
});
