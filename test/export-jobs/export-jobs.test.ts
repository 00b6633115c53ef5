import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';
import { createEntries, createJob, sendEvent } from './fixtures.ts';

const { t, company, token } = await startCompanyTestApp();
let entries: string[];

before(async () => {
  entries = await createEntries(t, company, token, 3);
});

/** A company of its own with `count` entries, so jobs of different tests never block each other. */
async function freshCompany(count = 2) {
  const id = randomUUID();
  const as = await t.token({ companies: [id] });
  return { id, token: as, entries: await createEntries(t, id, as, count) };
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('POST /v2/export-jobs', () => {
  it('creates a pending job of the entries not yet exported, created by the token subject', async () => {
    const c = await freshCompany(2);
    const sub = randomUUID();
    const as = await t.token({ companies: [c.id], subject: sub });
    const job = await createJob(t, as, { companyId: c.id });
    assert.match(job.createdAt, TIMESTAMP);
    assert.equal(job.lastUpdatedAt, job.createdAt);
    assert.deepEqual(
      { ...job, id: undefined, createdAt: undefined, lastUpdatedAt: undefined },
      {
        id: undefined,
        companyId: c.id,
        createdAt: undefined,
        createdBy: sub,
        expiresIn: 3600,
        numberOfItems: 2,
        status: 'pending',
        isInteractive: true,
        vendorBasedBookkeeping: false,
        failureReason: null,
        failureReasonType: null,
        lastUpdatedAt: undefined,
        startedAt: null,
        completedAt: null,
        expiredAt: null,
      },
    );
    const got = await t.request('GET', `/v2/export-jobs/${job.id}`, { token: c.token });
    assert.equal(got.status, 200);
    assert.deepEqual({ ...got.body.data, expiresIn: 0 }, { ...job, expiresIn: 0 });
    assert.ok(got.body.data.expiresIn <= 3600 && got.body.data.expiresIn >= 3590);
  });

  it("is created by the request's employeeId when it names one (the reference's), else by the token subject", async () => {
    const employee = randomUUID();
    const c = await freshCompany(0);
    const job = await createJob(t, c.token, { companyId: c.id, employeeId: employee.toUpperCase() });
    assert.equal(job.createdBy, employee);
    await sendEvent(t, c.token, job.id, 'failed');
    const sub = randomUUID();
    const as = await t.token({ companies: [c.id], subject: sub });
    assert.equal((await createJob(t, as, { companyId: c.id, employeeId: null })).createdBy, sub);
    const malformed = await t.request('POST', '/v2/export-jobs', {
      token: c.token,
      body: { companyId: c.id, employeeId: 'employee-7' },
    });
    assert.equal(malformed.status, 400, malformed.text);
    assert.equal(malformed.body.errors[0].path, '/employeeId');
  });

  it('selects by default only entries that are in no export job yet', async () => {
    const c = await freshCompany(2);
    const first = await createJob(t, c.token, { companyId: c.id, accountingEntryIds: [c.entries[0]] });
    assert.equal(first.numberOfItems, 1);
    await sendEvent(t, c.token, first.id, 'started');
    await sendEvent(t, c.token, first.id, 'completed');
    const second = await createJob(t, c.token, { companyId: c.id });
    assert.equal(second.numberOfItems, 1);
    const items = await t.request('GET', `/v2/export-jobs/${second.id}/items`, { token: c.token });
    assert.deepEqual(
      items.body.data.map((i: { accountingEntryId: string }) => i.accountingEntryId),
      [c.entries[1]],
    );
  });

  it('answers 400 UNKNOWN_ACCOUNTING_ENTRY for an entry of another company, and creates nothing', async () => {
    const c = await freshCompany(1);
    const response = await t.request('POST', '/v2/export-jobs', {
      token: c.token,
      body: { companyId: c.id, accountingEntryIds: [c.entries[0], entries[0]] },
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.type, 'UNKNOWN_ACCOUNTING_ENTRY');
    assert.deepEqual(response.body.errors, [
      { path: '/accountingEntryIds/1', message: 'must be an accounting entry of the company', in: 'body' },
    ]);
    const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM export_jobs WHERE company_id = $1', [
      c.id,
    ]);
    assert.equal(row?.n, 0);
  });

  it("takes an id listed twice, as the reference's accountingEntryIds allows, as one item", async () => {
    const c = await freshCompany(2);
    const [a, b] = c.entries as [string, string];
    const job = await createJob(t, c.token, { companyId: c.id, accountingEntryIds: [a, b, a, a.toUpperCase()] });
    assert.equal(job.numberOfItems, 2);
    const items = await t.request('GET', `/v2/export-jobs/${job.id}/items?sorting_keys=accountingEntryId`, {
      token: c.token,
    });
    assert.deepEqual(
      items.body.data.map((i: { accountingEntryId: string }) => i.accountingEntryId),
      [a, b].sort(),
    );
  });

  it('names every index, as sent, of an unknown entry listed after a repeated one', async () => {
    const c = await freshCompany(1);
    const stranger = randomUUID();
    const response = await t.request('POST', '/v2/export-jobs', {
      token: c.token,
      body: { companyId: c.id, accountingEntryIds: [c.entries[0], c.entries[0], stranger, stranger] },
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.type, 'UNKNOWN_ACCOUNTING_ENTRY');
    assert.deepEqual(
      response.body.errors.map((e: { path: string }) => e.path),
      ['/accountingEntryIds/2', '/accountingEntryIds/3'],
    );
  });

  it('answers 409 EXPORT_ALREADY_IN_PROGRESS, naming the blocking job, while a job is pending or in_progress', async () => {
    const c = await freshCompany(1);
    const job = await createJob(t, c.token, { companyId: c.id });
    const body = { companyId: c.id };
    for (const next of ['started', 'completed']) {
      const response = await t.request('POST', '/v2/export-jobs', { token: c.token, body });
      assert.equal(response.status, 409, response.text);
      assert.equal(response.body.type, 'EXPORT_ALREADY_IN_PROGRESS');
      assert.equal(response.body.existingJobId, job.id);
      assert.equal((await sendEvent(t, c.token, job.id, next)).status, 202);
    }
    await createJob(t, c.token, body);
  });

  it('declares existingJobId in the 409 of the OpenAPI document, beside the shared problem schema', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    const conflict = document.paths['/v2/export-jobs'].post.responses['409'];
    assert.deepEqual(Object.keys(conflict.content), ['application/json;charset=UTF-8', 'application/problem+json']);
    const { schema } = conflict.content['application/json;charset=UTF-8'];
    assert.deepEqual(schema.allOf, [{ $ref: '#/components/schemas/Problem' }]);
    assert.equal(schema.properties.existingJobId.format, 'uuid');
  });

  it('lets exactly one of 20 racing creates win; the others are 409', async () => {
    const c = await freshCompany(3);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request('POST', '/v2/export-jobs', { token: c.token, body: { companyId: c.id } }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, ...Array(19).fill(409)]);
    const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM export_jobs WHERE company_id = $1', [
      c.id,
    ]);
    assert.equal(row?.n, 1);
  });

  itEnforcesAccess(() => t, {
    method: 'POST',
    url: () => '/v2/export-jobs',
    body: (companyId) => ({ companyId, accountingEntryIds: [] }),
    scope: 'export-jobs:write',
    company: () => company,
    companyInBody: true,
  });
});

