// Watermarks of transaction ids over time (migration 0032): where the feed starts a window that
// begins at a given time, so that its first page does not read the company's history before it.
import type { Queryable } from '../db/database.ts';

/**
 * Records now's watermark. The snapshot of the statement is taken before clock_timestamp() is read,
 * so a transaction that starts at or after the recorded time starts after the snapshot.
 */
export async function recordTransactionWatermark(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO transaction_watermarks (recorded_at, next_transaction_id)
     SELECT clock_timestamp(), pg_snapshot_xmax(pg_current_snapshot())`,
  );
}

/** Deletes up to `batchSize` watermarks older than `retentionMs`; answers how many. */
export async function deleteOldWatermarks(db: Queryable, retentionMs: number, batchSize: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM transaction_watermarks WHERE ctid IN (
       SELECT ctid FROM transaction_watermarks WHERE recorded_at < now() - $1 * interval '1 millisecond'
       ORDER BY recorded_at LIMIT $2)
     RETURNING 1`,
    [retentionMs, batchSize],
  );
  return rows.length;
}

/**
 * The smallest transaction id an event created at or after `at` can have, from the latest watermark
 * at or before it; null without one.
 */
export async function firstTransactionIdSince(db: Queryable, at: string): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `SELECT next_transaction_id::text AS id FROM transaction_watermarks WHERE recorded_at <= $1::timestamptz
     ORDER BY recorded_at DESC LIMIT 1`,
    [at],
  );
  return row?.id ?? null;
}
