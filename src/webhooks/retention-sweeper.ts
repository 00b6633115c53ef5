// Runs webhook retention in every worker process (docs/decisions/webhook-delivery.md, "Retention"):
// messages that ended more than WEBHOOK_RETENTION ago, their attempts, then the events no message
// needs any more, and the recoveries that finished that long ago. The sweep repeats often enough that nothing stays much more than a minute past
// its retention, and every batch is one short statement.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { type PeriodicSweep, startPeriodicSweep } from '../db/periodic-sweep.ts';
import { deleteExpiredTrails } from '../subscriptions/activity-store.ts';
import { deleteOldHourlyDeliveries, deleteOrphanedHealth, deleteUnusedRateSlots } from './health-store.ts';
import { deleteEndedMessages, deleteFinishedRecoveries, deleteUnneededEvents } from './retention-store.ts';
import { deleteOldWatermarks, recordTransactionWatermark } from './transaction-watermarks.ts';

export interface RetentionSweeperOptions {
  db: Database;
  retentionMs: number;
  logger: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** How often to sweep; by default a tenth of the retention, between 100 ms and 30 s. */
  intervalMs?: number;
  batchSize?: number;
  /** Called after each sweep with the message and event ids it deleted (tests await this). */
  onSweep?: (deletedIds: string[]) => void;
}

// Small enough that one batch (a message has at most a few dozen attempts) holds its row locks for
// milliseconds; large enough that a day's backlog is swept in seconds.
const BATCH = 500;

export function startRetentionSweeper(options: RetentionSweeperOptions): PeriodicSweep {
  const { db, retentionMs, logger, onSweep } = options;
  const batchSize = options.batchSize ?? BATCH;
  return startPeriodicSweep({
    name: 'webhook-retention',
    doneMessage: 'webhook messages and events past their retention deleted',
    intervalMs: options.intervalMs ?? Math.min(30_000, Math.max(100, Math.floor(retentionMs / 10))),
    batch: () => sweepRetentionBatch(db, retentionMs, batchSize),
    batchSize,
    logger,
    onSweep,
  });
}

/**
 * One batch of messages; once those run short, one batch of events too (an event goes only after
 * its messages), of the trails of subscriptions deleted before the retention, of the recoveries
 * finished before it, of the hourly delivery counts older than the day they serve, of the health
 * of deleted subscriptions, and of the rate slots of subscriptions without a rate limit. Answers what it deleted: a full batch or more means more may be waiting.
 */
export async function sweepRetentionBatch(db: Database, retentionMs: number, batchSize: number): Promise<string[]> {
  const messages = await deleteEndedMessages(db, retentionMs, batchSize);
  if (messages.length === batchSize) return messages;
  // Each sweep leaves the feed a watermark to start its time windows from, and prunes the old ones.
  await recordTransactionWatermark(db);
  await deleteOldWatermarks(db, retentionMs, batchSize);
  const events = await deleteUnneededEvents(db, retentionMs, batchSize);
  const trails = await deleteExpiredTrails(db, retentionMs, batchSize);
  const recoveries = await deleteFinishedRecoveries(db, retentionMs, batchSize);
  const hours = await deleteOldHourlyDeliveries(db, batchSize);
  const health = await deleteOrphanedHealth(db, batchSize);
  return [
    ...messages,
    ...events,
    ...trails,
    ...recoveries,
    ...hours,
    ...health,
    ...(await deleteUnusedRateSlots(db, batchSize)),
  ];
}