describe('GET /v2/export-jobs/{jobId}', () => {
  let jobId: string;
  before(async () => {
    jobId = (await createJob(t, token, { companyId: company, accountingEntryIds: [entries[0]] })).id;
  });

  it('answers 404 EXPORT_NOT_FOUND for an unknown job', async () => {
    const response = await t.request('GET', `/v2/export-jobs/${randomUUID()}`, { token });
    assert.equal(response.status, 404);
    assert.equal(response.body.type, 'EXPORT_NOT_FOUND');
  });

  itEnforcesAccess(() => t, {
    method: 'GET',
    url: () => `/v2/export-jobs/${jobId}`,
    scope: 'export-jobs:read',
    company: () => company,
    resourceInPath: true,
  });
});

describe('GET /v2/export-jobs', () => {
  it('lists the jobs of a company, filtered by statuses, page by page', async () => {
    const c = await freshCompany(3);
    const ids: string[] = [];
    for (const entry of c.entries) {
      const job = await createJob(t, c.token, { companyId: c.id, accountingEntryIds: [entry] });
      ids.push(job.id);
      await sendEvent(t, c.token, job.id, 'started');
      if (ids.length < 3) await sendEvent(t, c.token, job.id, 'failed', { failureReason: 'down' });
    }
    const all = await t.request('GET', `/v2/export-jobs?company_id=${c.id}&limit=2`, { token: c.token });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.data.map((j: { id: string }) => j.id),
      ids.slice(0, 2),
    );
    assert.equal(all.body.pagination.total, 3);
    const next = await t.request(
      'GET',
      `/v2/export-jobs?company_id=${c.id}&limit=2&after=${all.body.pagination.endCursor}`,
      { token: c.token },
    );
    assert.deepEqual(
      next.body.data.map((j: { id: string }) => j.id),
      ids.slice(2),
    );
    const failed = await t.request('GET', `/v2/export-jobs?company_id=${c.id}&statuses=failed`, { token: c.token });
    assert.deepEqual(
      failed.body.data.map((j: { id: string }) => j.id),
      ids.slice(0, 2),
    );
    const open = await t.request('GET', `/v2/export-jobs?statuses=pending&statuses=in_progress`, { token: c.token });
    assert.deepEqual(
      open.body.data.map((j: { id: string }) => j.id),
      ids.slice(2),
    );
  });

  it('honours the deprecated status alone, and with statuses lists the jobs in any of them', async () => {
    const c = await freshCompany(3);
    const jobs: Record<string, string> = {};
    for (const [index, end] of (['failed', 'completed_with_errors', 'pending'] as const).entries()) {
      const job = await createJob(t, c.token, { companyId: c.id, accountingEntryIds: [c.entries[index]] });
      jobs[end] = job.id;
      if (end === 'pending') continue;
      await sendEvent(t, c.token, job.id, 'started');
      await sendEvent(t, c.token, job.id, end);
    }
    const list = async (query: string) => {
      const response = await t.request('GET', `/v2/export-jobs?company_id=${c.id}&${query}`, { token: c.token });
      assert.equal(response.status, 200, response.text);
      return response.body.data.map((j: { id: string }) => j.id).sort();
    };
    assert.deepEqual(await list('status=pending'), [jobs.pending]);
    assert.deepEqual(await list('status=completed_with_errors'), [jobs.completed_with_errors]);
    assert.deepEqual(await list('status=failed&statuses=pending'), [jobs.failed, jobs.pending].sort());
    assert.deepEqual(await list('status=failed&statuses=failed'), [jobs.failed]);
    assert.deepEqual(await list('status=completed'), []);
    const wrong = await t.request('GET', `/v2/export-jobs?company_id=${c.id}&status=done`, { token: c.token });
    assert.equal(wrong.status, 400, wrong.text);
    assert.deepEqual(
      wrong.body.errors.map((e: { path: string }) => e.path),
      ['/status'],
    );
  });

  it('answers 403 for a company_id the token does not list', async () => {
    const response = await t.request('GET', `/v2/export-jobs?company_id=${randomUUID()}`, { token });
    assert.equal(response.status, 403);
  });

  itEnforcesAccess(() => t, {
    method: 'GET',
    url: () => `/v2/export-jobs?company_id=${company}`,
    scope: 'export-jobs:read',
    company: () => company,
  });
});
