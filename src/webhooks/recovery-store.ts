// SQL of recovering failed messages (docs/decisions/webhook-delivery.md, "Recover").
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { EVENTS_CHANNEL } from './record-event.ts';

export interface RecoveryView {
  id: string;
  subscriptionId: string;
  since: string;
  until: string;
  messages: number;
  createdAt: string;
}

/**
 * Records a recovery of the subscription's failed messages created in [since, until), counting
 * them. `until` is capped at the database's now (also when null): later messages are new anyway.
 */
export async function insertRecovery(
  tx: Queryable,
  subscriptionId: string,
  since: string,
  until: string | null,
): Promise<RecoveryView> {
  const [row] = await tx.query<RecoveryView>(
    `WITH window_ AS (SELECT $2::timestamptz AS since, LEAST(COALESCE($3::timestamptz, now()), now()) AS until)
     INSERT INTO message_recoveries (subscription_id, since, until, messages)
     SELECT $1, w.since, w.until,
       (SELECT count(*) FROM messages m
        WHERE m.subscription_id = $1 AND m.status = 'failed' AND m.created_at >= w.since AND m.created_at < w.until)
     FROM window_ w
     RETURNING id, subscription_id AS "subscriptionId", ${isoTimestamp('since')} AS since,
       ${isoTimestamp('until')} AS until, messages, ${isoTimestamp('created_at')} AS "createdAt"`,
    [subscriptionId, since, until],
  );
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  return row;
}

/**
 * Queues up to `batchSize` failed messages of the oldest open recovery again, in the order they were
 * created, each with the whole schedule ahead of it and its webhook-id, as a resend does. One
 * statement: the recovery's count moves with the messages, and it is finished by the batch that runs
 * short. A message that is no longer failed (already queued, by this recovery or another, or resent)
 * is not touched, so nothing is queued twice. Answers the ids queued.
 */
export async function queueRecoveryBatch(db: Queryable, batchSize: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `WITH recovery AS (
       SELECT id, subscription_id, since, until FROM message_recoveries
       WHERE finished_at IS NULL ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
     ), picked AS (
       SELECT m.id, m.created_at FROM messages m JOIN recovery r ON m.subscription_id = r.subscription_id
       WHERE m.status = 'failed' AND m.created_at >= r.since AND m.created_at < r.until
       ORDER BY m.created_at, m.id LIMIT $1 FOR UPDATE OF m SKIP LOCKED
     ), numbered AS (
       SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM picked
     ), queued AS (
       -- A microsecond apart, so that the queue, which is ordered by next_attempt_at, keeps their order.
       UPDATE messages m SET status = 'pending', schedule_base = m.attempts, delivered_at = NULL,
         next_attempt_at = now() + numbered.n * interval '1 microsecond', leased_until = NULL, leased_by = NULL,
         updated_at = now()
       FROM numbered WHERE m.id = numbered.id
       RETURNING m.id
     ), moved AS (
       UPDATE message_recoveries r SET queued = r.queued + (SELECT count(*) FROM queued),
         finished_at = CASE WHEN (SELECT count(*) FROM queued) < $1 THEN now() END
       FROM recovery WHERE r.id = recovery.id
     ), woken AS (
       SELECT pg_notify($2, 'recovered') FROM recovery WHERE EXISTS (SELECT 1 FROM queued)
     )
     SELECT id FROM queued, (SELECT count(*) FROM woken) w`,
    [batchSize, EVENTS_CHANNEL],
  );
  return rows.map((row) => row.id);
}
