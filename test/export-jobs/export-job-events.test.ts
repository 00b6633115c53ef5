import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';
import { createJob, sendEvent } from './fixtures.ts';

const { t, company, token } = await startCompanyTestApp();

/** A job of a company of its own, brought to `status` through the API. */
async function jobIn(status: string) {
  const owner = randomUUID();
  const as = await t.token({ companies: [owner] });
  const job = await createJob(t, as, { companyId: owner, accountingEntryIds: [] });
  const path = {
    pending: [],
    in_progress: ['started'],
    completed: ['started', 'completed'],
    completed_with_errors: ['started', 'completed_with_errors'],
    failed: ['started', 'failed'],
  }[status];
  assert.ok(path);
  for (const event of path) assert.equal((await sendEvent(t, as, job.id, event)).status, 202);
  return { id: job.id as string, token: as };
}

const get = async (job: { id: string; token: string }) =>
  (await t.request('GET', `/v2/export-jobs/${job.id}`, { token: job.token })).body.data;

describe('POST /v2/export-job-events', () => {
  it('runs a job through its lifecycle, stamping startedAt and completedAt', async () => {
    const job = await jobIn('pending');
    const created = await get(job);
    assert.equal((await sendEvent(t, job.token, job.id, 'started')).status, 202);
    const started = await get(job);
    assert.equal(started.status, 'in_progress');
    assert.ok(started.startedAt >= created.createdAt);
    assert.equal(started.lastUpdatedAt, started.startedAt);
    assert.equal(started.completedAt, null);
    const failed = await sendEvent(t, job.token, job.id, 'failed', {
      failureReason: 'The accounting system refused the credentials',
      failureReasonType: 'accounting_system_authentication_failure',
    });
    assert.equal(failed.status, 202, failed.text);
    assert.equal(failed.text, '');
    const done = await get(job);
    assert.equal(done.status, 'failed');
    assert.equal(done.failureReason, 'The accounting system refused the credentials');
    assert.equal(done.failureReasonType, 'accounting_system_authentication_failure');
    assert.ok(done.completedAt >= done.startedAt);
    assert.equal(done.startedAt, started.startedAt);
  });

  it('fails a pending job, with or without a reason, leaving startedAt null', async () => {
    for (const reason of [
      { failureReason: 'The user canceled the export', failureReasonType: 'canceled_by_user' },
      { failureReasonType: 'missing_configuration' },
      {},
    ]) {
      const job = await jobIn('pending');
      const response = await sendEvent(t, job.token, job.id, 'failed', reason);
      assert.equal(response.status, 202, response.text);
      const done = await get(job);
      assert.equal(done.status, 'failed');
      assert.equal(done.startedAt, null);
      assert.notEqual(done.completedAt, null);
      assert.equal(done.failureReason, reason.failureReason ?? null);
      assert.equal(done.failureReasonType, reason.failureReasonType ?? null);
      const again = await sendEvent(t, job.token, job.id, 'started');
      assert.equal(again.status, 422, again.text);
    }
  });

  it('ends an in_progress job as completed or completed_with_errors', async () => {
    for (const status of ['completed', 'completed_with_errors']) {
      const job = await jobIn(status);
      const done = await get(job);
      assert.equal(done.status, status);
      assert.equal(done.failureReason, null);
      assert.notEqual(done.completedAt, null);
    }
  });

  it('answers 422 INVALID_EXPORT_JOB_STATUS_CHANGE for every impossible change, leaving the job unchanged', async () => {
    const possible = new Set([
      'pending:started',
      'pending:failed',
      'in_progress:completed',
      'in_progress:completed_with_errors',
      'in_progress:failed',
    ]);
    for (const status of ['pending', 'in_progress', 'completed', 'completed_with_errors', 'failed']) {
      const job = await jobIn(status);
      const before = await get(job);
      for (const event of ['started', 'completed', 'completed_with_errors', 'failed']) {
        if (possible.has(`${status}:${event}`)) continue;
        const response = await sendEvent(t, job.token, job.id, event, { failureReason: 'x' });
        assert.equal(response.status, 422, `${status} + ${event}: ${response.text}`);
        assert.equal(response.body.type, 'INVALID_EXPORT_JOB_STATUS_CHANGE');
        assert.deepEqual({ ...(await get(job)), expiresIn: 0 }, { ...before, expiresIn: 0 });
      }
    }
  });

  it('applies only one of two racing identical changes', async () => {
    const job = await jobIn('pending');
    const statuses = (await Promise.all([1, 2].map(() => sendEvent(t, job.token, job.id, 'started')))).map(
      (r) => r.status,
    );
    assert.deepEqual(statuses.sort(), [202, 422]);
  });

  it('answers 404 EXPORT_NOT_FOUND for an unknown job and 400 for an unknown event', async () => {
    const unknown = await sendEvent(t, token, randomUUID(), 'started');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.type, 'EXPORT_NOT_FOUND');
    const job = await jobIn('pending');
    assert.equal((await sendEvent(t, job.token, job.id, 'cancelled')).status, 400);
  });

  let guarded: { id: string; token: string };
  before(async () => {
    guarded = await jobIn('completed');
  });
  itEnforcesAccess(() => t, {
    method: 'POST',
    url: () => '/v2/export-job-events',
    body: () => ({ jobId: guarded.id, event: 'started' }),
    scope: 'export-jobs:write',
    company: () => company,
    resourceInPath: true,
  });
});
