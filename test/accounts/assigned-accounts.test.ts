// excludeIfAssignedToContraAccount on both versions' account search: the accounts contra accounts
// use are left out of the page and of its total, with every other filter and through cursors.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';

const { t, company, token } = await startCompanyTestApp();
/** The company's accounts by name; B and D (archived) are used by contra accounts. */
const ids: Record<string, string> = {};
let walletContra: string;

before(async () => {
  for (const name of ['A', 'B', 'C', 'D', 'E']) {
    const response = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: { companyId: company, externalId: name, name, archived: name === 'D' || name === 'E' },
    });
    ids[name] = response.body.data.id;
  }
  const contra = async (kind: string, accountId: string | undefined) => {
    const response = await t.request('POST', '/v1-beta/contra-accounts', {
      token,
      body: { companyId: company, kind, accountId },
    });
    assert.equal(response.status, 201, response.text);
    return response.body.data.id;
  };
  walletContra = await contra('WALLET', ids.B);
  await contra('REIMBURSEMENT', ids.D);
  // Two contra accounts of one account leave it out once.
  await contra('EXTERNAL_REIMBURSEMENT', ids.D);
  // Another company's contra accounts leave out nothing here.
  const other = randomUUID();
  const theirs = await t.token({ companies: [other] });
  const account = await t.request('POST', '/v1-beta/accounts', {
    token: theirs,
    body: { companyId: other, externalId: 'A', name: 'A', archived: false },
  });
  await t.request('POST', '/v1-beta/contra-accounts', {
    token: theirs,
    body: { companyId: other, kind: 'WALLET', accountId: account.body.data.id },
  });
});

const names = (data: { name: string }[]) => data.map((a) => a.name);

for (const path of ['/v1-beta/accounts:search', '/v1/chart-of-accounts:search']) {
  describe(`${path} excludeIfAssignedToContraAccount`, () => {
    const search = async (body: Record<string, unknown>, query = '') => {
      const response = await t.request('POST', `${path}${query}`, { token, body: { companyId: company, ...body } });
      assert.equal(response.status, 200, response.text);
      return response.body;
    };

    it('leaves out the accounts contra accounts use, from the page and the total', async () => {
      const page = await search({ excludeIfAssignedToContraAccount: true });
      assert.deepEqual(names(page.data), ['A', 'C', 'E']);
      assert.equal(page.pagination.total, 3);
    });

    it('leaves out nothing when false or omitted', async () => {
      for (const body of [{}, { excludeIfAssignedToContraAccount: false }]) {
        const page = await search(body);
        assert.deepEqual(names(page.data), ['A', 'B', 'C', 'D', 'E']);
        assert.equal(page.pagination.total, 5);
      }
    });

    it('combines with the archived, name and ids filters', async () => {
      const exclude = { excludeIfAssignedToContraAccount: true };
      const archived = await search({ ...exclude, archived: true });
      assert.deepEqual(names(archived.data), ['E']);
      assert.equal(archived.pagination.total, 1);
      const active = await search({ ...exclude, archived: false });
      assert.deepEqual(names(active.data), ['A', 'C']);
      assert.equal(active.pagination.total, 2);
      const named = await search({ ...exclude, name: 'b' });
      assert.deepEqual(named.data, []);
      assert.equal(named.pagination.total, 0);
      const byIds = await search({ ...exclude, ids: [ids.B, ids.C] });
      assert.deepEqual(names(byIds.data), ['C']);
    });

    it('pages through the rest with cursors, binding them to the flag', async () => {
      const exclude = { excludeIfAssignedToContraAccount: true };
      const first = await search(exclude, '?limit=2');
      assert.deepEqual(names(first.data), ['A', 'C']);
      assert.equal(first.pagination.hasNextPage, true);
      const second = await search(exclude, `?limit=2&after=${first.pagination.endCursor}`);
      assert.deepEqual(names(second.data), ['E']);
      assert.equal(second.pagination.hasNextPage, false);
      assert.equal(second.pagination.total, 3);
      const other = await t.request('POST', `${path}?after=${first.pagination.endCursor}`, {
        token,
        body: { companyId: company },
      });
      assert.equal(other.status, 400);
      assert.equal(other.body.type, 'INVALID_CURSOR');
    });

    it('answers 400 for a flag that is not a boolean', async () => {
      const response = await t.request('POST', path, {
        token,
        body: { companyId: company, excludeIfAssignedToContraAccount: 'yes' },
      });
      assert.equal(response.status, 400);
    });
  });
}

it('lists an account again once the contra account using it moves to another', async () => {
  const moved = await t.request('PUT', `/v1-beta/contra-accounts/${walletContra}`, {
    token,
    body: { accountId: ids.A },
  });
  assert.equal(moved.status, 200, moved.text);
  const response = await t.request('POST', '/v1-beta/accounts:search', {
    token,
    body: { companyId: company, excludeIfAssignedToContraAccount: true },
  });
  assert.deepEqual(names(response.body.data), ['B', 'C', 'E']);
  assert.equal(response.body.pagination.total, 3);
});
