import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';

const { t, company, token } = await startCompanyTestApp();

const newAccount = (fields: Record<string, unknown> = {}) => ({
  companyId: company,
  externalId: `ext-${randomUUID()}`,
  name: 'Bank charges',
  archived: false,
  code: '2001',
  ...fields,
});

async function create(fields: Record<string, unknown> = {}) {
  const response = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount(fields) });
  assert.equal(response.status, 201, response.text);
  return response.body.data;
}

describe('POST /v1-beta/accounts', () => {
  it('creates an account and returns every field, unset ones as null', async () => {
    const body = newAccount({ metadata: { erp: { id: 7 }, note: null } });
    const response = await t.request('POST', '/v1-beta/accounts', { token, body });
    assert.equal(response.status, 201);
    assert.match(response.body.data.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(response.body.data, { ...body, id: response.body.data.id, taxCodeExternalId: null });
  });

  it('answers 200 with the stored account when the same request is replayed', async () => {
    const body = newAccount({ metadata: { a: 1, b: [1, 2] } });
    const first = await t.request('POST', '/v1-beta/accounts', { token, body });
    const replay = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: { ...body, metadata: { b: [1, 2], a: 1 } },
    });
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body, first.body);
  });

  it('takes a taxCodeExternalId no tax code has, which the same fields by PUT refuse (api-conventions.md)', async () => {
    const fields = { name: 'Sales', archived: false, code: '3001', taxCodeExternalId: `VAT-${randomUUID()}` };
    const created = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount(fields) });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.data.taxCodeExternalId, fields.taxCodeExternalId);
    const replaced = await t.request('PUT', `/v1-beta/accounts/${created.body.data.id}`, { token, body: fields });
    assert.equal(replaced.status, 400);
    assert.equal(replaced.body.type, 'TAX_CODE_NOT_FOUND');
  });

  it('answers 409 ACCOUNT_ALREADY_EXISTS with existingId when the externalId is taken with other fields', async () => {
    const account = await create();
    const response = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: newAccount({ externalId: account.externalId, name: 'Other' }),
    });
    assert.equal(response.status, 409);
    assert.equal(response.headers['content-type'], 'application/json;charset=UTF-8');
    assert.equal(response.body.type, 'ACCOUNT_ALREADY_EXISTS');
    assert.equal(response.body.existingId, account.id);
  });

  it('allows the same externalId in another company', async () => {
    const other = randomUUID();
    const both = await t.token({ companies: [company, other] });
    const body = newAccount();
    assert.equal((await t.request('POST', '/v1-beta/accounts', { token: both, body })).status, 201);
    assert.equal(
      (await t.request('POST', '/v1-beta/accounts', { token: both, body: { ...body, companyId: other } })).status,
      201,
    );
  });

  it('counts string limits in characters, not bytes', async () => {
    const name = '€'.repeat(255);
    assert.equal((await t.request('POST', '/v1-beta/accounts', { token, body: newAccount({ name }) })).status, 201);
    const tooLong = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount({ name: `${name}x` }) });
    assert.equal(tooLong.status, 400);
    assert.deepEqual(
      tooLong.body.errors.map((e: { path: string }) => e.path),
      ['/name'],
    );
  });

  it('lists every missing required field', async () => {
    const response = await t.request('POST', '/v1-beta/accounts', { token, body: { companyId: company } });
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(response.body.errors.map((e: { path: string }) => e.path).sort(), [
      '/archived',
      '/externalId',
      '/name',
    ]);
  });

  for (const [field, value] of [
    ['archived', 'false'],
    ['name', 12],
    ['companyId', 'not-a-uuid'],
    ['code', 2001],
    ['metadata', 'text'],
    ['metadata', [1]],
    ['name', 'a\u0000'],
    ['externalId', '\u0000'],
    ['metadata', { note: 'a\u0000' }],
    ['metadata', { deep: [{ 'k\u0000': 1 }] }],
  ] as const) {
    it(`refuses ${field}=${JSON.stringify(value)} without coercing it`, async () => {
      const response = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount({ [field]: value }) });
      assert.equal(response.status, 400, response.text);
      assert.ok(
        response.body.errors.some((e: { path: string }) => e.path.startsWith(`/${field}`)),
        response.text,
      );
    });
  }

  it('refuses metadata over 64 KiB', async () => {
    const response = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: newAccount({ metadata: { blob: 'x'.repeat(65 * 1024) } }),
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.errors[0].path, '/metadata');
  });

  it('refuses unknown fields, naming them (test/http/unknown-properties.test.ts has the rest)', async () => {
    const response = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount({ colour: 'red' }) });
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body.errors, [{ path: '/colour', message: 'Unknown property "colour"', in: 'body' }]);
  });

  it('answers 400 MALFORMED_JSON, 415 for other content types and 413 for bodies over 1 MiB', async () => {
    const malformed = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: '{"name":',
      headers: { 'content-type': 'application/json;charset=UTF-8' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.type, 'MALFORMED_JSON');
    const text = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    assert.equal(text.body.type, 'UNSUPPORTED_MEDIA_TYPE');
    const huge = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: JSON.stringify(newAccount({ metadata: { blob: 'x'.repeat(1024 * 1024) } })),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.type, 'PAYLOAD_TOO_LARGE');
  });

  it('records the accounting system of the creating token, shown by search only', async () => {
    const xero = await t.token({ companies: [company], accountingSystem: 'xero' });
    const created = await t.request('POST', '/v1-beta/accounts', { token: xero, body: newAccount() });
    assert.equal('accountingSystem' in created.body.data, false);
    const found = await t.request('POST', '/v1-beta/accounts:search', {
      token,
      body: { companyId: company, ids: [created.body.data.id] },
    });
    assert.deepEqual(found.body.data, [{ ...created.body.data, accountingSystem: 'xero' }]);
    const got = await t.request('GET', `/v1-beta/accounts/${created.body.data.id}`, { token });
    assert.deepEqual(got.body.data, created.body.data);
  });

  it('keeps an accounting system that JSON must escape as it was given', async () => {
    const odd = await t.token({ companies: [company], accountingSystem: 'Sage "50"\\\u00e9' });
    const created = await t.request('POST', '/v1-beta/accounts', { token: odd, body: newAccount() });
    const found = await t.request('POST', '/v1-beta/accounts:search', {
      token,
      body: { companyId: company, ids: [created.body.data.id] },
    });
    assert.equal(found.body.data[0].accountingSystem, 'Sage "50"\\\u00e9');
  });
});

