// Delivery latency in /metrics (docs/decisions/webhook-delivery.md, "Metrics"): how long attempts take
// and how long a message waits for its first, by outcome. Unlike the database gauges
// (delivery-metrics.ts), these are observed where the attempts are made: each process reports its
// own workers' attempts, the API's /metrics in a process that runs both (`--role all`), METRICS_PORT's
// in a worker-only one (worker-metrics-server.ts). Prometheus sums the processes.
import { Histogram, type Registry } from 'prom-client';
import type { AttemptOutcome } from '../webhooks/send-notification.ts';

/** delivered: a 2xx; rejected: another status; no_response: a time-out, a refused connection, a refused address. */
export const ATTEMPT_OUTCOMES = ['delivered', 'rejected', 'no_response'] as const;
export type AttemptOutcomeLabel = (typeof ATTEMPT_OUTCOMES)[number];

export function outcomeLabel(outcome: Pick<AttemptOutcome, 'succeeded' | 'statusCode'>): AttemptOutcomeLabel {
  if (outcome.succeeded) return 'delivered';
  return outcome.statusCode === null ? 'no_response' : 'rejected';
}

// One set per process, whatever the number of workers and registries in it: the API's registry and
// METRICS_PORT's both show them.
const attemptDuration = new Histogram({
  name: 'ledgerhook_webhook_attempt_duration_seconds',
  help: 'Notification attempts by outcome (delivered, rejected, no_response): from the request to its answer or failure',
  labelNames: ['outcome'],
  // From a local receiver's milliseconds to WEBHOOK_TIMEOUT_MS (default 15 s).
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
  registers: [],
});

const firstAttemptDelay = new Histogram({
  name: 'ledgerhook_webhook_first_attempt_delay_seconds',
  help: "From a message's creation (its event's transaction) to the start of its first attempt, by that attempt's outcome; a rate limit's waits included",
  labelNames: ['outcome'],
  // Milliseconds when the workers keep up; minutes behind a backlog or a rate limit.
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
  registers: [],
});

// Every outcome's series exists from the start, at zero: a panel or an alert on one that has not
// happened yet reads 0, not "no data".
for (const outcome of ATTEMPT_OUTCOMES) {
  attemptDuration.zero({ outcome });
  firstAttemptDelay.zero({ outcome });
}

/** Counts an attempt; `firstAttemptDelayMs` on a message's first one (delivery-worker.ts). */
export function observeAttempt(outcome: AttemptOutcome, firstAttemptDelayMs: number | undefined): void {
  const labels = { outcome: outcomeLabel(outcome) };
  attemptDuration.observe(labels, outcome.durationMs / 1000);
  if (firstAttemptDelayMs !== undefined) firstAttemptDelay.observe(labels, firstAttemptDelayMs / 1000);
}

export function registerAttemptMetrics(registry: Registry): void {
  registry.registerMetric(attemptDuration);
  registry.registerMetric(firstAttemptDelay);
}
