// Runs the expiry sweep periodically in every worker process. Several processes may sweep at once:
// expireExportJobs claims each job with SKIP LOCKED, so a job is expired exactly once.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
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

export function startExpirySweeper(options: ExpirySweeperOptions): { stop(): Promise<void> } {
  const { db, ttlSeconds, logger, onSweep } = options;
  const intervalMs = options.intervalMs ?? Math.min(30_000, Math.max(100, ttlSeconds * 100));
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const sweep = async () => {
    const expired: string[] = [];
    try {
      // Batches until the backlog is gone, so a long outage is caught up in one sweep.
      let batch: string[];
      do {
        batch = await expireExportJobs(db, ttlSeconds, BATCH);
        expired.push(...batch);
      } while (batch.length === BATCH && !stopped);
      if (expired.length > 0) logger.info({ expired: expired.length }, 'export jobs expired');
    } catch (error) {
      logger.error({ err: error }, 'export job expiry sweep failed; retrying at the next interval');
    }
    onSweep?.(expired);
  };

  const timer = setInterval(() => {
    running = running.then(sweep);
  }, intervalMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
