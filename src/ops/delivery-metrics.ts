// Webhook delivery in /metrics (docs/decisions/webhook-delivery.md, "Metrics"): what an operator
// alerts on, read from the database at scrape time, so any API process reports the whole fleet's
// queue however many workers there are. One statement per scrape, on indexes and kept counts only:
// the pending messages' partial index, the oldest waiting fan-out, the subscriptions, and a day of
// hourly delivery counts.
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/database.ts';

// Backlog counts stop here, so a scrape costs the same during a huge backlog as before it: a value of
// COUNT_CAP means "at least", which is past any alert threshold.
export const COUNT_CAP = 100_000;

interface DeliveryFigures {
  pending: number;
  due: number;
  oldestDueSeconds: number;
  oldestFanOutSeconds: number;
  active: number;
  inactive: number;
  endpointFailing: number;
  clientRevoked: number;
  delivered: number;
  failedAttempts: number;
  failed: number;
}

async function readDeliveryFigures(db: Database): Promise<DeliveryFigures> {
  const [row] = await db.query<DeliveryFigures>(
    `SELECT
       (SELECT count(*) FROM (SELECT 1 FROM messages WHERE status = 'pending' LIMIT $1) p)::float8 AS pending,
       (SELECT count(*) FROM (SELECT 1 FROM messages WHERE status = 'pending' AND next_attempt_at <= now() LIMIT $1) d)::float8
         AS due,
       -- The first entry of messages_due_idx, read as such: min() was planned as a read of every due
       -- message when the statistics said none was pending (after a recovery, say).
       COALESCE((SELECT extract(epoch FROM now() - next_attempt_at) FROM messages
                 WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT 1), 0)::float8
         AS "oldestDueSeconds",
       COALESCE((SELECT extract(epoch FROM now() - created_at) FROM event_fan_outs ORDER BY id LIMIT 1), 0)::float8
         AS "oldestFanOutSeconds",
       (SELECT count(*) FROM subscriptions WHERE status = 'ACTIVE')::float8 AS active,
       (SELECT count(*) FROM subscriptions WHERE status = 'INACTIVE')::float8 AS inactive,
       (SELECT count(*) FROM subscriptions WHERE status_reason = 'ENDPOINT_FAILING')::float8 AS "endpointFailing",
       (SELECT count(*) FROM subscriptions WHERE status_reason = 'CLIENT_REVOKED')::float8 AS "clientRevoked",
       d.delivered, d."failedAttempts", d.failed
     FROM (SELECT COALESCE(sum(delivered), 0)::float8 AS delivered,
                  COALESCE(sum(failed_attempts), 0)::float8 AS "failedAttempts",
                  COALESCE(sum(failed), 0)::float8 AS failed
           FROM subscription_hourly_deliveries WHERE hour > date_trunc('hour', now()) - interval '24 hours') d`,
    [COUNT_CAP],
  );
  if (!row) throw new Error('the delivery figures query answered no row');
  return row;
}

/**
 * Registers the delivery gauges. A scrape while the database is out of reach keeps the last figures
 * (and logs why) rather than failing the whole /metrics answer.
 */
export function registerDeliveryMetrics(registry: Registry, db: Database, onError: (error: unknown) => void): void {
  let latest: Promise<DeliveryFigures | undefined> | undefined;
  // The gauges are collected one after another in one scrape: read the figures once for all of them.
  const figures = () => {
    latest ??= readDeliveryFigures(db)
      .catch((error: unknown) => {
        onError(error);
        return undefined;
      })
      .finally(() => setImmediate(() => (latest = undefined)));
    return latest;
  };
  const gauge = (name: string, help: string, set: (g: Gauge, f: DeliveryFigures) => void, labelNames: string[] = []) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const f = await figures();
        if (f) set(this, f);
      },
    });
  gauge(
    'ledgerhook_webhook_messages_pending',
    `Messages waiting for an attempt, due or not (counted up to ${COUNT_CAP})`,
    (g, f) => g.set(f.pending),
  );
  gauge(
    'ledgerhook_webhook_messages_due',
    `Pending messages whose attempt is due now: the backlog (counted up to ${COUNT_CAP})`,
    (g, f) => g.set(f.due),
  );
  gauge(
    'ledgerhook_webhook_oldest_due_message_age_seconds',
    'How long the longest-waiting due message has been due; 0 when none is',
    (g, f) => g.set(f.oldestDueSeconds),
  );
  gauge(
    'ledgerhook_webhook_oldest_fan_out_age_seconds',
    "How long the oldest large change's fan-out has waited for the workers to make its messages; 0 when none waits",
    (g, f) => g.set(f.oldestFanOutSeconds),
  );
  gauge(
    'ledgerhook_webhook_subscriptions',
    'Subscriptions by status (INACTIVE: paused, disabled or of a revoked client)',
    (g, f) => {
      g.set({ status: 'ACTIVE' }, f.active);
      g.set({ status: 'INACTIVE' }, f.inactive);
    },
    ['status'],
  );
  gauge(
    'ledgerhook_webhook_subscriptions_disabled',
    'Subscriptions the service made INACTIVE, by reason: ENDPOINT_FAILING (auto-disabled) or CLIENT_REVOKED',
    (g, f) => {
      g.set({ reason: 'ENDPOINT_FAILING' }, f.endpointFailing);
      g.set({ reason: 'CLIENT_REVOKED' }, f.clientRevoked);
    },
    ['reason'],
  );
  gauge(
    'ledgerhook_webhook_last_24h',
    'Messages delivered, attempts failed and messages failed (every attempt spent) in this hour and the 23 before',
    (g, f) => {
      g.set({ outcome: 'delivered' }, f.delivered);
      g.set({ outcome: 'attempt_failed' }, f.failedAttempts);
      g.set({ outcome: 'failed' }, f.failed);
    },
    ['outcome'],
  );
}
