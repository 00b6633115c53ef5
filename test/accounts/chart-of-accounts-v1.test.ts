import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { basic, startCredentialsApp } from '../credentials/support.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { assertMatchesReference } from '../support/reference-schemas.ts';
import { itEnforcesAccess } from '../support/security.ts';

// /v1/chart-of-accounts over the accounts of /v1-beta/accounts (docs/decisions/chart-of-accounts-v1.md).

const { t, company, token } = await startCompanyTestApp();

const V1 = '/v1/chart-of-accounts';
// The reference's request content type.
const REFERENCE_JSON = { 'content-type': 'application/json;charset=UTF-8' };

const newAccount = (fields: Record<string, unknown> = {}) => ({
  companyId: company,
  externalId: `ext-${randomUUID()}`,
  name: 'Bank charges',
  archived: false,
  code: '2001',
  taxCodeExternalId: 'IVA 20',
  metadata: { erp: { id: 7 } },
  ...fields,
});

async function createV1(fields: Record<string, unknown> = {}) {
  const body = JSON.stringify(newAccount(fields));
  const response = await t.request('POST', V1, { token, body, headers: REFERENCE_JSON });
  assert.equal(response.status, 201, response.text);
  return response.body.data;
}

describe('POST /v1/chart-of-accounts', () => {
  it('creates an account shaped as the reference, answered as application/json;charset=UTF-8 as v1-beta', async () => {
    const body = newAccount();
    const response = await t.request('POST', V1, { token, body: JSON.stringify(body), headers: REFERENCE_JSON });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body.data, { ...body, id: response.body.data.id });
    assertMatchesReference('DataResponseBookkeepingAccountRestModelV1', response.body);
    const beta = await t.request('GET', `/v1-beta/accounts/${response.body.data.id}`, { token });
    assert.equal(response.headers['content-type'], beta.headers['content-type']);
    assert.equal(response.headers['content-type'], 'application/json;charset=UTF-8');
  });

  it('answers 200 with the stored account for an identical replay, 409 when the fields differ', async () => {
    const body = newAccount();
    const first = await t.request('POST', V1, { token, body });
    const replay = await t.request('POST', V1, { token, body });
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body, first.body);
    const other = await t.request('POST', V1, { token, body: { ...body, name: 'Other' } });
    assert.equal(other.status, 409);
    assert.equal(other.body.type, 'ACCOUNT_ALREADY_EXISTS');
    assert.equal(other.body.existingId, first.body.data.id);
  });

  it('refuses an empty externalId, which the reference requires to be non-empty', async () => {
    const response = await t.request('POST', V1, { token, body: newAccount({ externalId: '' }) });
    assert.equal(response.status, 400);
    assert.deepEqual(
      response.body.errors.map((e: { path: string }) => e.path),
      ['/externalId'],
    );
  });

  it('lists every missing required field', async () => {
    const response = await t.request('POST', V1, { token, body: { companyId: company } });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.errors.map((e: { path: string }) => e.path).sort(), [
      '/archived',
      '/externalId',
      '/name',
    ]);
  });
});

