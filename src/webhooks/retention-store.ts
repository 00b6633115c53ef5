// Webhook retention's SQL (docs/decisions/webhook-delivery.md, "Retention"). Each function deletes
// one batch in one statement, so no lock is held past it; rows are claimed with SKIP LOCKED, so two
// sweepers at once never take the same rows and never wait for each other.
import type { Queryable } from '../db/database.ts';

/**
 * Deletes up to `batchSize` messages that ended (delivered or failed) more than `retentionMs` ago,
 * oldest first, with their attempts (ON DELETE CASCADE). A pending message is never deleted, however
 * old: it is still owed to its endpoint. Answers the ids deleted.
 */
export async function deleteEndedMessages(db: Queryable, retentionMs: number, batchSize: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM messages WHERE id IN (
       SELECT id FROM messages
       WHERE status IN ('delivered', 'failed') AND updated_at < now() - $1 * interval '1 millisecond'
       ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [retentionMs, batchSize],
  );
  return rows.map((row) => row.id);
}

/**
 * Deletes up to `batchSize` events older than `retentionMs` that no message needs any more (their
 * messages were deleted, or they had none). An event with a message left, pending or kept, stays:
 * the message's payload is the event's data. So does one whose fan-out still waits for the workers
 * (fan-out.ts): its messages are not made yet (read once per statement, as a hashed set).
 */
export async function deleteUnneededEvents(db: Queryable, retentionMs: number, batchSize: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM events WHERE id IN (
       SELECT e.id FROM events e
       WHERE e.created_at < now() - $1 * interval '1 millisecond'
         AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.event_id = e.id)
         AND e.id NOT IN (SELECT unnest(f.event_ids) FROM event_fan_outs f)
       ORDER BY e.created_at LIMIT $2 FOR UPDATE OF e SKIP LOCKED)
     RETURNING id`,
    [retentionMs, batchSize],
  );
  return rows.map((row) => row.id);
}

/**
 * Deletes up to `batchSize` recoveries that finished more than `retentionMs` ago, oldest first. One
 * that is still queueing stays, however old: its messages are still owed their second chance.
 */
export async function deleteFinishedRecoveries(
  db: Queryable,
  retentionMs: number,
  batchSize: number,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM message_recoveries WHERE id IN (
       SELECT id FROM message_recoveries
       WHERE finished_at < now() - $1 * interval '1 millisecond'
       ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [retentionMs, batchSize],
  );
  return rows.map((row) => row.id);
}
