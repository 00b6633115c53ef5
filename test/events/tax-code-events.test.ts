// The events of tax codes (docs/decisions/events.md): v1.tax-code.created, .updated and .deleted,
// recorded in the change's transaction, none for a refused change.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { taxCodeBody } from '../tax-codes/fixtures.ts';
import { changeAndEvents, itRecordsLifecycleEvents } from './support.ts';

const { t, company, token } = await startCompanyTestApp();

const newTaxCode = (fields: Record<string, unknown> = {}) => taxCodeBody(company, fields);

/** The PUT body of `taxCode` as it is: every field it has but the ones the server sets. */
/** The write body of a tax code as answered: its fields without those the service sets. */
const bodyOf = ({
  id: _,
  createdAt: __,
  updatedAt: ___,
  accountingIntegrationSystem: ____,
  ...fields
}: Record<string, unknown>) => fields;

itRecordsLifecycleEvents({
  resource: 'tax-code',
  path: '/v0/tax-codes',
  scopes: { read: 'tax-codes:read', write: 'tax-codes:write' },
  t: () => t,
  company,
  token: () => token,
  newBody: async () => newTaxCode({ ingoingTaxAccount: '2640' }),
  sameBody: bodyOf,
  changedBody: async (taxCode) => ({ ...bodyOf(taxCode), rate: 0.12, archived: true }),
  changedFields: ['rate', 'archived'],
});

describe('refused tax code changes', () => {
  const during = (method: string, url: string, body?: unknown) =>
    changeAndEvents(t, company, () => t.request(method, url, { token, body }));

  it('records nothing for a create or an update refused for a taken code (409)', async () => {
    const taken = (await t.request('POST', '/v0/tax-codes', { token, body: newTaxCode() })).body.data;
    const other = (await t.request('POST', '/v0/tax-codes', { token, body: newTaxCode() })).body.data;

    const create = await during('POST', '/v0/tax-codes', newTaxCode({ code: taken.code, rate: 0.5 }));
    assert.equal(create.response.status, 409, create.response.text);
    assert.deepEqual(create.events, []);

    const replay = await during('POST', '/v0/tax-codes', bodyOf(taken));
    assert.equal(replay.response.status, 200, replay.response.text);
    assert.deepEqual(replay.events, []);

    const update = await during('PUT', `/v0/tax-codes/${other.id}`, bodyOf({ ...other, code: taken.code }));
    assert.equal(update.response.status, 409, update.response.text);
    assert.deepEqual(update.events, []);
  });

  it('records nothing for an update that would move the tax code to another company (400)', async () => {
    const taxCode = (await t.request('POST', '/v0/tax-codes', { token, body: newTaxCode() })).body.data;
    const elsewhere = randomUUID();
    const as = await t.token({ companies: [company, elsewhere] });
    const { response, events } = await changeAndEvents(t, company, () =>
      t.request('PUT', `/v0/tax-codes/${taxCode.id}`, {
        token: as,
        body: { ...bodyOf(taxCode), companyId: elsewhere, name: 'Moved' },
      }),
    );
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(events, []);
  });
});
