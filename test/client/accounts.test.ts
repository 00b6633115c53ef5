// The client's accounts and chart of accounts against a real service: create, replay, get, update,
// delete, search as an async iterable across pages and one page at a time, and errors as one class.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Account, Ledgerhook, LedgerhookError } from '../../clients/typescript/src/index.ts';
import { type ClientTestService, recordingFetch, type SentRequest, startClientTestService } from './support.ts';

let t: ClientTestService;
let lh: Ledgerhook;
let companyId: string;
const sent: SentRequest[] = [];

before(async () => {
  t = await startClientTestService();
  const application = await t.application();
  companyId = application.companyId;
  lh = new Ledgerhook({ baseUrl: t.baseUrl, apiKey: application.apiKey, fetch: recordingFetch(sent) });
});
after(() => t?.close());

const account = (externalId: string, name = `Account ${externalId}`) => ({
  companyId,
  externalId,
  name,
  code: externalId,
  archived: false,
});

describe('lh.accounts', () => {
  it('creates, replays, gets, updates and deletes an account', async () => {
    const created = await lh.accounts.create(account('1000', 'Cash'));
    assert.equal(created.name, 'Cash');
    assert.equal(created.companyId, companyId);
    const replayed = await lh.request('createAccountV4', { body: account('1000', 'Cash') });
    assert.equal(replayed.status, 200, 'an identical create is answered with the stored account');
    assert.equal(replayed.body.data.id, created.id);
    assert.match(String(replayed.requestId), /.+/);

    assert.deepEqual(await lh.accounts.get(created.id), created);
    const updated = await lh.accounts.update(created.id, { name: 'Cash at bank', code: '1000', archived: false });
    assert.equal(updated.name, 'Cash at bank');
    assert.equal((await lh.accounts.get(created.id)).name, 'Cash at bank');

    assert.equal(await lh.accounts.delete(created.id), undefined);
    const gone = await lh.accounts.get(created.id).catch((error: unknown) => error);
    assert.ok(gone instanceof LedgerhookError);
    assert.equal(gone.status, 404);
    assert.equal(gone.type, 'ACCOUNT_NOT_FOUND');
    assert.match(gone.message, /.+/);
    assert.equal(gone.requestId, gone.headers.get('x-request-id'));
    assert.equal(gone.requestId, (gone.body as { requestId: string }).requestId);
  });

  it('iterates every matching account across pages, and gives one page with its pagination', async () => {
    const names: string[] = [];
    for (let i = 0; i < 5; i++) names.push((await lh.accounts.create(account(`20${i}`, `Search ${i}`))).name);

    const search = lh.accounts.search({ companyId, name: 'search' }, { limit: 2, sorting_keys: ['code'] });
    const seen: Account[] = [];
    for await (const found of search) seen.push(found);
    assert.deepEqual(
      seen.map((found) => found.name),
      names,
    );
    const pageRequests = sent.filter((request) => request.url.pathname === '/v1-beta/accounts:search');
    assert.equal(pageRequests.length, 3, 'three pages of at most two');
    assert.equal(pageRequests[1]?.url.searchParams.get('limit'), '2');
    assert.ok(pageRequests[1]?.url.searchParams.get('after'), 'the next page starts after the last cursor');

    const first = await search.page();
    assert.equal(first.data.length, 2);
    assert.equal(first.pagination.total, 5);
    assert.equal(first.pagination.hasNextPage, true);
    const second = await search.page({ after: first.pagination.endCursor });
    assert.deepEqual(
      second.data.map((found) => found.name),
      names.slice(2, 4),
    );
    let pages = 0;
    for await (const page of search.pages()) pages += page.data.length > 0 ? 1 : 0;
    assert.equal(pages, 3);
  });

  it('throws a LedgerhookError with the invalid fields, and with the fields a conflict adds', async () => {
    const invalid = await lh.accounts
      .create({ companyId: 'not-a-uuid', externalId: '9', name: 'Nine', archived: false })
      .catch((error: unknown) => error);
    assert.ok(invalid instanceof LedgerhookError);
    assert.equal(invalid.status, 400);
    assert.equal(invalid.type, 'VALIDATION_FAILED');
    assert.ok(invalid.errors && invalid.errors.length > 0);

    const first = await lh.accounts.create(account('3000', 'Sales'));
    const conflict = await lh.accounts.create(account('3000', 'Other')).catch((error: unknown) => error);
    assert.ok(conflict instanceof LedgerhookError);
    assert.equal(conflict.status, 409);
    assert.equal(conflict.type, 'ACCOUNT_ALREADY_EXISTS');
    assert.equal((conflict.body as { existingId?: string }).existingId, first.id);
  });

  it('encodes path parameters: an id that is not one is a 400 or 404, never another path', async () => {
    const odd = await lh.accounts.get('../accounts:search').catch((error: unknown) => error);
    assert.ok(odd instanceof LedgerhookError);
    assert.ok([400, 404].includes(odd.status), String(odd.status));
    assert.equal(sent.at(-1)?.url.pathname, '/v1-beta/accounts/..%2Faccounts%3Asearch');
  });
});

describe('lh.chartOfAccounts', () => {
  it('creates one, a batch, and searches by codes', async () => {
    const one = await lh.chartOfAccounts.create(account('4000', 'Revenue'));
    const batch = await lh.chartOfAccounts.batch({
      companyId,
      items: [
        { externalId: '4010', name: 'Services', code: '4010', archived: false },
        { externalId: '4020', name: '', archived: false },
      ],
    });
    assert.deepEqual(
      batch.created.map((created) => created.externalId),
      ['4010'],
    );
    assert.deepEqual(batch.failed[0]?.reasons, ['NAME_EMPTY']);
    const found = [];
    for await (const item of lh.chartOfAccounts.search({ companyId, codes: ['4000', '4010'] })) found.push(item.id);
    assert.deepEqual(new Set(found), new Set([one.id, batch.created[0]?.id]));
    assert.equal((await lh.chartOfAccounts.get(one.id)).name, 'Revenue');
    await lh.chartOfAccounts.update(one.id, { name: 'Revenue (main)', code: '4000', archived: false });
    await lh.chartOfAccounts.delete(one.id);
    await assert.rejects(lh.chartOfAccounts.get(one.id), { name: 'LedgerhookError', status: 404 });
  });
});
