import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { sendEvent } from '../export-jobs/fixtures.ts';
import { startCompanyTestApp } from '../support/company-app.ts';

// The content types of the reference API's files: JSON answers as `application/json;charset=UTF-8`
// (what a validating proxy compares), errors too, unless the client asks for problem+json.
const JSON_TYPE = 'application/json;charset=UTF-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

const { t, company, token } = await startCompanyTestApp();

interface OpenApiOperation {
  requestBody?: { content?: object };
  responses?: Record<string, { content?: object }>;
}

/** Sends the request and checks its status and exact content type; returns the body. */
async function expect(method: string, url: string, status: number, contentType: string, body?: unknown) {
  const response = await t.request(method, url, { token, body });
  assert.equal(response.status, status, `${method} ${url}: ${response.text}`);
  assert.equal(response.headers['content-type'], contentType, `${method} ${url}`);
  return response.body;
}

describe('response content types', () => {
  it('answers JSON as application/json;charset=UTF-8 errors included, on every resource', async () => {
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
    await expect('GET', `/v1-beta/accounts/${randomUUID()}`, 404, JSON_TYPE);

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
    await expect('PUT', `/v0/tax-codes/${taxCode.id}`, 400, JSON_TYPE, { name: 'no company' });

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
    await expect('POST', '/v2/export-jobs', 409, JSON_TYPE, { companyId: company });

    const subscription = (
      await expect('POST', '/v1/subscriptions', 200, JSON_TYPE, {
        endpointUrl: 'https://erp.example/hooks',
        eventTypes: ['v1.export-job.created'],
      })
    ).data;
    await expect('GET', `/v1/subscriptions/${subscription.id}`, 200, JSON_TYPE);
    await expect('GET', '/v1/subscriptions', 200, JSON_TYPE);
    await expect('GET', `/v1/subscriptions/${randomUUID()}`, 404, JSON_TYPE);
    await expect('GET', '/no-such-route', 404, JSON_TYPE);
  });
});

describe('error bodies', () => {
  it("carry the reference's type and message beside the problem members, as JSON by default", async () => {
    const id = randomUUID();
    const response = await t.request('GET', `/v2/export-jobs/${id}`, { token });
    assert.equal(response.status, 404);
    assert.equal(response.headers['content-type'], JSON_TYPE);
    const { type, message, title, status, detail, requestId } = response.body;
    assert.equal(type, 'EXPORT_NOT_FOUND');
    assert.equal(typeof message, 'string');
    assert.ok(message.includes(id), message);
    assert.equal(detail, message);
    assert.equal(status, 404);
    assert.equal(typeof title, 'string');
    assert.equal(requestId, response.headers['x-request-id']);
  });

  it('are application/problem+json to a client whose Accept header asks for it, and JSON when it refuses it', async () => {
    const url = `/v2/export-jobs/${randomUUID()}`;
    for (const accept of ['application/problem+json', 'application/json;q=0.5, application/problem+json']) {
      const response = await t.request('GET', url, { token, headers: { accept } });
      assert.equal(response.headers['content-type'], PROBLEM_TYPE, accept);
      assert.equal(response.body.type, 'EXPORT_NOT_FOUND');
      assert.equal(response.body.message, response.body.detail);
    }
    for (const accept of ['application/json', '*/*', 'application/problem+json;q=0, application/json']) {
      const response = await t.request('GET', url, { token, headers: { accept } });
      assert.equal(response.headers['content-type'], JSON_TYPE, accept);
    }
    const invalid = await t.request('POST', '/v2/export-jobs', {
      token,
      body: { companyId: 'not a uuid' },
      headers: { accept: 'application/problem+json' },
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.headers['content-type'], PROBLEM_TYPE);
    assert.equal(invalid.body.type, 'VALIDATION_FAILED');
    assert.ok(invalid.body.errors.length > 0);
  });
});

describe('answers without a body', () => {
  it('carry no content type: a 202 export job event and the 204 of a delete', async () => {
    const bodyless = async (method: string, url: string, status: number, body?: unknown) => {
      const response = await t.request(method, url, { token, body });
      assert.equal(response.status, status, `${method} ${url}: ${response.text}`);
      assert.equal(response.headers['content-type'], undefined, `${method} ${url}`);
      assert.equal(response.text, '', `${method} ${url}`);
    };
    const otherCompany = randomUUID();
    const ofOther = await t.token({ companies: [otherCompany] });
    const job = (await t.request('POST', '/v2/export-jobs', { token: ofOther, body: { companyId: otherCompany } })).body
      .data;
    const started = await sendEvent(t, ofOther, job.id, 'started');
    assert.equal(started.status, 202, started.text);
    assert.equal(started.headers['content-type'], undefined);
    assert.equal(started.text, '');
    const account = (
      await t.request('POST', '/v1-beta/accounts', {
        token,
        body: { companyId: company, externalId: randomUUID(), name: 'Postage', archived: false },
      })
    ).body.data;
    await bodyless('DELETE', `/v1-beta/accounts/${account.id}`, 204);
  });
});

describe('the OpenAPI document', () => {
  it('declares every error answer under both its content types, as it is sent', async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    let errors = 0;
    for (const [path, operations] of Object.entries<Record<string, { responses: object }>>(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries<{ content?: object }>(operation.responses as never)) {
          if (Number(status) < 400 || path === '/oauth/token') continue;
          errors++;
          assert.deepEqual(
            Object.keys(response.content ?? {}),
            [JSON_TYPE, 'application/problem+json'],
            `${method} ${path} ${status}`,
          );
        }
      }
    }
    assert.ok(errors > 100, `only ${errors} error answers documented`);
  });

  it("declares request bodies and answers under the reference's media types, and its subscription paths' {id}", async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    // The reference declares the accounts' answers (v1-beta, and the v1 chart of accounts) as
    // application/json, every other answer and every request body as application/json;charset=UTF-8.
    const plainJson = (path: string) =>
      path.startsWith('/v1-beta/accounts') || path.startsWith('/v1/chart-of-accounts');
    let bodies = 0;
    for (const [path, operations] of Object.entries<Record<string, OpenApiOperation>>(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.requestBody?.content && path !== '/oauth/token') {
          bodies++;
          assert.deepEqual(Object.keys(operation.requestBody.content), [JSON_TYPE], `${method} ${path} body`);
        }
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (!status.startsWith('2') || !response.content || path === '/oauth/token') continue;
          const expected = plainJson(path) ? 'application/json' : JSON_TYPE;
          assert.deepEqual(Object.keys(response.content), [expected], `${method} ${path} ${status}`);
        }
      }
    }
    assert.ok(bodies > 20, `only ${bodies} request bodies documented`);
    for (const path of [
      '/v1/subscriptions/{id}',
      '/v1/subscriptions/{id}/activities',
      '/v1/subscriptions/{id}/secret',
    ]) {
      assert.ok(paths[path], path);
    }
    assert.deepEqual(
      Object.keys(paths).filter((path) => path.includes('{subscriptionId}')),
      [],
    );
  });

  it('marks the body of POST /v0/tax-codes:search optional, and the bodies of writes required', async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    assert.equal(paths['/v0/tax-codes:search'].post.requestBody.required, false);
    assert.equal(paths['/v0/tax-codes'].post.requestBody.required, true);
    assert.equal(paths['/v0/tax-codes:calculate-tax-amounts'].post.requestBody.required, true);
  });
});
