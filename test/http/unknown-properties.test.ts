// A request body holds only the properties its operation declares (docs/decisions/api-conventions.md,
// "Unknown properties"): any other is 400 VALIDATION_FAILED naming it and the property it most likely
// misspells, and nothing is done. Properties the reference defines stay accepted, and free-form
// objects (metadata, custom headers) stay free-form.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { closestName } from '../../src/http/unknown-properties.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { REFERENCE_REQUEST_PROPERTIES } from '../support/reference-request-properties.ts';

const { t, freshCompany } = await startCompanyTestApp();

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
}
type Operation = { requestBody?: { content: Record<string, { schema: Schema }> } };

/** Each request body schema of the served document, by `METHOD /path`. */
function requestBodies(): Map<string, Schema> {
  const document = t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
  const bodies = new Map<string, Schema>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const content = operation.requestBody?.content['application/json;charset=UTF-8'];
      if (content) bodies.set(`${method.toUpperCase()} ${path}`, content.schema);
    }
  }
  return bodies;
}

const isOpen = (schema: Schema) => schema.additionalProperties !== undefined && schema.additionalProperties !== false;
const openValues = (schema: Schema): Schema =>
  typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};

/** Whether `schema` accepts a value at `segments` (a property name, `[]` an array item, `*` a map value). */
function accepts(schema: Schema, segments: string[]): boolean {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.some((branch) => accepts(branch, segments));
  const [head, ...rest] = segments;
  if (head === undefined) return true;
  if (head === '[]') return schema.items !== undefined && accepts(schema.items, rest);
  const declared = head === '*' ? undefined : schema.properties?.[head];
  if (declared) return accepts(declared, rest);
  return isOpen(schema) && accepts(openValues(schema), rest);
}

/** The JSON pointers (`*` for any key, `[]` for any item) of the objects in `schema` that take any property. */
function openObjects(schema: Schema, at = ''): string[] {
  const branches = schema.anyOf ?? schema.oneOf ?? [];
  const found = branches.flatMap((branch) => openObjects(branch, at));
  if (schema.items) found.push(...openObjects(schema.items, `${at}/[]`));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    found.push(...openObjects(property, `${at}/${name}`));
  }
  const isObject = schema.properties !== undefined || [schema.type].flat().includes('object');
  if (isObject && schema.additionalProperties !== false) {
    found.push(at, ...openObjects(openValues(schema), `${at}/*`));
  }
  return found;
}

const newAccount = (companyId: string, fields: Record<string, unknown> = {}) => ({
  companyId,
  externalId: `ext-${randomUUID()}`,
  name: 'Bank charges',
  archived: false,
  ...fields,
});

const newSubscription = (fields: Record<string, unknown> = {}) => ({
  eventTypes: ['v1.account.created'],
  endpointUrl: 'http://127.0.0.1:9/hook',
  ...fields,
});

/** The 400 of one unknown property: its detail, and the one field error naming it. */
function assertUnknown(response: { status: number; text: string; body: any }, path: string, message: string) {
  assert.equal(response.status, 400, response.text);
  assert.equal(response.body.type, 'VALIDATION_FAILED');
  assert.deepEqual(response.body.errors, [{ path, message, in: 'body' }]);
}

describe('the OpenAPI document', () => {
  it('declares every property the reference defines for an operation, at every level', () => {
    const bodies = requestBodies();
    for (const [operation, properties] of Object.entries(REFERENCE_REQUEST_PROPERTIES)) {
      const body = bodies.get(operation);
      assert.ok(body, `${operation} takes a body`);
      const missing = properties.filter((property) => !accepts(body, property.split('/')));
      assert.deepEqual(missing, [], `${operation} refuses properties the reference defines`);
    }
  });

  it('closes every object of every request body but metadata, custom headers and the map of amounts', () => {
    const open = [...requestBodies()].flatMap(([operation, body]) =>
      openObjects(body).map((pointer) => `${operation} ${pointer}`),
    );
    const freeForm = /(\/metadata|\/customHeaders|\/amountsByTaxCodeId)$/;
    assert.deepEqual(
      open.filter((entry) => !freeForm.test(entry)),
      [],
    );
    // The free-form ones are there (the check above is not vacuous), and the amounts' objects are closed.
    assert.ok(open.includes('POST /v1-beta/accounts /metadata'));
    assert.ok(open.includes('POST /v1/chart-of-accounts/batch /items/[]/metadata'));
    assert.ok(open.includes('PUT /v1/subscriptions/{id} /customHeaders'));
    assert.ok(open.includes('POST /v0/tax-codes:calculate-tax-amounts /amountsByTaxCodeId'));
  });
});