describe('GET /v1-beta/accounts/{accountId}', () => {
  it('returns the account', async () => {
    const account = await create();
    const response = await t.request('GET', `/v1-beta/accounts/${account.id}`, { token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, account);
  });

  it('shows the account as last written, with metadata JSON must escape', async () => {
    const metadata = { 'quote"key': 'tab\there', nested: { list: [1, 2.5, null, true] }, text: 'é ünï \u2028 😀' };
    const account = await create({ metadata });
    const updated = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
      token,
      body: { name: 'Renamed "quoted"', archived: true, code: '9\\9', metadata: { ...metadata, added: 'yes' } },
    });
    assert.equal(updated.status, 200, updated.text);
    const response = await t.request('GET', `/v1-beta/accounts/${account.id}`, { token });
    assert.deepEqual(response.body.data, updated.body.data);
    assert.deepEqual(response.body.data.metadata, { ...metadata, added: 'yes' });
    const found = await t.request('POST', '/v1-beta/accounts:search', {
      token,
      body: { companyId: company, ids: [account.id] },
    });
    assert.deepEqual(found.body.data, [updated.body.data]);
  });

  it('answers 404 ACCOUNT_NOT_FOUND for an unknown id and 400 for a malformed one', async () => {
    const missing = await t.request('GET', `/v1-beta/accounts/${randomUUID()}`, { token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'ACCOUNT_NOT_FOUND');
    const malformed = await t.request('GET', '/v1-beta/accounts/42', { token });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errors[0].in, 'path');
  });
});

