// Runs the expiry sweep periodically in every worker process. Several processes may sweep at once:
// expireExportJobs claims each job with SKIP LOCKED, so a job is expired exactly once.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { type PeriodicSweep, startPeriodicSweep } from '../db/periodic-sweep.ts';
import { expireExportJobs } from './expire-export-jobs.ts';

export interface ExpirySweeperOptions {
  db: Database;
  ttlSeconds: number;
  logger: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** How often to sweep; by default a tenth of the TTL, between 100 ms and 30 s. */
  intervalMs?: number;
  /** Called after each sweep with the jobs it expired (tests await this). */
  onSweep?: (expiredJobIds: string[]) => void;
}

const BATCH = 100;

export function startExpirySweeper(options: ExpirySweeperOptions): PeriodicSweep {
  const { db, ttlSeconds, logger, onSweep } = options;
  return startPeriodicSweep({
    name: 'export-job-expiry',
    doneMessage: 'export jobs expired',
    intervalMs: options.intervalMs ?? Math.min(30_000, Math.max(100, ttlSeconds * 100)),
    batch: () => expireExportJobs(db, ttlSeconds, BATCH),
    batchSize: BATCH,
    logger,
    onSweep,
  });
}
