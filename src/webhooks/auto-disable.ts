// Auto-disable (docs/decisions/webhook-delivery.md, "Auto-disable"): a subscription whose endpoint
// has failed every attempt for WEBHOOK_DISABLE_AFTER, with at least a handful of messages failed in
// that time, becomes INACTIVE (status_reason ENDPOINT_FAILING). Its pending messages end failed, so
// `:recover` can bring them back once the owner has made it ACTIVE again; no new message is created
// for it meanwhile, and its owner's other subscriptions hear of it (v1.subscription.disabled).
// Runs in every worker process; SKIP LOCKED keeps two workers off one subscription.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/database.ts';
import { type PeriodicSweep, startPeriodicSweep } from '../db/periodic-sweep.ts';
import { SYSTEM_ACTOR } from '../subscriptions/activity-changes.ts';
import {
  type DisabledSubscription,
  disabledNotice,
  recordSubscriptionsDisabled,
} from '../subscriptions/disabled-event.ts';

/** Messages that must have failed (every attempt spent) during the streak: one bad hour is not enough. */
export const MIN_FAILED_MESSAGES = 5;

/**
 * Disables up to `batchSize` subscriptions failing for `disableAfterMs`: measured from the later of
 * the failure streak's start and the subscription's last change, so a subscription its owner has
 * just made ACTIVE again (or edited) gets a whole period before it can be disabled again, and only
 * while attempts keep failing (the last one failed, since the last change and within the period). In one
 * statement with its DISABLE activity and the failing of its pending messages, then, in the same
 * transaction, one v1.subscription.disabled each. Answers their ids.
 */
export async function disableFailingSubscriptions(
  db: Database,
  disableAfterMs: number,
  batchSize: number,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const disabled = await disableFailing(tx, disableAfterMs, batchSize);
    await recordSubscriptionsDisabled(tx, disabled);
    return disabled.map(({ notice }) => notice.subscriptionId);
  });
}

/** The statement of disableFailingSubscriptions: answers each subscription it disabled, with its notice. */
async function disableFailing(
  tx: Queryable,
  disableAfterMs: number,
  batchSize: number,
): Promise<DisabledSubscription[]> {
  return tx.query<DisabledSubscription>(
    `WITH due AS (
       SELECT s.id FROM subscriptions s JOIN subscription_health h ON h.subscription_id = s.id
       WHERE s.status = 'ACTIVE' AND h.failed_messages_in_streak >= $3
         AND h.failing_since <= now() - $1 * interval '1 millisecond'
         AND s.updated_at <= now() - $1 * interval '1 millisecond'
         -- Still failing: an attempt failed since the last change and within the period (a quiet
         -- subscription, or one made ACTIVE again that has had no attempt since, is left alone).
         AND h.last_failed_at > s.updated_at AND h.last_failed_at > now() - $1 * interval '1 millisecond'
       ORDER BY h.failing_since LIMIT $2 FOR UPDATE OF s SKIP LOCKED
     ), disabled AS (
       UPDATE subscriptions s SET status = 'INACTIVE', status_reason = 'ENDPOINT_FAILING', updated_at = now()
       FROM due WHERE s.id = due.id
       RETURNING s.id, s.owner, s.companies, ${disabledNotice('s')} AS notice
     ), trail AS (
       INSERT INTO subscription_activities (subscription_id, owner, companies, operation_type, actor_urn, description, changes)
       SELECT d.id, d.owner, d.companies, 'DISABLE', $4,
         'Disabled: every attempt failed since ' || to_char(h.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
           || ' (' || h.consecutive_failures || ' attempts, ' || h.failed_messages_in_streak
           || ' messages failed); pending messages failed. PUT status ACTIVE enables it, then :recover sends them again',
         jsonb_build_array(jsonb_build_object('field', 'status', 'before', 'ACTIVE', 'after', 'INACTIVE'))
       FROM disabled d JOIN subscription_health h ON h.subscription_id = d.id
     ), failed AS (
       UPDATE messages m SET status = 'failed', leased_until = NULL, leased_by = NULL, updated_at = now()
       FROM disabled WHERE m.subscription_id = disabled.id AND m.status = 'pending'
     )
     SELECT owner, notice FROM disabled`,
    [disableAfterMs, batchSize, MIN_FAILED_MESSAGES, SYSTEM_ACTOR],
  );
}

export function startAutoDisable(options: {
  db: Database;
  disableAfterMs: number;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  intervalMs?: number;
  onSweep?: (disabledIds: string[]) => void;
}): PeriodicSweep {
  const { db, disableAfterMs, logger } = options;
  const batchSize = 100;
  return startPeriodicSweep({
    name: 'webhook-auto-disable',
    doneMessage: 'subscriptions disabled: their endpoints failed every attempt for WEBHOOK_DISABLE_AFTER',
    intervalMs: options.intervalMs ?? Math.min(60_000, Math.max(100, Math.floor(disableAfterMs / 10))),
    batch: async () => {
      const disabled = await disableFailingSubscriptions(db, disableAfterMs, batchSize);
      for (const subscriptionId of disabled) {
        logger.warn(
          { subscriptionId, reason: 'ENDPOINT_FAILING' },
          'subscription disabled: its endpoint keeps failing',
        );
      }
      return disabled;
    },
    batchSize,
    logger,
    onSweep: options.onSweep,
  });
}
