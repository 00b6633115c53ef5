import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApp } from '../support/harness.ts';

/** A company with one account and `entries` accounting entries; returns their ids. */
export async function createEntries(t: TestApp, company: string, token: string, entries: number): Promise<string[]> {
  const account = await t.request('POST', '/v1-beta/accounts', {
    token,
    body: { companyId: company, externalId: randomUUID(), name: 'Bank charges', archived: false },
  });
  assert.equal(account.status, 201, account.text);
  const ids: string[] = [];
  for (let i = 0; i < entries; i++) {
    const entry = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: {
        companyId: company,
        accountId: account.body.data.id,
        amount: `-${i + 1}.50`,
        currency: 'EUR',
        date: '2026-11-22',
      },
    });
    assert.equal(entry.status, 201, entry.text);
    ids.push(entry.body.data.id);
  }
  return ids;
}

export async function createJob(t: TestApp, token: string, body: Record<string, unknown>) {
  const response = await t.request('POST', '/v2/export-jobs', { token, body });
  assert.equal(response.status, 201, response.text);
  return response.body.data;
}

export async function sendEvent(t: TestApp, token: string, jobId: string, event: string, extra = {}) {
  return t.request('POST', '/v2/export-job-events', { token, body: { jobId, event, ...extra } });
}
