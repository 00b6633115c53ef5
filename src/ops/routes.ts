import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.ts';
import { RETRY_AFTER_SECONDS, sendProblem } from '../http/error-handler.ts';
import { ApiError } from '../http/problem.ts';
import type { RedisCounts } from '../http/redis-counts.ts';
import { registerDeliveryMetrics } from './delivery-metrics.ts';
import { registerRateLimitStoreMetrics } from './rate-limit-store-metrics.ts';

const hidden = { hide: true };

/**
 * Liveness, readiness (the database answers) and Prometheus metrics. Readiness leaves Redis out: while
 * it is gone the API still answers, counting rate limits per process (docs/decisions/credentials.md).
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
  registerDeliveryMetrics(registry, db, (error) =>
    app.log.warn({ err: error }, 'delivery metrics not read; the database does not answer'),
  );
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
    done();
  });

  app.get('/health/live', { schema: hidden }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: hidden }, async (request, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      reply.header('retry-after', RETRY_AFTER_SECONDS);
      return sendProblem(request, reply, new ApiError('SERVICE_UNAVAILABLE', 'The database does not answer'));
    }
  });
  app.get('/metrics', { schema: hidden }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
}
