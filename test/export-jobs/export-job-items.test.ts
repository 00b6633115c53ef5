import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';
import { createEntries, createJob, sendEvent } from './fixtures.ts';

const { t, company, token } = await startCompanyTestApp();
let entries: string[];
let jobId: string;

before(async () => {
  entries = await createEntries(t, company, token, 3);
  jobId = (await createJob(t, token, { companyId: company })).id;
});

const items = (query = '') => t.request('GET', `/v2/export-jobs/${jobId}/items${query}`, { token });
const ids = (body: { data: { accountingEntryId: string }[] }) => body.data.map((i) => i.accountingEntryId);

describe('GET /v2/export-jobs/{jobId}/items', () => {
  it('lists the items of the job, pending at first, page by page', async () => {
    const all = await items('?sorting_keys=accountingEntryId');
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(ids(all.body), [...entries].sort());
    assert.deepEqual(all.body.data[0], {
      exportJobId: jobId,
      accountingEntryId: [...entries].sort()[0],
      status: 'pending',
      exportedAt: null,
      externalId: null,
      externalUrl: null,
      failureReason: null,
      failureReasonType: null,
    });
    const first = await items('?limit=2');
    const rest = await items(`?limit=2&after=${first.body.pagination.endCursor}`);
    assert.deepEqual([...ids(first.body), ...ids(rest.body)].sort(), [...entries].sort());
    assert.equal(first.body.pagination.hasNextPage, true);
    assert.equal(rest.body.pagination.hasNextPage, false);
  });

  it('answers 404 EXPORT_NOT_FOUND for an unknown job', async () => {
    const response = await t.request('GET', `/v2/export-jobs/${randomUUID()}/items`, { token });
    assert.equal(response.status, 404);
    assert.equal(response.body.type, 'EXPORT_NOT_FOUND');
  });

  it('answers 403 to the scope export-items:write, which does not exist', async () => {
    // Reads need :read or :write (docs/decisions/credentials.md), but only of a scope the service
    // has.
    const unknownScope = await t.token({ companies: [company], scopes: ['export-items:write'] });
    const response = await t.request('GET', `/v2/export-jobs/${jobId}/items`, { token: unknownScope });
    assert.equal(response.status, 403, response.text);
    assert.equal(response.body.detail, 'This operation needs the scope export-items:read');
  });

  itEnforcesAccess(() => t, {
    method: 'GET',
    url: () => `/v2/export-jobs/${jobId}/items`,
    scope: 'export-items:read',
    company: () => company,
    resourceInPath: true,
  });
});