describe('PUT /v1-beta/accounts/{accountId}', () => {
  it('replaces the mutable fields; omitted optional fields become null', async () => {
    const account = await create({ metadata: { a: 1 } });
    const response = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
      token,
      body: { name: 'Renamed', archived: true },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, { ...account, name: 'Renamed', archived: true, code: null, metadata: null });
  });

  it('archives and unarchives', async () => {
    const account = await create();
    for (const archived of [true, false]) {
      const response = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
        token,
        body: { name: account.name, archived },
      });
      assert.equal(response.body.data.archived, archived);
    }
  });

  it('accepts a taxCodeExternalId that is the code of a tax code of the company, else 400 TAX_CODE_NOT_FOUND', async () => {
    const account = await create();
    const unknown = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
      token,
      body: { name: 'x', archived: false, taxCodeExternalId: 'VAT25' },
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.type, 'TAX_CODE_NOT_FOUND');
    assert.deepEqual((await t.request('GET', `/v1-beta/accounts/${account.id}`, { token })).body.data, account);

    await t.db.query(
      `INSERT INTO tax_codes (company_id, name, code, rate, type, archived) VALUES ($1, 'VAT 25 %', 'VAT25', 0.25, 'inclusive', false)`,
      [company],
    );
    const known = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
      token,
      body: { name: 'x', archived: false, taxCodeExternalId: 'VAT25' },
    });
    assert.equal(known.status, 200);
    assert.equal(known.body.data.taxCodeExternalId, 'VAT25');
  });

  it('answers 404 for an unknown account and 400 when required fields are missing', async () => {
    assert.equal(
      (await t.request('PUT', `/v1-beta/accounts/${randomUUID()}`, { token, body: { name: 'x', archived: false } }))
        .status,
      404,
    );
    const account = await create();
    const missing = await t.request('PUT', `/v1-beta/accounts/${account.id}`, { token, body: { name: 'x' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(
      missing.body.errors.map((e: { path: string }) => e.path),
      ['/archived'],
    );
  });
});

describe('DELETE /v1-beta/accounts/{accountId}', () => {
  it('deletes an unlinked account: 204, then 404', async () => {
    const account = await create();
    const response = await t.request('DELETE', `/v1-beta/accounts/${account.id}`, { token });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.equal((await t.request('GET', `/v1-beta/accounts/${account.id}`, { token })).status, 404);
    assert.equal((await t.request('DELETE', `/v1-beta/accounts/${account.id}`, { token })).status, 404);
  });

  it('answers 409 ACCOUNT_IN_USE while an accounting entry references the account', async () => {
    const account = await create();
    await t.db.query(
      `INSERT INTO accounting_entries (company_id, account_id, amount, currency, date) VALUES ($1, $2, 10, 'EUR', '2026-11-01')`,
      [company, account.id],
    );
    const response = await t.request('DELETE', `/v1-beta/accounts/${account.id}`, { token });
    assert.equal(response.status, 409);
    assert.equal(response.body.type, 'ACCOUNT_IN_USE');
    assert.equal((await t.request('GET', `/v1-beta/accounts/${account.id}`, { token })).status, 200);
  });
});

describe('routing', () => {
  it('answers 404 ROUTE_NOT_FOUND for unknown paths and 405 with Allow for other methods', async () => {
    const unknown = await t.request('GET', '/v1-beta/nothing', { token });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.type, 'ROUTE_NOT_FOUND');
    const wrongMethod = await t.request('PATCH', `/v1-beta/accounts/${randomUUID()}`, { token });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.allow, 'GET, PUT, DELETE');
  });

  it('routes a trailing slash as the path without it, in 405s too', async () => {
    // `/v1-beta/accounts/` is the create route's path, not an account with an empty id.
    const noId = await t.request('GET', '/v1-beta/accounts/', { token });
    assert.equal(noId.status, 405);
    assert.equal(noId.headers.allow, 'POST');
    assert.equal(noId.body.detail, 'GET is not allowed on /v1-beta/accounts/; use POST');
    const created = await t.request('POST', '/v1-beta/accounts/', { token, body: newAccount() });
    assert.equal(created.status, 201);
    const unknown = await t.request('GET', '/v1-beta/tax-codes/', { token });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.type, 'ROUTE_NOT_FOUND');
  });

  it('reads a percent-encoded colon as the colon of a custom method', async () => {
    // encodeURIComponent('accounts:search') is `accounts%3Asearch`: the same route, on every custom method.
    const created = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount() });
    const body = { companyId: company, ids: [created.body.data.id] };
    for (const path of ['/v1-beta/accounts%3Asearch', '/v1-beta/accounts%3asearch']) {
      const response = await t.request('POST', path, { token, body });
      assert.equal(response.status, 200, path);
      assert.deepEqual(response.body.data, [created.body.data]);
    }
    const rotated = await t.request('POST', `/v1/subscriptions/${randomUUID()}/secret%3Arotate`, { token });
    assert.equal(rotated.body.type, 'SUBSCRIPTION_NOT_FOUND');
    const unknownMethod = await t.request('POST', '/v1-beta/accounts%3Afind', { token, body });
    assert.equal(unknownMethod.body.type, 'ROUTE_NOT_FOUND');
    assert.equal(unknownMethod.body.detail, 'No route POST /v1-beta/accounts:find');
  });

  it('echoes a request id in x-request-id and in problem bodies', async () => {
    const response = await t.request('GET', `/v1-beta/accounts/${randomUUID()}`, {
      token,
      headers: { 'x-request-id': 'trace-123' },
    });
    assert.equal(response.headers['x-request-id'], 'trace-123');
    assert.equal(response.body.requestId, 'trace-123');
  });
});