describe('one account through either version', () => {
  it('reads an account created through v1 the same through v1-beta, and the other way round', async () => {
    const viaV1 = await createV1();
    const viaBeta = (await t.request('POST', '/v1-beta/accounts', { token, body: newAccount() })).body.data;
    for (const account of [viaV1, viaBeta]) {
      const v1 = await t.request('GET', `${V1}/${account.id}`, { token });
      const beta = await t.request('GET', `/v1-beta/accounts/${account.id}`, { token });
      assert.equal(v1.status, 200);
      assert.deepEqual(v1.body, beta.body);
      assert.deepEqual(v1.body.data, account);
      assertMatchesReference('DataResponseBookkeepingAccountRestModelV1', v1.body);
    }
  });

  it('replays across versions: a v1-beta create of a v1 account answers 200, a different one 409', async () => {
    const account = await createV1();
    const { id: _id, ...fields } = account;
    const replay = await t.request('POST', '/v1-beta/accounts', { token, body: fields });
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body.data, account);
    const other = await t.request('POST', '/v1-beta/accounts', { token, body: { ...fields, name: 'x' } });
    assert.equal(other.status, 409);
  });

  it('updates and deletes through v1 what v1-beta sees', async () => {
    const account = (await t.request('POST', '/v1-beta/accounts', { token, body: newAccount() })).body.data;
    const update = { name: 'Renamed', archived: true, code: '9', metadata: { a: { b: 1 } } };
    const updated = await t.request('PUT', `${V1}/${account.id}`, {
      token,
      body: JSON.stringify(update),
      headers: REFERENCE_JSON,
    });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.body.data, { ...account, ...update, taxCodeExternalId: null });
    assertMatchesReference('DataResponseBookkeepingAccountRestModelV1', updated.body);
    assert.deepEqual((await t.request('GET', `/v1-beta/accounts/${account.id}`, { token })).body, updated.body);
    assert.equal((await t.request('DELETE', `${V1}/${account.id}`, { token })).status, 204);
    assert.equal((await t.request('GET', `/v1-beta/accounts/${account.id}`, { token })).status, 404);
    const again = await t.request('DELETE', `${V1}/${account.id}`, { token });
    assert.equal(again.status, 404);
    assert.equal(again.body.type, 'ACCOUNT_NOT_FOUND');
  });

  it('answers 404 for an unknown id on get and update', async () => {
    assert.equal((await t.request('GET', `${V1}/${randomUUID()}`, { token })).status, 404);
    const put = await t.request('PUT', `${V1}/${randomUUID()}`, { token, body: { name: 'x', archived: false } });
    assert.equal(put.status, 404);
  });
});

describe('POST /v1/chart-of-accounts:search', () => {
  const searchCompany = randomUUID();
  let searchToken: string;
  const made: Record<string, { id: string; code: string | null }> = {};

  before(async () => {
    searchToken = await t.token({ companies: [searchCompany] });
    for (const [key, code] of [
      ['a', '1000'],
      ['b', '2000'],
      ['c', '3000'],
      ['d', null],
    ] as const) {
      const response = await t.request('POST', V1, {
        token: searchToken,
        body: newAccount({ companyId: searchCompany, name: `Account ${key}`, code }),
      });
      made[key] = response.body.data;
    }
  });

  const search = (body: Record<string, unknown>, query = '') =>
    t.request('POST', `${V1}:search${query}`, {
      token: searchToken,
      body: JSON.stringify({ companyId: searchCompany, ...body }),
      headers: REFERENCE_JSON,
    });
  const idsOf = (response: { body: { data: { id: string }[] } }) => response.body.data.map((a) => a.id);

  it('finds accounts with any of the codes, ANDed with the other filters', async () => {
    const response = await search({ codes: ['1000', '3000', 'none'] });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(idsOf(response), [made.a?.id, made.c?.id]);
    assertMatchesReference('CursorPaginatedResponseBookkeepingAccountRestModelV1', response.body);
    assert.deepEqual(idsOf(await search({ codes: ['1000', '3000'], name: 'account c' })), [made.c?.id]);
    assert.deepEqual(idsOf(await search({ codes: ['1000'], code: '2000' })), []);
    assert.deepEqual(idsOf(await search({ codes: [null] })), [], 'a null code matches no account');
    assert.deepEqual(idsOf(await search({ codes: [] })), []);
    assert.deepEqual(idsOf(await search({ ids: [null, made.b?.id] })), [made.b?.id], 'a null id matches no account');
  });

  it('accepts the exclusion flags, which leave nothing out while nothing is assigned', async () => {
    const all = await search({});
    assert.equal(all.body.data.length, 4);
    for (const flags of [
      { excludeIfAssignedToCategory: true, excludeIfAssignedToContraAccount: true },
      { excludeIfAssignedToCategory: false, excludeIfAssignedToContraAccount: false },
    ]) {
      const response = await search(flags);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(idsOf(response), idsOf(all));
    }
  });

  it('pages with the reference’s query parameters', async () => {
    const first = await search({}, '?limit=2&sorting_keys=code&sorting_order=DESC_NULLS_LAST');
    assert.deepEqual(idsOf(first), [made.c?.id, made.b?.id]);
    const cursor = first.body.pagination.endCursor;
    const second = await search({}, `?limit=2&sorting_keys=code&sorting_order=DESC_NULLS_LAST&after=${cursor}`);
    assert.deepEqual(idsOf(second), [made.a?.id, made.d?.id]);
    assertMatchesReference('CursorPaginatedResponseBookkeepingAccountRestModelV1', second.body);
  });

  for (const body of [
    { excludeIfAssignedToCategory: 'yes' },
    { codes: ['1', '1'] },
    { codes: 'x' },
    { codes: ['x'.repeat(256)] },
  ]) {
    it(`refuses ${JSON.stringify(body)} with 400`, async () => {
      const response = await search(body);
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, 'VALIDATION_FAILED');
    });
  }
});