describe('PUT /v2/export-jobs/{jobId}/items', () => {
  it('answers 400 for an exportedAt PostgreSQL would refuse or print back otherwise, and changes nothing', async () => {
    const before = (await items('?sorting_keys=accountingEntryId')).body.data;
    for (const exportedAt of [
      '2024-01-01T00:00:00+16:00', // past PostgreSQL's largest zone offset
      '0000-01-01T00:00:00Z', // no year 0
      '0001-01-01T00:00:00+01:00', // 1 BC in UTC
      '9999-12-31T23:59:59-15:00', // year 10000 in UTC
    ]) {
      const response = await t.request('PUT', `/v2/export-jobs/${jobId}/items`, {
        token,
        body: [{ accountingEntryId: entries[2], status: 'successful', exportedAt }],
      });
      assert.equal(response.status, 400, `${exportedAt}: ${response.text}`);
      assert.deepEqual(
        response.body.errors.map((e: { path: string }) => e.path),
        ['/0/exportedAt'],
      );
    }
    assert.deepEqual((await items('?sorting_keys=accountingEntryId')).body.data, before);
  });

  it('updates the items named, reports entries not in the job, and restarts the expiry', async () => {
    const before = (await t.request('GET', `/v2/export-jobs/${jobId}`, { token })).body.data;
    const stranger = randomUUID();
    const response = await t.request('PUT', `/v2/export-jobs/${jobId}/items`, {
      token,
      body: [
        {
          accountingEntryId: entries[0],
          status: 'successful',
          exportedAt: '2026-11-22T10:00:00Z',
          externalId: 'INV-1',
          externalUrl: 'https://erp.example/INV-1',
        },
        {
          accountingEntryId: entries[1],
          status: 'failed',
          failureReason: 'Closed period',
          failureReasonType: 'accounting_system_validation_failure',
        },
        { accountingEntryId: stranger, status: 'successful' },
      ],
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      response.body.data.find((i: { accountingEntryId: string }) => i.accountingEntryId === entries[0]),
      {
        exportJobId: jobId,
        accountingEntryId: entries[0],
        status: 'successful',
        exportedAt: '2026-11-22T10:00:00.000000Z',
        externalId: 'INV-1',
        externalUrl: 'https://erp.example/INV-1',
        failureReason: null,
        failureReasonType: null,
      },
    );
    assert.equal(response.body.data.length, 2);
    assert.deepEqual(response.body.errors, [
      {
        accountingEntryId: stranger,
        message: `Export job ${jobId} has no item for accounting entry ${stranger}`,
        type: 'ACCOUNTING_ENTRY_DOES_NOT_EXIST',
      },
    ]);
    assert.deepEqual(ids((await items('?status=failed')).body), [entries[1]]);
    const after = (await t.request('GET', `/v2/export-jobs/${jobId}`, { token })).body.data;
    assert.ok(after.lastUpdatedAt > before.lastUpdatedAt);
  });

  it('answers 413 EXPORT_JOB_ITEMS_UPDATE_LIMIT, as the reference, for more than 100 items and changes nothing', async () => {
    const body = Array.from({ length: 101 }, (_, i) => ({
      accountingEntryId: entries[i % entries.length],
      status: 'abandoned',
    }));
    const response = await t.request('PUT', `/v2/export-jobs/${jobId}/items`, { token, body });
    assert.equal(response.status, 413, response.text);
    assert.equal(response.body.type, 'EXPORT_JOB_ITEMS_UPDATE_LIMIT');
    assert.deepEqual(ids((await items('?status=abandoned')).body), []);
    const hundred = await t.request('PUT', `/v2/export-jobs/${jobId}/items`, { token, body: body.slice(0, 100) });
    assert.equal(hundred.status, 200, hundred.text);
  });

  it('answers 422 EXPORT_JOB_STATUS_UNPROCESSABLE for a finished job and changes nothing', async () => {
    for (const end of ['completed', 'completed_with_errors', 'failed']) {
      const owner = randomUUID();
      const as = await t.token({ companies: [owner] });
      const [entry] = await createEntries(t, owner, as, 1);
      const job = (await createJob(t, as, { companyId: owner })).id;
      const exported = { accountingEntryId: entry, status: 'successful', externalId: 'INV-9' };
      assert.equal((await sendEvent(t, as, job, 'started')).status, 202);
      const put = (body: unknown) => t.request('PUT', `/v2/export-jobs/${job}/items`, { token: as, body });
      assert.equal((await put([exported])).status, 200);
      assert.equal((await sendEvent(t, as, job, end)).status, 202);
      const before = {
        job: (await t.request('GET', `/v2/export-jobs/${job}`, { token: as })).body.data,
        items: (await t.request('GET', `/v2/export-jobs/${job}/items`, { token: as })).body.data,
      };
      const response = await put([{ accountingEntryId: entry, status: 'failed' }]);
      assert.equal(response.status, 422, `${end}: ${response.text}`);
      assert.equal(response.headers['content-type'], 'application/json;charset=UTF-8');
      assert.equal(response.body.type, 'EXPORT_JOB_STATUS_UNPROCESSABLE');
      assert.equal(response.body.title, 'Export job is finished');
      assert.deepEqual((await t.request('GET', `/v2/export-jobs/${job}/items`, { token: as })).body.data, before.items);
      assert.equal(before.items[0].externalId, 'INV-9');
      const after = (await t.request('GET', `/v2/export-jobs/${job}`, { token: as })).body.data;
      assert.equal(after.lastUpdatedAt, before.job.lastUpdatedAt);
    }
  });

  it('answers 404 EXPORT_NOT_FOUND for an unknown job', async () => {
    const response = await t.request('PUT', `/v2/export-jobs/${randomUUID()}/items`, { token, body: [] });
    assert.equal(response.status, 404);
  });

  itEnforcesAccess(() => t, {
    method: 'PUT',
    url: () => `/v2/export-jobs/${jobId}/items`,
    body: () => [{ accountingEntryId: entries[2], status: 'in_progress' }],
    scope: 'export-jobs:write',
    company: () => company,
    resourceInPath: true,
  });
});
