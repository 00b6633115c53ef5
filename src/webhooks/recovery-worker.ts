// Queues the messages of recoveries (POST /v1/subscriptions/{id}:recover) again, in every worker
// process: a batch of 1,000 a statement, so a window of a million failed messages holds no lock
// for long and blocks nothing; several workers share the work (recovery-store.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { type PeriodicSweep, startPeriodicSweep } from '../db/periodic-sweep.ts';
import { queueRecoveryBatch } from './recovery-store.ts';

const BATCH = 1000;

export function startRecoveryWorker(options: {
  db: Database;
  logger: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** How often to look for recoveries to work on. */
  intervalMs?: number;
  /** Called after each pass with the messages it queued (tests await this). */
  onSweep?: (queuedIds: string[]) => void;
}): PeriodicSweep {
  const { db } = options;
  return startPeriodicSweep({
    name: 'message-recovery',
    doneMessage: 'failed messages queued again',
    intervalMs: options.intervalMs ?? 500,
    batch: () => queueRecoveries(db),
    batchSize: BATCH,
    logger: options.logger,
    onSweep: options.onSweep,
  });
}

/**
 * Queues a batch; when that finished a small recovery, goes on with the next open one in the same
 * pass, so many small recoveries (or empty ones) never hold a large one back by an interval each.
 */
async function queueRecoveries(db: Database): Promise<string[]> {
  const queued: string[] = [];
  for (;;) {
    const batch = await queueRecoveryBatch(db, BATCH);
    queued.push(...batch.queued);
    if (batch.recoveryId === null || batch.queued.length === BATCH || queued.length >= BATCH) return queued;
  }
}
