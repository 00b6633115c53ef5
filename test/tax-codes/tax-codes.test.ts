import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';
import { taxCodeBody } from './fixtures.ts';

const { t, company, token } = await startCompanyTestApp();

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const newTaxCode = (fields: Record<string, unknown> = {}) => taxCodeBody(company, fields);

async function create(fields: Record<string, unknown> = {}, as = token) {
  const response = await t.request('POST', '/v0/tax-codes', { token: as, body: newTaxCode(fields) });
  assert.equal(response.status, 201, response.text);
  return response.body.data;
}

const paths = (body: { errors: { path: string }[] }) => body.errors.map((e) => e.path).sort();

describe('POST /v0/tax-codes', () => {
  it('creates a tax code and returns every field, unset ones as null', async () => {
    const body = newTaxCode({ rate: 0.2, ingoingTaxAccount: '2610' });
    const response = await t.request('POST', '/v0/tax-codes', { token, body });
    assert.equal(response.status, 201, response.text);
    const { id, createdAt, updatedAt, ...rest } = response.body.data;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(createdAt, TIMESTAMP);
    assert.equal(updatedAt, createdAt);
    assert.deepEqual(rest, { ...body, outgoingTaxAccount: null, accountingIntegrationSystem: null });
  });

  it('keeps the rate exactly, from 0 to 1 inclusive, and allows several tax codes without a code', async () => {
    for (const rate of [0, 1, 0.075, 0.30000000000000004]) {
      assert.equal((await create({ rate, code: null })).rate, rate);
    }
  });

  it('answers 409 TAX_CODE_ALREADY_EXISTS with existingId when the company has the code with other fields', async () => {
    const taxCode = await create();
    const response = await t.request('POST', '/v0/tax-codes', {
      token,
      body: newTaxCode({ code: taxCode.code, rate: 0.12 }),
    });
    assert.equal(response.status, 409);
    assert.equal(response.body.type, 'TAX_CODE_ALREADY_EXISTS');
    assert.equal(response.body.existingId, taxCode.id);
  });

  it('answers a repeated identical create 200 with the stored tax code, as an account replay', async () => {
    const body = newTaxCode({ ingoingTaxAccount: '2610' });
    const first = await t.request('POST', '/v0/tax-codes', { token, body });
    assert.equal(first.status, 201, first.text);
    const again = await t.request('POST', '/v0/tax-codes', { token, body });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data, first.body.data);
    // Without a code a tax code has no identity to replay against: each create is a new one.
    const uncoded = newTaxCode({ code: null });
    const [a, b] = [
      await t.request('POST', '/v0/tax-codes', { token, body: uncoded }),
      await t.request('POST', '/v0/tax-codes', { token, body: uncoded }),
    ];
    assert.deepEqual([a.status, b.status], [201, 201]);
    assert.notEqual(a.body.data.id, b.body.data.id);
  });

  it("answers the creating token's accounting_system claim as accountingIntegrationSystem", async () => {
    const as = await t.token({ companies: [company], accountingSystem: 'fortnox' });
    const taxCode = await create({}, as);
    assert.equal(taxCode.accountingIntegrationSystem, 'fortnox');
    const got = await t.request('GET', `/v0/tax-codes/${taxCode.id}`, { token });
    assert.equal(got.body.data.accountingIntegrationSystem, 'fortnox');
  });

  it('allows the same code in another company', async () => {
    const other = randomUUID();
    const both = await t.token({ companies: [company, other] });
    const taxCode = await create({}, both);
    await create({ code: taxCode.code, companyId: other }, both);
  });

  it('lists every missing required field', async () => {
    const response = await t.request('POST', '/v0/tax-codes', { token, body: { companyId: company } });
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(paths(response.body), ['/archived', '/name', '/rate', '/type']);
  });

  for (const [field, value] of [
    ['rate', 1.01],
    ['rate', -0.1],
    ['rate', '0.2'],
    ['type', 'zero'],
    ['archived', 'false'],
    ['code', 1],
    ['name', 'x'.repeat(256)],
    ['companyId', 'not-a-uuid'],
  ] as const) {
    it(`refuses ${field}=${JSON.stringify(value).slice(0, 20)} without coercing it`, async () => {
      const response = await t.request('POST', '/v0/tax-codes', { token, body: newTaxCode({ [field]: value }) });
      assert.equal(response.status, 400, response.text);
      assert.ok(
        response.body.errors.some((e: { path: string }) => e.path === `/${field}`),
        response.text,
      );
    });
  }
});