describe('access to accounts', () => {
  let account: { id: string };
  before(async () => {
    account = await create();
  });
  const app = () => t;
  const company_ = () => company;
  describe('create', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => '/v1-beta/accounts',
      body: (c) => newAccount({ companyId: c }),
      scope: 'accounts:write',
      company: company_,
      companyInBody: true,
    }));
  describe('get', () =>
    itEnforcesAccess(app, {
      method: 'GET',
      url: () => `/v1-beta/accounts/${account.id}`,
      scope: 'accounts:read',
      company: company_,
      resourceInPath: true,
    }));
  describe('update', () =>
    itEnforcesAccess(app, {
      method: 'PUT',
      url: () => `/v1-beta/accounts/${account.id}`,
      body: () => ({ name: 'x', archived: false }),
      scope: 'accounts:write',
      company: company_,
      resourceInPath: true,
    }));
  describe('delete', () =>
    itEnforcesAccess(app, {
      method: 'DELETE',
      url: () => `/v1-beta/accounts/${account.id}`,
      scope: 'accounts:write',
      company: company_,
      resourceInPath: true,
    }));
  describe('search', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => '/v1-beta/accounts:search',
      body: (c) => ({ companyId: c }),
      scope: 'accounts:read',
      company: company_,
      companyInBody: true,
    }));

  it('lets a token with accounts:read read but not write', async () => {
    const reader = await t.token({ companies: [company], scopes: ['accounts:read'] });
    assert.equal((await t.request('GET', `/v1-beta/accounts/${account.id}`, { token: reader })).status, 200);
    assert.equal((await t.request('POST', '/v1-beta/accounts', { token: reader, body: newAccount() })).status, 403);
  });
});

describe('validation errors', () => {
  it('name a broken nullable field once, with the rule it breaks', async () => {
    const response = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: newAccount({ code: 'x'.repeat(256) }),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.errors, [
      { path: '/code', message: 'must NOT have more than 255 characters', in: 'body' },
    ]);
  });
});
