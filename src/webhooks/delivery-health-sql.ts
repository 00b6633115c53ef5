// How a subscription's health figures move with its attempts (docs/decisions/webhook-delivery.md,
// "Endpoint health"): common table expressions that recordAttempts (delivery-store.ts) appends to
// its statement, reading its `updated` (the messages moved on) and `input` (the attempts). So the
// figures commit with the attempts they count, and no request ever counts the message table.
//
// Per subscription, from this batch: the last attempt, delivery and failure; the failures after the
// batch's last success (a success resets the streak, else the batch's failures extend it); and the
// hour's counts of messages delivered, attempts failed and messages failed. Rows are written in
// subscription order, so two workers' batches never lock two subscriptions' rows in opposite orders.
export const HEALTH_CTES = `outcomes AS (
       SELECT u.subscription_id, u.status, i.succeeded, i.started_at, i.status_code, i.error,
         max(i.started_at) FILTER (WHERE i.succeeded) OVER (PARTITION BY u.subscription_id) AS last_success
       FROM updated u JOIN input i ON i.message_id = u.id
     ), batch_health AS (
       SELECT subscription_id,
         max(started_at) AS last_attempt_at,
         max(last_success) AS last_delivered_at,
         max(started_at) FILTER (WHERE NOT succeeded) AS last_failed_at,
         (array_agg(status_code ORDER BY started_at DESC) FILTER (WHERE NOT succeeded))[1] AS last_status_code,
         (array_agg(error ORDER BY started_at DESC) FILTER (WHERE NOT succeeded))[1] AS last_error,
         count(*) FILTER (WHERE NOT succeeded AND (last_success IS NULL OR started_at > last_success)) AS streak,
         min(started_at) FILTER (WHERE NOT succeeded AND (last_success IS NULL OR started_at > last_success))
           AS streak_since,
         count(*) FILTER (WHERE status = 'failed' AND (last_success IS NULL OR started_at > last_success))
           AS streak_failed_messages,
         count(*) FILTER (WHERE status = 'delivered') AS delivered,
         count(*) FILTER (WHERE NOT succeeded) AS failed_attempts,
         count(*) FILTER (WHERE status = 'failed') AS failed
       FROM outcomes GROUP BY subscription_id
     ), health AS (
       INSERT INTO subscription_health AS h (subscription_id, last_attempt_at, last_delivered_at, last_failed_at,
         last_failure_status_code, last_failure_error, consecutive_failures, failing_since, failed_messages_in_streak)
       SELECT subscription_id, last_attempt_at, last_delivered_at, last_failed_at, last_status_code, last_error,
         streak, streak_since, streak_failed_messages
       FROM batch_health ORDER BY subscription_id
       ON CONFLICT (subscription_id) DO UPDATE SET
         last_attempt_at = GREATEST(h.last_attempt_at, excluded.last_attempt_at),
         last_delivered_at = GREATEST(h.last_delivered_at, excluded.last_delivered_at),
         last_failed_at = GREATEST(h.last_failed_at, excluded.last_failed_at),
         last_failure_status_code = CASE WHEN excluded.last_failed_at IS NULL THEN h.last_failure_status_code
                                         ELSE excluded.last_failure_status_code END,
         last_failure_error = CASE WHEN excluded.last_failed_at IS NULL THEN h.last_failure_error
                                   ELSE excluded.last_failure_error END,
         consecutive_failures = CASE WHEN excluded.last_delivered_at IS NOT NULL THEN excluded.consecutive_failures
                                     ELSE h.consecutive_failures + excluded.consecutive_failures END,
         failing_since = CASE WHEN excluded.last_delivered_at IS NOT NULL THEN excluded.failing_since
                              ELSE COALESCE(h.failing_since, excluded.failing_since) END,
         failed_messages_in_streak = CASE WHEN excluded.last_delivered_at IS NOT NULL
                                          THEN excluded.failed_messages_in_streak
                                          ELSE h.failed_messages_in_streak + excluded.failed_messages_in_streak END
     ), hourly AS (
       INSERT INTO subscription_hourly_deliveries AS c (subscription_id, hour, delivered, failed_attempts, failed)
       SELECT subscription_id, date_trunc('hour', now()), delivered, failed_attempts, failed
       FROM batch_health ORDER BY subscription_id
       ON CONFLICT (subscription_id, hour) DO UPDATE SET
         delivered = c.delivered + excluded.delivered,
         failed_attempts = c.failed_attempts + excluded.failed_attempts,
         failed = c.failed + excluded.failed
     )`;
