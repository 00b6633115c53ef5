import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../support/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('operations endpoints', () => {
  it('GET /health/live answers 200', async () => {
    const response = await t.request('GET', '/health/live');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'ok' });
  });

  it('GET /health/ready answers 200 while the database answers', async () => {
    const response = await t.request('GET', '/health/ready');
    assert.equal(response.status, 200);
  });

  it('GET /metrics exposes request durations by route in Prometheus format', async () => {
    await t.request('GET', '/health/live');
    const response = await t.request('GET', '/metrics');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain/);
    assert.match(
      response.text,
      /http_request_duration_seconds_count\{method="GET",route="\/health\/live",status="200"\} [1-9]/,
    );
    assert.match(response.text, /process_cpu_user_seconds_total/);
  });

  it('GET /docs renders the API reference', async () => {
    const response = await t.request('GET', '/docs/');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const response = await t.request('GET', '/openapi.json');
    assert.equal(response.status, 200);
    assert.equal(response.body.openapi, '3.1.0');
    const result = await new Validator().validate(response.body);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('documents every operation of the accounts interface with its operationId', async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    const operations = Object.entries(paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, { operationId?: string }>).map(
        ([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`,
      ),
    );
    for (const expected of [
      'POST /v1-beta/accounts createAccountV4',
      'GET /v1-beta/accounts/{accountId} getAccountV4',
      'PUT /v1-beta/accounts/{accountId} updateAccountV4',
      'DELETE /v1-beta/accounts/{accountId} deleteAccountV4',
      'POST /v1-beta/accounts:search searchAccountsV4',
    ]) {
      assert.ok(operations.includes(expected), `${expected} missing from ${operations.join('\n')}`);
    }
  });

  it('hides the operational endpoints and declares bearer authentication', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    assert.equal(document.paths['/health/live'], undefined);
    assert.deepEqual(document.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });
});
