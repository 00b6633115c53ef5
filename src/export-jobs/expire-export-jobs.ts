// The expiry sweep (docs/decisions/export-jobs-and-events.md): a job with no change for
// EXPORT_JOB_TTL fails with failureReasonType job_expired and its open items become abandoned.
// expiry-sweeper.ts runs it.
import type { Database } from '../db/database.ts';

/**
 * Expires up to `batchSize` overdue jobs in one transaction and returns their ids. Jobs are claimed
 * with FOR UPDATE SKIP LOCKED, so several processes sweeping at once expire each job exactly once
 * and never wait for a job another transaction is changing.
 */
export async function expireExportJobs(db: Database, ttlSeconds: number, batchSize = 100): Promise<string[]> {
  return db.transaction(async (tx) => {
    const expired = await tx.query<{ id: string }>(
      `WITH due AS (
         SELECT id FROM export_jobs
         WHERE status IN ('pending', 'in_progress') AND last_updated_at < now() - make_interval(secs => $1)
         ORDER BY last_updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE export_jobs j SET status = 'failed', failure_reason_type = 'job_expired',
         failure_reason = 'Not updated within ' || $1 || ' seconds', expired_at = now(), completed_at = now(),
         last_updated_at = now()
       FROM due WHERE j.id = due.id RETURNING j.id`,
      [ttlSeconds, batchSize],
    );
    const ids = expired.map((row) => row.id);
    if (ids.length > 0) {
      await tx.query(
        `UPDATE export_job_items SET status = 'abandoned', updated_at = now()
         WHERE job_id = ANY($1::uuid[]) AND status IN ('pending', 'in_progress')`,
        [ids],
      );
    }
    return ids;
  });
}
