// The expiry sweep (docs/decisions/export-jobs-and-events.md): a job with no change for
// EXPORT_JOB_TTL fails with failureReasonType job_expired and its open items become abandoned.
// expiry-sweeper.ts runs it.
import type { Database, Queryable } from '../db/database.ts';
import { recordEvents } from '../webhooks/record-event.ts';
import { statusChangeEvent } from './operations.ts';
import * as store from './store.ts';

/**
 * Expires up to `batchSize` overdue jobs in one transaction, with one `v1.export-job.expired` each,
 * and returns their ids, oldest first. Jobs are claimed with FOR UPDATE SKIP LOCKED, so several
 * processes sweeping at once expire each job exactly once and never wait for a job another
 * transaction is changing.
 */
export async function expireExportJobs(db: Database, ttlSeconds: number, batchSize = 100): Promise<string[]> {
  return db.transaction(async (tx) => {
    const before = await store.claimOverdueExportJobs(tx, ttlSeconds, batchSize);
    if (before.length === 0) return [];
    const ids = before.map((job) => job.id);
    await failAsExpired(tx, ids, ttlSeconds);
    const after = new Map((await store.findExportJobsById(tx, ids, ttlSeconds)).map((job) => [job.id, job]));
    await recordEvents(
      tx,
      before.map((job) => statusChangeEvent('v1.export-job.expired', job, after.get(job.id))),
    );
    return ids;
  });
}

/** Fails the claimed jobs as job_expired and abandons their open items. */
async function failAsExpired(tx: Queryable, ids: readonly string[], ttlSeconds: number): Promise<void> {
  await tx.query(
    `UPDATE export_jobs SET status = 'failed', failure_reason_type = 'job_expired',
       failure_reason = 'Not updated within ' || $2::int || ' seconds', expired_at = now(), completed_at = now(),
       last_updated_at = now()
     WHERE id = ANY($1::uuid[])`,
    [ids, ttlSeconds],
  );
  await tx.query(
    `UPDATE export_job_items SET status = 'abandoned', updated_at = now()
     WHERE job_id = ANY($1::uuid[]) AND status IN ('pending', 'in_progress')`,
    [ids],
  );
}
