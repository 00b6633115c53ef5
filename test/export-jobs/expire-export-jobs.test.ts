import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { expireExportJobs } from '../../src/export-jobs/expire-export-jobs.ts';
import { startExpirySweeper } from '../../src/export-jobs/expiry-sweeper.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { createEntries, createJob, sendEvent } from './fixtures.ts';

let t: TestApp;

before(async () => {
  t = await startTestApp({ exportJobTtlSeconds: 1 });
});
after(() => t.close());

describe('expireExportJobs', () => {
  it('fails jobs unchanged for the TTL as job_expired and abandons their open items', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    const entries = await createEntries(t, company, token, 2);
    const job = await createJob(t, token, { companyId: company });
    assert.equal(job.expiresIn, 1);
    await t.request('PUT', `/v2/export-jobs/${job.id}/items`, {
      token,
      body: [{ accountingEntryId: entries[0], status: 'successful' }],
    });
    // A finished job of another company is never touched.
    const other = randomUUID();
    const otherToken = await t.token({ companies: [other] });
    const done = await createJob(t, otherToken, { companyId: other, accountingEntryIds: [] });
    await sendEvent(t, otherToken, done.id, 'started');
    await sendEvent(t, otherToken, done.id, 'completed');

    assert.deepEqual(await expireExportJobs(t.db, 1), [], 'nothing is overdue yet');
    // Age the job past its TTL in the database rather than waiting for the clock.
    await t.db.query(`UPDATE export_jobs SET last_updated_at = now() - interval '2 seconds'`);

    const expired = await Promise.all([expireExportJobs(t.db, 1), expireExportJobs(t.db, 1)]);
    assert.deepEqual(expired.flat(), [job.id], 'two sweeps at once expire the job exactly once');
    const got = (await t.request('GET', `/v2/export-jobs/${job.id}`, { token })).body.data;
    assert.equal(got.status, 'failed');
    assert.equal(got.failureReasonType, 'job_expired');
    assert.equal(got.expiredAt, got.lastUpdatedAt);
    assert.notEqual(got.expiredAt, null);
    const items = (await t.request('GET', `/v2/export-jobs/${job.id}/items?sorting_keys=accountingEntryId`, { token }))
      .body.data;
    const byEntry = Object.fromEntries(
      items.map((i: { accountingEntryId: string; status: string }) => [i.accountingEntryId, i.status]),
    );
    assert.deepEqual(byEntry, { [entries[0] as string]: 'successful', [entries[1] as string]: 'abandoned' });
    assert.equal(
      (await t.request('GET', `/v2/export-jobs/${done.id}`, { token: otherToken })).body.data.status,
      'completed',
    );
    // The company may export again.
    await createJob(t, token, { companyId: company, accountingEntryIds: [] });
  });
});

describe('the expiry sweeper', () => {
  it('expires overdue jobs on its own, and stops cleanly', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    const job = await createJob(t, token, { companyId: company, accountingEntryIds: [] });
    await t.db.query(`UPDATE export_jobs SET last_updated_at = now() - interval '2 seconds' WHERE id = $1`, [job.id]);

    let sweptJob: (ids: string[]) => void = () => {};
    const swept = new Promise<string[]>((resolve) => {
      sweptJob = (ids) => ids.includes(job.id) && resolve(ids);
    });
    const logged: string[] = [];
    const sweeper = startExpirySweeper({
      db: t.db,
      ttlSeconds: 1,
      intervalMs: 10,
      logger: { info: (_o: unknown, message: string) => logged.push(message), error: () => {} } as never,
      onSweep: (ids) => sweptJob(ids),
    });
    assert.deepEqual(await swept, [job.id]);
    await sweeper.stop();
    assert.equal((await t.request('GET', `/v2/export-jobs/${job.id}`, { token })).body.data.status, 'failed');
    assert.ok(logged.includes('export jobs expired'));
  });
});