describe('an unknown property', () => {
  it('of an account is 400 naming it and the property it misspells, and nothing is created or changed', async () => {
    const { companyId, token } = await freshCompany();
    const fixed = newAccount(companyId);
    const account = { ...fixed, taxCodeExternalID: 'VAT25' };
    const message = 'Unknown property "taxCodeExternalID"; did you mean "taxCodeExternalId"?';
    for (const path of ['/v1-beta/accounts', '/v1/chart-of-accounts']) {
      const refused = await t.request('POST', path, { token, body: account });
      assertUnknown(refused, '/taxCodeExternalID', message);
      assert.equal(refused.body.detail, message);
    }
    const search = await t.request('POST', '/v1-beta/accounts:search', { token, body: { companyId } });
    assert.deepEqual(search.body.data, [], 'no account was created');

    const created = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: { ...fixed, taxCodeExternalId: 'VAT25' },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.data.id;
    const update = await t.request('PUT', `/v1-beta/accounts/${id}`, {
      token,
      body: { name: 'Renamed', archived: true, taxCodeExternalID: null },
    });
    assertUnknown(update, '/taxCodeExternalID', message);
    const stored = await t.request('GET', `/v1-beta/accounts/${id}`, { token });
    assert.equal(stored.body.data.name, 'Bank charges', 'the account is unchanged');
    assert.equal(stored.body.data.archived, false);
  });

  it('of a subscription (a misspelt status) is 400, and no subscription is made', async () => {
    const { token } = await freshCompany();
    const refused = await t.request('POST', '/v1/subscriptions', {
      token,
      body: newSubscription({ stauts: 'INACTIVE' }),
    });
    assertUnknown(refused, '/stauts', 'Unknown property "stauts"; did you mean "status"?');
    assert.equal(refused.body.detail, 'Unknown property "stauts"; did you mean "status"?');
    const list = await t.request('GET', '/v1/subscriptions', { token });
    assert.deepEqual(list.body.data, []);
  });

  it('of a search filter is 400, not every account unfiltered', async () => {
    const { companyId, token } = await freshCompany();
    await t.request('POST', '/v1-beta/accounts', { token, body: newAccount(companyId) });
    for (const path of ['/v1-beta/accounts:search', '/v1/chart-of-accounts:search', '/v0/tax-codes:search']) {
      const body = path.startsWith('/v0') ? { nmae: 'x' } : { companyId, nmae: 'x' };
      const refused = await t.request('POST', path, { token, body });
      // Tax codes' search has no name filter: nothing is close enough to suggest.
      const message = path.startsWith('/v0')
        ? 'Unknown property "nmae"'
        : 'Unknown property "nmae"; did you mean "name"?';
      assertUnknown(refused, '/nmae', message);
    }
    // A v1 filter sent to v1-beta is unknown there.
    const v1Filter = await t.request('POST', '/v1-beta/accounts:search', { token, body: { companyId, codes: ['1'] } });
    assertUnknown(v1Filter, '/codes', 'Unknown property "codes"; did you mean "code"?');
  });

  it('inside an object or an array is reported at its path, the detail naming the object', async () => {
    const { companyId, token } = await freshCompany();
    const job = { companyId, options: { vendorBasedBookkeping: true } };
    const refused = await t.request('POST', '/v2/export-jobs', { token, body: job });
    const message = 'Unknown property "vendorBasedBookkeping"; did you mean "vendorBasedBookkeeping"?';
    assertUnknown(refused, '/options/vendorBasedBookkeping', message);
    assert.equal(
      refused.body.detail,
      'Unknown property "vendorBasedBookkeping" in /options; did you mean "vendorBasedBookkeeping"?',
    );
    // No job was made: a company has one open job at a time, and this one is the first.
    const created = await t.request('POST', '/v2/export-jobs', { token, body: { companyId } });
    assert.equal(created.status, 201, created.text);

    const credentials = { username: 'user', password: 'secret', passwrod: 'secret' };
    const basic = newSubscription({ endpointAuth: { type: 'BASIC', credentials } });
    const subscription = await t.request('POST', '/v1/subscriptions', { token, body: basic });
    assertUnknown(
      subscription,
      '/endpointAuth/credentials/passwrod',
      'Unknown property "passwrod"; did you mean "password"?',
    );

    const taxCodeId = randomUUID();
    const amounts = { amountsByTaxCodeId: { [taxCodeId]: [{ id: 'a', amount: { currency: 'EUR', minor: 100 } }] } };
    const calculation = await t.request('POST', '/v0/tax-codes:calculate-tax-amounts', { token, body: amounts });
    assert.equal(calculation.status, 400, calculation.text);
    assert.deepEqual(
      calculation.body.errors.map((error: { path: string; message: string }) => [error.path, error.message]).sort(),
      [
        [`/amountsByTaxCodeId/${taxCodeId}/0/amount/minor`, 'Unknown property "minor"; did you mean "minors"?'],
        [`/amountsByTaxCodeId/${taxCodeId}/0/amount/minors`, 'is required'],
      ],
    );
  });

  it('is listed with every other broken field, the detail naming the unknown ones', async () => {
    const { companyId, token } = await freshCompany();
    const body = { companyId, nmae: 'x', limit: 10, archived: 'yes' };
    const refused = await t.request('POST', '/v1-beta/accounts:search', { token, body });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body.errors.map((error: { path: string }) => error.path).sort(), [
      '/archived',
      '/limit',
      '/nmae',
    ]);
    assert.equal(
      refused.body.detail,
      'The request has invalid fields, among them the unknown properties /nmae, /limit',
    );
  });

  it('is answered in bounded words: long names cut in messages, ten named in the detail', async () => {
    const { companyId, token } = await freshCompany();
    const long = 'k'.repeat(500_000);
    const one = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount(companyId, { [long]: 1 }) });
    assert.equal(one.status, 400, one.text.slice(0, 500));
    const shown = `Unknown property "${'k'.repeat(100)}…"`;
    assert.deepEqual(one.body.errors, [{ path: `/${long}`, message: shown, in: 'body' }]);
    assert.equal(one.body.detail, shown);
    assert.ok(one.text.length < long.length + 1000, 'the name is repeated once, in the path');

    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`extra${i}`, i]));
    const refused = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount(companyId, many) });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.errors.length, 100);
    const ten = Array.from({ length: 10 }, (_, i) => `/extra${i}`).join(', ');
    assert.equal(
      refused.body.detail,
      `The request has invalid fields, among them the unknown properties ${ten} and 140 more; the first 100 of 150 are listed`,
    );
  });

  it('of an action that takes no fields is 400 too; no body or {} is fine', async () => {
    const { token } = await freshCompany();
    const created = await t.request('POST', '/v1/subscriptions', { token, body: newSubscription() });
    const id = created.body.data.id;
    const before = await t.request('GET', `/v1/subscriptions/${id}/secret`, { token });
    const rotate = `/v1/subscriptions/${id}/secret:rotate`;
    const refused = await t.request('POST', rotate, { token, body: { keepPrevious: false } });
    assertUnknown(refused, '/keepPrevious', 'Unknown property "keepPrevious"');
    const after = await t.request('GET', `/v1/subscriptions/${id}/secret`, { token });
    assert.equal(after.body.data.secretKey, before.body.data.secretKey, 'the secret was not rotated');
    assert.equal((await t.request('POST', rotate, { token, body: {} })).status, 200);
    assert.equal((await t.request('POST', rotate, { token })).status, 200);

    const resend = `/v1/subscriptions/${id}/messages/msg_${'a'.repeat(26)}:resend`;
    assertUnknown(
      await t.request('POST', resend, { token, body: { force: true } }),
      '/force',
      'Unknown property "force"',
    );
    // With no fields the body is fine, and the missing message is what is wrong.
    const missing = await t.request('POST', resend, { token, body: {} });
    assert.equal(missing.status, 404, missing.text);
  });
});

