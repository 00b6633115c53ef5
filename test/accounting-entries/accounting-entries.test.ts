import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';
import { entryFixtures } from './fixtures.ts';

const { t, company, token } = await startCompanyTestApp();
const { createAccount, newEntry, createEntry: create } = entryFixtures({ t, company, token });

const paths = (body: { errors: { path: string }[] }) => body.errors.map((e) => e.path).sort();

describe('POST /v1-beta/accounting-entries', () => {
  it('creates an entry and returns every field', async () => {
    const body = newEntry();
    const response = await t.request('POST', '/v1-beta/accounting-entries', { token, body });
    assert.equal(response.status, 201, response.text);
    const { id, createdAt, ...rest } = response.body.data;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    assert.deepEqual(rest, body);
  });

  it('answers the amount as stored: a decimal string, never a rounded float', async () => {
    for (const [sent, stored] of [
      ['0.1', '0.1'],
      ['100', '100'],
      ['007.5', '7.5'],
      ['-0.0001', '-0.0001'],
      ['999999999999999.9999', '999999999999999.9999'],
    ]) {
      assert.equal((await create({ amount: sent })).amount, stored);
    }
  });

  it('makes an omitted description null', async () => {
    const { description, ...body } = newEntry();
    const response = await t.request('POST', '/v1-beta/accounting-entries', { token, body });
    assert.equal(response.body.data.description, null);
  });

  it('answers 400 UNKNOWN_ACCOUNT for an account that does not exist or is of another company', async () => {
    const other = randomUUID();
    const both = await t.token({ companies: [company, other] });
    const foreignAccount = await createAccount(other, both);
    for (const unknown of [randomUUID(), foreignAccount]) {
      const response = await t.request('POST', '/v1-beta/accounting-entries', {
        token: both,
        body: newEntry({ accountId: unknown }),
      });
      assert.equal(response.status, 400);
      assert.equal(response.body.type, 'UNKNOWN_ACCOUNT');
      assert.deepEqual(paths(response.body), ['/accountId']);
    }
  });

  it('lists every missing required field', async () => {
    const response = await t.request('POST', '/v1-beta/accounting-entries', { token, body: { companyId: company } });
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(paths(response.body), ['/accountId', '/amount', '/currency', '/date']);
  });

  for (const [field, value] of [
    ['amount', -12.5],
    ['amount', '12.'],
    ['amount', '1.23456'],
    ['amount', '1e3'],
    ['amount', '+1'],
    ['currency', 'eur'],
    ['currency', 'EURO'],
    ['date', '2026-02-30'],
    ['date', '22.11.2026'],
    ['description', 'x'.repeat(1001)],
    ['accountId', 'not-a-uuid'],
  ] as const) {
    it(`refuses ${field}=${JSON.stringify(value).slice(0, 20)}`, async () => {
      const response = await t.request('POST', '/v1-beta/accounting-entries', {
        token,
        body: newEntry({ [field]: value }),
      });
      assert.equal(response.status, 400, response.text);
      // A nullable field's union reports each of its branches.
      assert.deepEqual([...new Set(paths(response.body))], [`/${field}`]);
    });
  }
});

describe('GET /v1-beta/accounting-entries/{accountingEntryId}', () => {
  it('returns the entry', async () => {
    const entry = await create();
    const response = await t.request('GET', `/v1-beta/accounting-entries/${entry.id}`, { token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, entry);
  });

  it('answers 404 ACCOUNTING_ENTRY_NOT_FOUND for an unknown id and 400 for a malformed one', async () => {
    const missing = await t.request('GET', `/v1-beta/accounting-entries/${randomUUID()}`, { token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'ACCOUNTING_ENTRY_NOT_FOUND');
    const malformed = await t.request('GET', '/v1-beta/accounting-entries/42', { token });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errors[0].in, 'path');
  });
});

describe('DELETE /v1-beta/accounting-entries/{accountingEntryId}', () => {
  it('deletes: 204, then 404; the account can then be deleted', async () => {
    const account = await createAccount();
    const entry = await create({ accountId: account });
    assert.equal((await t.request('DELETE', `/v1-beta/accounts/${account}`, { token })).status, 409);
    const response = await t.request('DELETE', `/v1-beta/accounting-entries/${entry.id}`, { token });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.equal((await t.request('GET', `/v1-beta/accounting-entries/${entry.id}`, { token })).status, 404);
    assert.equal((await t.request('DELETE', `/v1-beta/accounting-entries/${entry.id}`, { token })).status, 404);
    assert.equal((await t.request('DELETE', `/v1-beta/accounts/${account}`, { token })).status, 204);
  });
});

describe('access to accounting entries', () => {
  let entry: { id: string };
  before(async () => {
    entry = await create();
  });
  const app = () => t;
  const company_ = () => company;
  describe('create', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => '/v1-beta/accounting-entries',
      body: (c) => newEntry({ companyId: c }),
      scope: 'accounting-entries:write',
      company: company_,
      companyInBody: true,
    }));
  describe('get', () =>
    itEnforcesAccess(app, {
      method: 'GET',
      url: () => `/v1-beta/accounting-entries/${entry.id}`,
      scope: 'accounting-entries:read',
      company: company_,
      resourceInPath: true,
    }));
  describe('delete', () =>
    itEnforcesAccess(app, {
      method: 'DELETE',
      url: () => `/v1-beta/accounting-entries/${entry.id}`,
      scope: 'accounting-entries:write',
      company: company_,
      resourceInPath: true,
    }));
  describe('search', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => '/v1-beta/accounting-entries:search',
      body: (c) => ({ companyId: c }),
      scope: 'accounting-entries:read',
      company: company_,
      companyInBody: true,
    }));

  it('lets a token with accounting-entries:read read but not write', async () => {
    const reader = await t.token({ companies: [company], scopes: ['accounting-entries:read'] });
    const url = `/v1-beta/accounting-entries/${entry.id}`;
    assert.equal((await t.request('GET', url, { token: reader })).status, 200);
    assert.equal((await t.request('DELETE', url, { token: reader })).status, 403);
  });
});

describe('text the database cannot store', () => {
  it('answers 400 for a NUL character in a free-text field, and stores nothing', async () => {
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounting_entries');
    const response = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: newEntry({ description: 'a\u0000b' }),
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(paths(response.body), ['/description']);
    const after_ = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounting_entries');
    assert.deepEqual(after_, before);
  });
});
