// Accounts and accounting entries for the tests of a file's company: one account made before the
// file's tests, a valid entry body on it, and its create.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before } from 'node:test';
import type { CompanyTestApp } from '../support/company-app.ts';

export function entryFixtures({ t, company, token }: Pick<CompanyTestApp, 't' | 'company' | 'token'>) {
  let accountId = '';

  async function createAccount(companyId = company, as = token): Promise<string> {
    const response = await t.request('POST', '/v1-beta/accounts', {
      token: as,
      body: { companyId, externalId: randomUUID(), name: 'Bank charges', archived: false },
    });
    assert.equal(response.status, 201, response.text);
    return response.body.data.id;
  }

  before(async () => {
    accountId = await createAccount();
  });

  /** A valid create body on the file's account; `fields` replace or add. */
  const newEntry = (fields: Record<string, unknown> = {}) => ({
    companyId: company,
    accountId,
    amount: '-12.50',
    currency: 'EUR',
    date: '2026-11-22',
    description: 'Card fee',
    ...fields,
  });

  async function createEntry(fields: Record<string, unknown> = {}) {
    const response = await t.request('POST', '/v1-beta/accounting-entries', { token, body: newEntry(fields) });
    assert.equal(response.status, 201, response.text);
    return response.body.data;
  }

  return { createAccount, newEntry, createEntry, accountId: () => accountId };
}