describe('what stays accepted', () => {
  it('a property the reference defines that the service does not use: a credential token', async () => {
    const { token } = await freshCompany();
    const credentials = { username: 'user', password: 'secret', token: 'a-bearer-token' };
    const body = newSubscription({ endpointAuth: { type: 'BASIC', credentials } });
    const created = await t.request('POST', '/v1/subscriptions', { token, body });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(created.body.data.endpointAuth, { type: 'BASIC' });
  });

  it('metadata, at any depth and with any keys, and custom headers of any name', async () => {
    const { companyId, token } = await freshCompany();
    const metadata = { 'Any key': { nested: { deeper: [1, { x: null }] } }, taxCodeExternalID: 'kept as data' };
    const created = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount(companyId, { metadata }) });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.data.metadata, metadata);

    const customHeaders = { 'x-anything-at-all': 'value' };
    const subscription = await t.request('POST', '/v1/subscriptions', {
      token,
      body: newSubscription({ customHeaders }),
    });
    assert.equal(subscription.status, 200, subscription.text);
    assert.deepEqual(subscription.body.data.customHeaders, customHeaders);
  });
});

describe('a batch of accounts', () => {
  it('answers an item with an unknown property in failed (OTHER) and creates the others', async () => {
    const { companyId, token } = await freshCompany();
    const typo = { externalId: 'typo', name: 'A', archived: false, taxCodeExternalID: 'VAT25' };
    const plain = { externalId: 'plain', name: 'B', archived: false };
    // An item may repeat the batch's companyId (chart-of-accounts-v1.md): that is not unknown.
    const withCompany = { externalId: 'with-company', name: 'C', archived: false, companyId };
    const body = { companyId, items: [typo, plain, withCompany] };
    const response = await t.request('POST', '/v1/chart-of-accounts/batch', { token, body });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(
      response.body.data.created.map((account: { externalId: string }) => account.externalId),
      ['plain', 'with-company'],
    );
    assert.deepEqual(response.body.data.failed, [{ reasons: ['OTHER'], request: typo }]);
  });

  it('refuses an unknown property of the batch itself whole, creating nothing', async () => {
    const { companyId, token } = await freshCompany();
    const body = { companyId, items: [{ externalId: 'one', name: 'A', archived: false }], dryRun: true };
    const refused = await t.request('POST', '/v1/chart-of-accounts/batch', { token, body });
    assertUnknown(refused, '/dryRun', 'Unknown property "dryRun"');
    const search = await t.request('POST', '/v1/chart-of-accounts:search', { token, body: { companyId } });
    assert.deepEqual(search.body.data, []);
  });
});

