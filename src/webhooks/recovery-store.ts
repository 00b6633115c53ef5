// SQL of recovering failed messages (docs/decisions/webhook-delivery.md, "Recover").
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { wakeWorkers } from './record-event.ts';

export interface RecoveryView {
  id: string;
  subscriptionId: string;
  since: string;
  until: string;
  messages: number;
  createdAt: string;
}

/** Why a window was refused: `since` is in the future, or the window is empty. */
export type WindowProblem = 'SINCE_IN_FUTURE' | 'EMPTY_WINDOW';

/**
 * Records a recovery of the subscription's failed messages created in [since, until), counting
 * them. `until` is capped at the database's now (also when null): later messages are new anyway. The
 * window is judged by the database, on its clock and its reading of the timestamps, so what it
 * accepts is what it stores.
 */
export async function insertRecovery(
  tx: Queryable,
  subscriptionId: string,
  since: string,
  until: string | null,
): Promise<RecoveryView | WindowProblem> {
  const [row] = await tx.query<RecoveryView & { future: boolean; inserted: boolean }>(
    `WITH w AS (
       SELECT $2::timestamptz AS since, LEAST(COALESCE($3::timestamptz, now()), now()) AS until,
         $2::timestamptz > now() AS future
     ), inserted AS (
       INSERT INTO message_recoveries (subscription_id, since, until, messages)
       SELECT $1, w.since, w.until,
         (SELECT count(*) FROM messages m
          WHERE m.subscription_id = $1 AND m.status = 'failed' AND m.created_at >= w.since AND m.created_at < w.until)
       FROM w WHERE NOT w.future AND w.until > w.since
       RETURNING id, subscription_id, since, until, messages, created_at
     )
     SELECT w.future, i.id IS NOT NULL AS inserted, i.id, i.subscription_id AS "subscriptionId",
       ${isoTimestamp('i.since')} AS since, ${isoTimestamp('i.until')} AS until, i.messages,
       ${isoTimestamp('i.created_at')} AS "createdAt"
     FROM w LEFT JOIN inserted i ON true`,
    [subscriptionId, since, until],
  );
  if (!row) throw new Error('the recovery statement answered no row');
  if (!row.inserted) return row.future ? 'SINCE_IN_FUTURE' : 'EMPTY_WINDOW';
  const { future: _future, inserted: _inserted, ...recovery } = row;
  return recovery;
}

export interface RecoveryBatch {
  /** The recovery worked on; null when none was open. */
  recoveryId: string | null;
  queued: string[];
}

/**
 * Queues up to `batchSize` failed messages of the oldest open recovery again, in the order they were
 * created, each with the whole schedule ahead of it and its webhook-id, as a resend does. One
 * statement: the recovery's count and position move with the messages, and it is finished by the
 * batch that runs short. Each batch goes on after the last message the previous one queued, and a
 * message that is no longer failed (queued by another recovery, or resent) is not touched, so
 * nothing is queued twice.
 */
export async function queueRecoveryBatch(db: Queryable, batchSize: number): Promise<RecoveryBatch> {
  const [row] = await db.query<{ recoveryId: string | null; queued: string[] }>(
    `WITH recovery AS (
       SELECT id, subscription_id, since, until, position_created_at, position_id FROM message_recoveries
       WHERE finished_at IS NULL ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
     ), picked AS (
       SELECT m.id, m.created_at FROM messages m JOIN recovery r ON m.subscription_id = r.subscription_id
       WHERE m.status = 'failed' AND m.created_at >= r.since AND m.created_at < r.until
         AND (r.position_created_at IS NULL OR (m.created_at, m.id) > (r.position_created_at, r.position_id))
       ORDER BY m.created_at, m.id LIMIT $1 FOR UPDATE OF m
     ), numbered AS (
       SELECT id, created_at, row_number() OVER (ORDER BY created_at, id) AS n FROM picked
     ), queued AS (
       -- A microsecond apart, so that the queue, which is ordered by next_attempt_at, keeps their order.
       UPDATE messages m SET status = 'pending', schedule_base = m.attempts, delivered_at = NULL,
         next_attempt_at = now() + numbered.n * interval '1 microsecond', leased_until = NULL, leased_by = NULL,
         updated_at = now()
       FROM numbered WHERE m.id = numbered.id
       RETURNING m.id, numbered.created_at, numbered.n
     ), last AS (
       SELECT id, created_at FROM queued ORDER BY n DESC LIMIT 1
     ), moved AS (
       UPDATE message_recoveries r SET queued = r.queued + (SELECT count(*) FROM queued),
         finished_at = CASE WHEN (SELECT count(*) FROM queued) < $1 THEN now() END,
         position_created_at = COALESCE((SELECT created_at FROM last), r.position_created_at),
         position_id = COALESCE((SELECT id FROM last), r.position_id)
       FROM recovery WHERE r.id = recovery.id
     )
     SELECT (SELECT id FROM recovery) AS "recoveryId",
       COALESCE((SELECT array_agg(id ORDER BY n) FROM queued), '{}') AS queued`,
    [batchSize],
  );
  const queued = row?.queued ?? [];
  wakeWorkers(db, queued[0]);
  return { recoveryId: row?.recoveryId ?? null, queued };
}
