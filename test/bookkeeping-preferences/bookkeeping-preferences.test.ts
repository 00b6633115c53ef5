import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';

const { t, company, token, freshCompany } = await startCompanyTestApp();

const PATH = '/v1-beta/bookkeeping-preferences';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DEFAULTS = {
  bookkeepingMethod: 'NONE',
  exportExpensesAsPositiveAmounts: false,
  exportFormat: 'MULTI_LINE',
  metadata: null,
  updatedAt: null,
};

const get = (companyId: string, as: string) => t.request('GET', `${PATH}?companyId=${companyId}`, { token: as });
const put = (body: Record<string, unknown>, as: string) => t.request('PUT', PATH, { token: as, body });

const preferences = (companyId: string, fields: Record<string, unknown> = {}) => ({
  companyId,
  bookkeepingMethod: 'JOURNAL',
  exportExpensesAsPositiveAmounts: true,
  exportFormat: 'ONE_LINE',
  ...fields,
});

const paths = (body: { errors: { path: string }[] }) => [...new Set(body.errors.map((e) => e.path))].sort();

describe('GET /v1-beta/bookkeeping-preferences', () => {
  it('answers the defaults, updatedAt null, before the first PUT', async () => {
    const c = await freshCompany();
    const response = await get(c.companyId.toUpperCase(), c.token);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.data, { companyId: c.companyId, ...DEFAULTS });
  });

  it('answers 400 without a companyId or with a malformed one', async () => {
    const missing = await t.request('GET', PATH, { token });
    assert.equal(missing.status, 400);
    assert.deepEqual(paths(missing.body), ['/companyId']);
    assert.equal((await get('nope', token)).status, 400);
  });
});

describe('PUT /v1-beta/bookkeeping-preferences', () => {
  it('stores the preferences, which GET then answers', async () => {
    const c = await freshCompany();
    const body = preferences(c.companyId, { metadata: { erp: 'e-conomic' } });
    const stored = await put(body, c.token);
    assert.equal(stored.status, 200, stored.text);
    const { updatedAt, ...rest } = stored.body.data;
    assert.deepEqual(rest, body);
    assert.match(updatedAt, TIMESTAMP);
    assert.deepEqual((await get(c.companyId, c.token)).body.data, stored.body.data);
  });

  it('replaces every field on the next PUT: an omitted metadata becomes null', async () => {
    const c = await freshCompany();
    const first = await put(preferences(c.companyId, { metadata: { a: 1 } }), c.token);
    const body = preferences(c.companyId, { bookkeepingMethod: 'ACCOUNTS_PAYABLE', exportFormat: 'MULTI_LINE' });
    const second = await put(body, c.token);
    assert.equal(second.status, 200);
    const { updatedAt, ...rest } = second.body.data;
    assert.deepEqual(rest, { ...body, metadata: null });
    assert.ok(updatedAt > first.body.data.updatedAt);
  });

  it("keeps each company's preferences to itself", async () => {
    const ours = await freshCompany();
    const theirs = await freshCompany();
    await put(preferences(ours.companyId), ours.token);
    assert.deepEqual((await get(theirs.companyId, theirs.token)).body.data, {
      companyId: theirs.companyId,
      ...DEFAULTS,
    });
  });

  it('ends concurrent PUTs with one of them stored whole', async () => {
    const c = await freshCompany();
    const bodies = (['NONE', 'JOURNAL', 'ACCOUNTS_PAYABLE'] as const).map((bookkeepingMethod, i) =>
      preferences(c.companyId, { bookkeepingMethod, exportExpensesAsPositiveAmounts: i % 2 === 0, metadata: { i } }),
    );
    const answers = await Promise.all(bodies.map((body) => put(body, c.token)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200],
    );
    const { updatedAt: _, ...stored } = (await get(c.companyId, c.token)).body.data;
    assert.ok(
      bodies.some((body) => isDeepStrictEqual(body, stored)),
      JSON.stringify(stored),
    );
  });

  it('lists every missing required field', async () => {
    const response = await put({}, token);
    assert.equal(response.status, 400);
    assert.deepEqual(paths(response.body), [
      '/bookkeepingMethod',
      '/companyId',
      '/exportExpensesAsPositiveAmounts',
      '/exportFormat',
    ]);
  });

  for (const [field, value] of [
    ['bookkeepingMethod', 'CASH'],
    ['bookkeepingMethod', null],
    ['exportExpensesAsPositiveAmounts', 'true'],
    ['exportFormat', 'one_line'],
    ['companyId', 'nope'],
    ['metadata', [1]],
    ['metadata', { big: 'x'.repeat(64 * 1024) }],
  ] as const) {
    it(`answers 400 for ${field} = ${JSON.stringify(value).slice(0, 30)}, storing nothing`, async () => {
      const c = await freshCompany();
      const response = await put({ ...preferences(c.companyId), [field]: value }, c.token);
      assert.equal(response.status, 400, response.text);
      assert.deepEqual(paths(response.body), [`/${field}`]);
      assert.deepEqual((await get(c.companyId, c.token)).body.data, { companyId: c.companyId, ...DEFAULTS });
    });
  }
});

describe('access', () => {
  const app = () => t;
  const companyOf = () => company;
  describe('get', () =>
    itEnforcesAccess(app, {
      method: 'GET',
      url: () => `${PATH}?companyId=${company}`,
      scope: 'bookkeeping-preferences:read',
      company: companyOf,
      companyInBody: true,
    }));
  describe('put', () =>
    itEnforcesAccess(app, {
      method: 'PUT',
      url: () => PATH,
      body: (c) => preferences(c),
      scope: 'bookkeeping-preferences:write',
      company: companyOf,
      companyInBody: true,
    }));

  it('lets bookkeeping-preferences:read read but not write', async () => {
    const reader = await t.token({ companies: [company], scopes: ['bookkeeping-preferences:read'] });
    assert.equal((await get(company, reader)).status, 200);
    assert.equal((await put(preferences(company), reader)).status, 403);
  });

  it("never shows or changes another company's preferences", async () => {
    const theirs = await freshCompany();
    await put(preferences(theirs.companyId, { metadata: { secret: true } }), theirs.token);
    const read = await get(theirs.companyId, token);
    assert.equal(read.status, 403);
    assert.doesNotMatch(read.text, /secret/);
    assert.equal((await put(preferences(theirs.companyId), token)).status, 403);
    assert.deepEqual((await get(theirs.companyId, theirs.token)).body.data.metadata, { secret: true });
  });
});
