// Reads a subscription's delivery health (delivery-health-sql.ts keeps it): one row and at most a
// day of hourly rows, whatever the number of messages.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';

export interface HealthView {
  subscriptionId: string;
  lastAttemptAt: string | null;
  lastDeliveredAt: string | null;
  lastFailure: { at: string; statusCode: number | null; error: string | null } | null;
  consecutiveFailures: number;
  failingSince: string | null;
  last24Hours: { delivered: number; failedAttempts: number; failed: number };
  /** The subscription's rate limit, which paces its deliveries; null without one. */
  rateLimitPerSecond: number | null;
}

export async function readHealth(db: Queryable, subscriptionId: string): Promise<HealthView> {
  const [row] = await db.query<HealthView>(
    `SELECT $1::uuid AS "subscriptionId",
       ${isoTimestamp('h.last_attempt_at')} AS "lastAttemptAt",
       ${isoTimestamp('h.last_delivered_at')} AS "lastDeliveredAt",
       CASE WHEN h.last_failed_at IS NOT NULL THEN json_build_object(
         'at', ${isoTimestamp('h.last_failed_at')}, 'statusCode', h.last_failure_status_code,
         'error', h.last_failure_error) END AS "lastFailure",
       COALESCE(h.consecutive_failures, 0) AS "consecutiveFailures",
       ${isoTimestamp('h.failing_since')} AS "failingSince",
       (SELECT json_build_object('delivered', COALESCE(sum(c.delivered), 0)::int,
                                 'failedAttempts', COALESCE(sum(c.failed_attempts), 0)::int,
                                 'failed', COALESCE(sum(c.failed), 0)::int)
        FROM subscription_hourly_deliveries c
        WHERE c.subscription_id = $1 AND c.hour > date_trunc('hour', now()) - interval '24 hours') AS "last24Hours",
       (SELECT s.rate_limit FROM subscriptions s WHERE s.id = $1) AS "rateLimitPerSecond"
     FROM (SELECT 1) one LEFT JOIN subscription_health h ON h.subscription_id = $1`,
    [subscriptionId],
  );
  if (!row) throw new Error('the health query answered no row');
  return row;
}

/**
 * Deletes up to `batchSize` hourly rows older than two days (retention-sweeper.ts runs it); answers
 * them as `<subscription id>@<hour>`.
 */
export async function deleteOldHourlyDeliveries(db: Queryable, batchSize: number): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    `DELETE FROM subscription_hourly_deliveries WHERE (subscription_id, hour) IN (
       SELECT subscription_id, hour FROM subscription_hourly_deliveries
       WHERE hour < now() - interval '48 hours' ORDER BY hour LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING subscription_id || '@' || hour AS key`,
    [batchSize],
  );
  return rows.map((row) => row.key);
}

/**
 * Deletes up to `batchSize` health rows of subscriptions that no longer exist (migration 0019 says
 * why they have no foreign key); answers their subscription ids.
 */
export async function deleteOrphanedHealth(db: Queryable, batchSize: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM subscription_health WHERE subscription_id IN (
       SELECT h.subscription_id FROM subscription_health h
       WHERE NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.id = h.subscription_id)
       LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING subscription_id AS id`,
    [batchSize],
  );
  return rows.map((row) => row.id);
}

/**
 * Deletes up to `batchSize` rate slots (migration 0035) of subscriptions that no longer exist or have
 * no rate limit any more; answers their subscription ids.
 */
export async function deleteUnusedRateSlots(db: Queryable, batchSize: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM subscription_rate_slots WHERE subscription_id IN (
       SELECT r.subscription_id FROM subscription_rate_slots r
       WHERE r.next_slot_at < now()
         AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.id = r.subscription_id AND s.rate_limit IS NOT NULL)
       LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING subscription_id AS id`,
    [batchSize],
  );
  return rows.map((row) => row.id);
}
