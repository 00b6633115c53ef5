import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';

// The content types of the reference API's files: JSON answers as `application/json;charset=UTF-8`
// (what a validating proxy compares), errors as problem+json.
const JSON_TYPE = 'application/json;charset=UTF-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

const { t, company, token } = await startCompanyTestApp();

/** Sends the request and checks its status and exact content type; returns the body. */
async function expect(method: string, url: string, status: number, contentType: string, body?: unknown) {
  const response = await t.request(method, url, { token, body });
  assert.equal(response.status, status, `${method} ${url}: ${response.text}`);
  assert.equal(response.headers['content-type'], contentType, `${method} ${url}`);
  return response.body;
}

describe('response content types', () => {
  it('answers JSON as application/json;charset=UTF-8 and errors as problem+json, on every resource', async () => {
    const account = (
      await expect('POST', '/v1-beta/accounts', 201, JSON_TYPE, {
        companyId: company,
        externalId: randomUUID(),
        name: 'Bank charges',
        archived: false,
      })
    ).data;
    await expect('GET', `/v1-beta/accounts/${account.id}`, 200, JSON_TYPE);
    await expect('POST', '/v1-beta/accounts:search', 200, JSON_TYPE, { companyId: company });
    await expect('GET', `/v1-beta/accounts/${randomUUID()}`, 404, PROBLEM_TYPE);

    const taxCode = (
      await expect('POST', '/v0/tax-codes', 201, JSON_TYPE, {
        companyId: company,
        name: 'Standard',
        rate: 0.25,
        type: 'inclusive',
        archived: false,
      })
    ).data;
    await expect('GET', `/v0/tax-codes/${taxCode.id}`, 200, JSON_TYPE);
    await expect('POST', '/v0/tax-codes:search', 200, JSON_TYPE);
    await expect('POST', '/v0/tax-codes:calculate-tax-amounts', 200, JSON_TYPE, {
      amountsByTaxCodeId: { [taxCode.id]: [{ id: 'line-1', amount: { currency: 'EUR', minors: 12500 } }] },
    });
    await expect('PUT', `/v0/tax-codes/${taxCode.id}`, 400, PROBLEM_TYPE, { name: 'no company' });

    const entry = (
      await expect('POST', '/v1-beta/accounting-entries', 201, JSON_TYPE, {
        companyId: company,
        accountId: account.id,
        amount: '-12.50',
        currency: 'EUR',
        date: '2026-11-22',
      })
    ).data;
    await expect('GET', `/v1-beta/accounting-entries/${entry.id}`, 200, JSON_TYPE);

    const job = (await expect('POST', '/v2/export-jobs', 201, JSON_TYPE, { companyId: company })).data;
    await expect('GET', `/v2/export-jobs/${job.id}`, 200, JSON_TYPE);
    await expect('GET', `/v2/export-jobs?company_id=${company}`, 200, JSON_TYPE);
    await expect('GET', `/v2/export-jobs/${job.id}/items`, 200, JSON_TYPE);
    await expect('POST', '/v2/export-jobs', 409, PROBLEM_TYPE, { companyId: company });

    const subscription = (
      await expect('POST', '/v1/subscriptions', 200, JSON_TYPE, {
        endpointUrl: 'https://erp.example/hooks',
        eventTypes: ['v1.export-job.created'],
      })
    ).data;
    await expect('GET', `/v1/subscriptions/${subscription.id}`, 200, JSON_TYPE);
    await expect('GET', '/v1/subscriptions', 200, JSON_TYPE);
    await expect('GET', `/v1/subscriptions/${randomUUID()}`, 404, PROBLEM_TYPE);
    await expect('GET', '/no-such-route', 404, PROBLEM_TYPE);
  });
});

describe('the OpenAPI document', () => {
  it('declares every error answer as application/problem+json, as it is sent', async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    let errors = 0;
    for (const [path, operations] of Object.entries<Record<string, { responses: object }>>(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries<{ content?: object }>(operation.responses as never)) {
          if (Number(status) < 400 || path === '/oauth/token') continue;
          errors++;
          assert.deepEqual(
            Object.keys(response.content ?? {}),
            ['application/problem+json'],
            `${method} ${path} ${status}`,
          );
        }
      }
    }
    assert.ok(errors > 100, `only ${errors} error answers documented`);
  });

  it('marks the body of POST /v0/tax-codes:search optional, and the bodies of writes required', async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    assert.equal(paths['/v0/tax-codes:search'].post.requestBody.required, false);
    assert.equal(paths['/v0/tax-codes'].post.requestBody.required, true);
    assert.equal(paths['/v0/tax-codes:calculate-tax-amounts'].post.requestBody.required, true);
  });
});
