import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { type Database, writeRefusalOf } from '../db/database.ts';
import { sendProblem, writeRefusedError } from '../http/error-handler.ts';
import { ApiError } from '../http/problem.ts';
import type { RedisCounts } from '../http/redis-counts.ts';
import { registerAttemptMetrics } from './attempt-metrics.ts';
import { registerDeliveryMetrics } from './delivery-metrics.ts';
import { registerRateLimitStoreMetrics } from './rate-limit-store-metrics.ts';

const hidden = { hide: true };

// Whether a write would be refused as read-only: on a standby (in recovery every transaction is
// read-only) or with default_transaction_read_only on. It fails as such a write fails (25006), so
// that the pool closes the session as it closes any whose statement failed, and the next check runs
// on a session opened with the settings of then: a database made writable again is seen at once.
const READ_ONLY_CHECK = `DO $$ BEGIN
  IF current_setting('transaction_read_only') = 'on' THEN
    RAISE EXCEPTION USING ERRCODE = 'read_only_sql_transaction', MESSAGE = 'the database is read-only';
  END IF;
END $$`;

/**
 * Liveness, readiness (the database answers and takes writes) and Prometheus metrics. Readiness
 * leaves Redis out: while it is gone the API still answers, counting rate limits per process
 * (docs/decisions/credentials.md).
 */
export function registerOpsRoutes(app: FastifyInstance, { db }: { db: Database }, redis?: RedisCounts): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (redis) registerRateLimitStoreMetrics(registry, redis);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route, method and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  registerAttemptMetrics(registry);
  registerDeliveryMetrics(registry, db, (error) =>
    app.log.warn({ err: error }, 'delivery metrics not read; the database does not answer'),
  );
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
    done();
  });

  app.get('/health/live', { schema: hidden }, async () => ({ status: 'ok' }));
  // Not ready while the database does not answer, is read-only, or refused a write lately (a full
  // disk shows only when something is written: Database.recentWriteRefusal).
  app.get('/health/ready', { schema: hidden }, async (request, reply) => {
    try {
      await db.query(READ_ONLY_CHECK);
    } catch (error) {
      const refusal = writeRefusalOf(error);
      request.log.warn({ err: error }, refusal ? 'the database takes no writes' : 'database not reachable');
      return sendProblem(
        request,
        reply,
        refusal ? writeRefusedError(refusal) : new ApiError('SERVICE_UNAVAILABLE', 'The database does not answer'),
      );
    }
    const refusal = db.recentWriteRefusal();
    if (refusal === undefined) return { status: 'ok' };
    request.log.warn({ refusal }, 'the database refused a write lately');
    return sendProblem(request, reply, writeRefusedError(refusal));
  });
  app.get('/metrics', { schema: hidden }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
}
