import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { CATEGORIES, fixtures, startBookkeepingTestApp } from './support.ts';

// excludeIfAssignedToCategory on both account searches leaves out the accounts a category (archived
// or not) books to, with an exact total and cursors bound to the flag (docs/decisions/bookkeeping.md).

const { t, company, token, make } = await startBookkeepingTestApp();
/** Accounts "A00".."A19": every third one has a category, A09 only an archived one; A18 and A19 archived. */
const accounts: { id: string; name: string }[] = [];
const assigned = new Set<string>();

before(async () => {
  const group = await make.group();
  for (let i = 0; i < 20; i++) {
    accounts.push(await make.account({ name: `A${String(i).padStart(2, '0')}`, archived: i >= 18 }));
  }
  for (const [i, account] of accounts.entries()) {
    if (i % 3 !== 0) continue;
    await make.category(group.id, account.id, { archived: i === 9 });
    assigned.add(account.name);
  }
  // A second category on one account: the account is left out once, and counted once.
  await make.category(group.id, accounts[0]?.id as string, { name: 'Second' });
  // Another company's categories change nothing here.
  const other = randomUUID();
  const otherToken = await t.token({ companies: [other] });
  const theirs = fixtures(
    () => t,
    other,
    () => otherToken,
  );
  await theirs.category((await theirs.group()).id, (await theirs.account()).id);
});

const SEARCHES = ['/v1-beta/accounts:search', '/v1/chart-of-accounts:search'];
const search = (path: string, body: Record<string, unknown>, query = '') =>
  t.request('POST', `${path}${query}`, { token, body: { companyId: company, ...body } });
const names = (response: { body: { data: { name: string }[] } }) => response.body.data.map((a) => a.name);
const free = (archived: boolean | null = null) =>
  accounts.filter((a, i) => !assigned.has(a.name) && (archived === null || i >= 18 === archived)).map((a) => a.name);

describe('excludeIfAssignedToCategory', () => {
  for (const path of SEARCHES) {
    it(`${path}: leaves out the accounts categories use, archived categories too, with the total`, async () => {
      const response = await search(path, { excludeIfAssignedToCategory: true });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(names(response), free());
      assert.equal(response.body.pagination.total, free().length);
    });

    it(`${path}: false or omitted leaves every account in`, async () => {
      for (const body of [{}, { excludeIfAssignedToCategory: false }]) {
        const response = await search(path, body);
        assert.equal(response.body.pagination.total, accounts.length);
      }
    });
  }

  it('keeps the total exact beside archived, and combines with name, ids and code filters', async () => {
    const path = SEARCHES[0] as string;
    for (const archived of [true, false]) {
      const response = await search(path, { excludeIfAssignedToCategory: true, archived });
      assert.deepEqual(names(response), free(archived));
      assert.equal(response.body.pagination.total, free(archived).length);
    }
    const named = await search(path, { excludeIfAssignedToCategory: true, name: 'a1' });
    assert.deepEqual(
      names(named),
      free().filter((name) => name.startsWith('A1')),
    );
    const ids = accounts.slice(0, 4).map((a) => a.id);
    assert.deepEqual(names(await search(path, { excludeIfAssignedToCategory: true, ids })), ['A01', 'A02']);
  });

  it('pages over the accounts left in, each once, forwards, backwards and by offset', async () => {
    const path = SEARCHES[0] as string;
    const body = { excludeIfAssignedToCategory: true };
    const seen: string[] = [];
    let query = '?limit=3';
    for (;;) {
      const page = await search(path, body, query);
      seen.push(...names(page));
      if (!page.body.pagination.hasNextPage) break;
      query = `?limit=3&after=${page.body.pagination.endCursor}`;
    }
    assert.deepEqual(seen, free());
    const last = await search(path, body, `?limit=3&offset=${free().length - 3}`);
    assert.deepEqual(names(last), free().slice(-3));
    const before = await search(path, body, `?limit=3&before=${last.body.pagination.startCursor}`);
    assert.deepEqual(names(before), free().slice(-6, -3));
  });

  it('refuses a cursor made without the flag', async () => {
    const path = SEARCHES[0] as string;
    const plain = await search(path, {}, '?limit=2');
    const response = await search(
      path,
      { excludeIfAssignedToCategory: true },
      `?after=${plain.body.pagination.endCursor}`,
    );
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'INVALID_CURSOR');
  });

  it('brings an account back once its categories are deleted or moved', async () => {
    const group = await make.group();
    const [first, second] = [await make.account({ name: 'B1' }), await make.account({ name: 'B2' })];
    const category = await make.category(group.id, first.id);
    const left = async () =>
      names(await search(SEARCHES[0] as string, { excludeIfAssignedToCategory: true, name: 'B' }));
    assert.deepEqual(await left(), ['B2']);
    await t.request('PUT', `${CATEGORIES}/${category.id}`, {
      token,
      body: { name: 'Moved', groupId: group.id, accountId: second.id, archived: false },
    });
    assert.deepEqual(await left(), ['B1']);
    assert.equal((await t.request('DELETE', `${CATEGORIES}/${category.id}`, { token })).status, 204);
    assert.deepEqual(await left(), ['B1', 'B2']);
  });

  it('refuses a flag that is not a boolean', async () => {
    for (const path of SEARCHES) {
      const response = await search(path, { excludeIfAssignedToCategory: 'yes' });
      assert.equal(response.status, 400);
      assert.equal(response.body.errors[0].path, '/excludeIfAssignedToCategory');
    }
  });
});