describe('GET /v0/tax-codes/{taxCodeId}', () => {
  it('returns the tax code', async () => {
    const taxCode = await create();
    const response = await t.request('GET', `/v0/tax-codes/${taxCode.id}`, { token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, taxCode);
  });

  it('answers 404 TAX_CODE_ID_NOT_FOUND for an unknown id and 400 for a malformed one', async () => {
    const missing = await t.request('GET', `/v0/tax-codes/${randomUUID()}`, { token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'TAX_CODE_ID_NOT_FOUND');
    const malformed = await t.request('GET', '/v0/tax-codes/42', { token });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errors[0].in, 'path');
  });
});

describe('PUT /v0/tax-codes/{taxCodeId}', () => {
  it('replaces every field; omitted optional fields become null', async () => {
    const taxCode = await create({ ingoingTaxAccount: '2610', outgoingTaxAccount: '2620' });
    const body = { companyId: company, name: 'Reverse', rate: 0, type: 'reverse', archived: true };
    const response = await t.request('PUT', `/v0/tax-codes/${taxCode.id}`, { token, body });
    assert.equal(response.status, 200, response.text);
    const { updatedAt, ...rest } = response.body.data;
    const { updatedAt: before, ...unchanged } = taxCode;
    assert.ok(updatedAt > before);
    assert.deepEqual(rest, { ...unchanged, ...body, code: null, ingoingTaxAccount: null, outgoingTaxAccount: null });
  });

  it('answers 409 TAX_CODE_ALREADY_EXISTS for a code another tax code has, and keeps its own code', async () => {
    const [first, second] = [await create(), await create()];
    const taken = await t.request('PUT', `/v0/tax-codes/${second.id}`, {
      token,
      body: newTaxCode({ code: first.code }),
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.type, 'TAX_CODE_ALREADY_EXISTS');
    assert.equal(taken.body.existingId, first.id);
    const same = await t.request('PUT', `/v0/tax-codes/${second.id}`, {
      token,
      body: newTaxCode({ code: second.code }),
    });
    assert.equal(same.status, 200);
  });

  it('answers 400 on /companyId when the body names another company of the token', async () => {
    const other = randomUUID();
    const both = await t.token({ companies: [company, other] });
    const taxCode = await create();
    const response = await t.request('PUT', `/v0/tax-codes/${taxCode.id}`, {
      token: both,
      body: newTaxCode({ companyId: other }),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(paths(response.body), ['/companyId']);
  });

  it('answers 404 for an unknown tax code and 400 when required fields are missing', async () => {
    const missing = await t.request('PUT', `/v0/tax-codes/${randomUUID()}`, { token, body: newTaxCode() });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'TAX_CODE_ID_NOT_FOUND');
    const taxCode = await create();
    const invalid = await t.request('PUT', `/v0/tax-codes/${taxCode.id}`, { token, body: { companyId: company } });
    assert.equal(invalid.status, 400);
    assert.deepEqual(paths(invalid.body), ['/archived', '/name', '/rate', '/type']);
  });
});

describe('DELETE /v0/tax-codes/{taxCodeId}', () => {
  it('deletes: 204, then 404', async () => {
    const taxCode = await create();
    const response = await t.request('DELETE', `/v0/tax-codes/${taxCode.id}`, { token });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.equal((await t.request('GET', `/v0/tax-codes/${taxCode.id}`, { token })).status, 404);
    assert.equal((await t.request('DELETE', `/v0/tax-codes/${taxCode.id}`, { token })).status, 404);
  });

  it('deletes a tax code that accounts name; the accounts keep their taxCodeExternalId', async () => {
    const taxCode = await create();
    const account = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: { companyId: company, externalId: randomUUID(), name: 'Sales', archived: false },
    });
    const accountUrl = `/v1-beta/accounts/${account.body.data.id}`;
    const linked = { name: 'Sales', archived: false, taxCodeExternalId: taxCode.code };
    assert.equal((await t.request('PUT', accountUrl, { token, body: linked })).status, 200);
    assert.equal((await t.request('DELETE', `/v0/tax-codes/${taxCode.id}`, { token })).status, 204);
    const after = await t.request('GET', accountUrl, { token });
    assert.equal(after.body.data.taxCodeExternalId, taxCode.code);
  });
});

describe('access to tax codes', () => {
  let taxCode: { id: string };
  before(async () => {
    taxCode = await create();
  });
  const app = () => t;
  const company_ = () => company;
  describe('create', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => '/v0/tax-codes',
      body: (c) => newTaxCode({ companyId: c }),
      scope: 'tax-codes:write',
      company: company_,
      companyInBody: true,
    }));
  describe('get', () =>
    itEnforcesAccess(app, {
      method: 'GET',
      url: () => `/v0/tax-codes/${taxCode.id}`,
      scope: 'tax-codes:read',
      company: company_,
      resourceInPath: true,
    }));
  describe('update', () =>
    itEnforcesAccess(app, {
      method: 'PUT',
      url: () => `/v0/tax-codes/${taxCode.id}`,
      body: (c) => newTaxCode({ companyId: c }),
      scope: 'tax-codes:write',
      company: company_,
      companyInBody: true,
      resourceInPath: true,
    }));
  describe('delete', () =>
    itEnforcesAccess(app, {
      method: 'DELETE',
      url: () => `/v0/tax-codes/${taxCode.id}`,
      scope: 'tax-codes:write',
      company: company_,
      resourceInPath: true,
    }));
  describe('search', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      // The company is a query parameter here; a token without it gets 403 as for a body's companyId.
      url: () => `/v0/tax-codes:search?company_id=${company}`,
      body: () => ({}),
      scope: 'tax-codes:read',
      company: company_,
      companyInBody: true,
    }));

  it('lets a token with tax-codes:read read but not write', async () => {
    const reader = await t.token({ companies: [company], scopes: ['tax-codes:read'] });
    assert.equal((await t.request('GET', `/v0/tax-codes/${taxCode.id}`, { token: reader })).status, 200);
    assert.equal((await t.request('POST', '/v0/tax-codes', { token: reader, body: newTaxCode() })).status, 403);
  });
});