describe('closestName', () => {
  const known = ['status', 'eventTypes', 'endpointUrl', 'customHeaders', 'endpointAuth'];

  it('prefers the property that differs only in case', () => {
    assert.equal(closestName('EventTypes', known), 'eventTypes');
    assert.equal(closestName('taxCodeExternalID', ['taxCodeExternal', 'taxCodeExternalId']), 'taxCodeExternalId');
  });

  it('else takes the fewest edits, a swap of two letters counting as one', () => {
    assert.equal(closestName('stauts', known), 'status');
    assert.equal(closestName('endpointUr', known), 'endpointUrl');
    assert.equal(closestName('customHeader', known), 'customHeaders');
    assert.equal(closestName('nmae', ['code', 'name']), 'name');
  });

  it('suggests nothing when no property is close: one edit under six letters, a third of the name beyond', () => {
    assert.equal(closestName('foo', known), undefined);
    assert.equal(closestName('nmea', ['name']), undefined, 'two edits in four letters');
    assert.equal(closestName('statte', known), 'status', 'two edits in six letters');
    assert.equal(closestName('anything', []), undefined);
  });

  it('breaks ties by the order the properties are declared in', () => {
    assert.equal(closestName('cod', ['code', 'cods']), 'code');
    assert.equal(closestName('cod', ['cods', 'code']), 'cods');
  });
});
