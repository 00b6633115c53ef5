import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';

const { t, company } = await startCompanyTestApp();

describe('GET /v1/event-types', () => {
  it('lists every event type with its version, scopes and a usable JSON schema of its data', async () => {
    const token = await t.token({ companies: [company], scopes: [] });
    const response = await t.request('GET', '/v1/event-types', { token });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      response.body.data.map((e: { eventType: string; version: string; scopes: string[] }) => [
        e.eventType,
        e.version,
        e.scopes,
      ]),
      [['v1.export-job.created', 'v1', ['export-jobs:read', 'export-jobs:write']]],
    );
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(response.body.data[0].dataSchema);
    assert.equal(validate({ id: 'not a job' }), false);
    const example = response.body.data[0].example;
    assert.equal(validate(example.payload.data), true, JSON.stringify(validate.errors));
    assert.equal(example.payload.eventType, 'v1.export-job.created');
  });

  itEnforcesAccess(() => t, {
    method: 'GET',
    url: () => '/v1/event-types',
    company: () => company,
  });
});
