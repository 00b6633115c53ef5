import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startCompanyTestApp } from '../support/company-app.ts';
import type { TestApp } from '../support/harness.ts';

export const GROUPS = '/v1-beta/bookkeeping-category-groups';
export const CATEGORIES = '/v1-beta/bookkeeping-categories';
export const AGGREGATED = '/v1-beta/aggregated-bookkeeping-category-groups:search';

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The sorted paths of a validation problem's errors. */
export const paths = (body: { errors: { path: string }[] }) => body.errors.map((e) => e.path).sort();

/** Creates records of one company through the API, asserting each create succeeds. */
export function fixtures(t: () => TestApp, company: string, token: () => string) {
  const created = async (url: string, body: unknown) => {
    const response = await t().request('POST', url, { token: token(), body });
    assert.equal(response.status, 201, response.text);
    return response.body.data;
  };
  return {
    account: (fields: Record<string, unknown> = {}) =>
      created('/v1-beta/accounts', {
        companyId: company,
        externalId: randomUUID(),
        name: 'Travel',
        archived: false,
        ...fields,
      }),
    group: (fields: Record<string, unknown> = {}) =>
      created(GROUPS, { companyId: company, name: 'Travel', type: 'TRAVEL', archived: false, ...fields }),
    category: (groupId: string, accountId: string, fields: Record<string, unknown> = {}) =>
      created(CATEGORIES, { companyId: company, name: 'Flights', groupId, accountId, archived: false, ...fields }),
    taxCode: (fields: Record<string, unknown> = {}) =>
      created('/v0/tax-codes', {
        companyId: company,
        name: 'VAT',
        code: `VAT-${randomUUID()}`,
        rate: 0.25,
        type: 'inclusive',
        archived: false,
        ...fields,
      }),
  };
}

/** startCompanyTestApp, with `make` creating records of its company. */
export async function startBookkeepingTestApp() {
  const started = await startCompanyTestApp();
  const { t, company, token } = started;
  return {
    ...started,
    make: fixtures(
      () => t,
      company,
      () => token,
    ),
  };
}
