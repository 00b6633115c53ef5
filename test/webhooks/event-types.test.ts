import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { EVENT_TYPES } from '../../src/webhooks/event-types.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';

interface EventTypeView {
  eventType: string;
  version: string;
  scopes: string[];
  readScope: string | null;
  dataSchema: object;
  example: { payload: { data: unknown; eventType: string; sequence: unknown; previousAttributes?: unknown } };
}

const { t, company } = await startCompanyTestApp();

describe('GET /v1/event-types', () => {
  it('lists every event type with its version, scopes and a usable JSON schema of its data', async () => {
    const token = await t.token({ companies: [company], scopes: [] });
    const response = await t.request('GET', '/v1/event-types', { token });
    assert.equal(response.status, 200, response.text);
    const listed = response.body.data as EventTypeView[];
    assert.deepEqual(
      listed.map((e) => e.eventType),
      EVENT_TYPES.map((definition) => definition.type),
    );
    assert.deepEqual(listed[0] && [listed[0].eventType, listed[0].version, listed[0].scopes], [
      'v1.export-job.created',
      'v1',
      ['export-jobs:read', 'export-jobs:write'],
    ]);
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    for (const type of listed) {
      assert.match(type.eventType, /^v1\.[a-z-]+\.[a-z-]+$/);
      const validate = ajv.compile(type.dataSchema);
      assert.equal(validate({ id: 'not a resource' }), false, type.eventType);
      const { payload } = type.example;
      assert.equal(validate(payload.data), true, `${type.eventType}: ${JSON.stringify(validate.errors)}`);
      assert.equal(payload.eventType, type.eventType);
      assert.equal(typeof payload.sequence, 'number');
      // Only a change of an existing resource says what it changed.
      assert.equal(
        'previousAttributes' in payload,
        /\.(updated|started|completed|completed-with-errors|failed|expired)$/.test(type.eventType),
        type.eventType,
      );
    }
  });

  it("names the scope that reads each type: the resource API's read scope, none for an operational type", async () => {
    const token = await t.token({ companies: [company], scopes: [] });
    const listed = (await t.request('GET', '/v1/event-types', { token })).body.data as EventTypeView[];
    const readScopes = Object.fromEntries(listed.map((e) => [e.eventType, e.readScope]));
    assert.equal(readScopes['v1.account.updated'], 'accounts:read');
    assert.equal(readScopes['v1.tax-code.deleted'], 'tax-codes:read');
    assert.equal(readScopes['v1.bookkeeping-category.created'], 'bookkeeping-categories:read');
    assert.equal(readScopes['v1.export-job.completed'], 'export-jobs:read');
    assert.equal(readScopes['v1.subscription.disabled'], null);
  });

  itEnforcesAccess(() => t, {
    method: 'GET',
    url: () => '/v1/event-types',
    company: () => company,
  });
});