describe('access', () => {
  let account: { id: string };
  before(async () => {
    account = await createV1();
  });
  const routes = [
    {
      title: V1,
      method: 'POST',
      url: () => V1,
      body: (c: string) => newAccount({ companyId: c }),
      scope: 'accounts:write',
      companyInBody: true,
    },
    {
      title: `${V1}/batch`,
      method: 'POST',
      url: () => `${V1}/batch`,
      body: (c: string) => ({ companyId: c, items: [{ externalId: randomUUID(), name: 'n', archived: false }] }),
      scope: 'accounts:write',
      companyInBody: true,
    },
    {
      title: `${V1}/{accountId}`,
      method: 'GET',
      url: () => `${V1}/${account.id}`,
      scope: 'accounts:read',
      resourceInPath: true,
    },
    {
      title: `${V1}/{accountId}`,
      method: 'PUT',
      url: () => `${V1}/${account.id}`,
      body: () => ({ name: 'n', archived: false }),
      scope: 'accounts:write',
      resourceInPath: true,
    },
    {
      title: `${V1}/{accountId}`,
      method: 'DELETE',
      url: () => `${V1}/${account.id}`,
      scope: 'accounts:write',
      resourceInPath: true,
    },
    {
      title: `${V1}:search`,
      method: 'POST',
      url: () => `${V1}:search`,
      body: (c: string) => ({ companyId: c }),
      scope: 'accounts:read',
      companyInBody: true,
    },
  ] as const;
  for (const route of routes) {
    describe(`${route.method} ${route.title}`, () => {
      itEnforcesAccess(() => t, { ...route, company: () => company });
    });
  }
});

describe('authentication as the reference declares it', () => {
  it('accepts an API key as Basic user name (empty password) and as Bearer on every v1 operation', async () => {
    const c = await startCredentialsApp();
    try {
      const { client, apiKeyValue } = await c.createClient({ scope: 'accounts:write' });
      const companyId = client.companies[0] as string;
      for (const authorization of [basic(apiKeyValue, ''), `Bearer ${apiKeyValue}`]) {
        const headers = { ...REFERENCE_JSON, authorization };
        const items = [{ externalId: randomUUID(), name: 'Sales', archived: false }];
        const batch = await c.request('POST', `${V1}/batch`, { headers, body: JSON.stringify({ companyId, items }) });
        assert.equal(batch.status, 201, batch.text);
        const id = batch.body.data.created[0].id;
        const create = await c.request('POST', V1, {
          headers,
          body: JSON.stringify({ companyId, externalId: randomUUID(), name: 'x', archived: false }),
        });
        assert.equal(create.status, 201, create.text);
        assert.equal((await c.request('GET', `${V1}/${id}`, { headers: { authorization } })).status, 200);
        const put = await c.request('PUT', `${V1}/${id}`, { headers, body: '{"name":"y","archived":true}' });
        assert.equal(put.status, 200);
        const search = await c.request('POST', `${V1}:search`, { headers, body: JSON.stringify({ companyId }) });
        assert.equal(search.status, 200);
        assert.equal((await c.request('DELETE', `${V1}/${id}`, { headers: { authorization } })).status, 204);
      }
      const wrong = await c.request('GET', `${V1}/${randomUUID()}`, {
        headers: { authorization: basic(apiKeyValue, 'pw') },
      });
      assert.equal(wrong.status, 401);
    } finally {
      await c.close();
    }
  });
});
