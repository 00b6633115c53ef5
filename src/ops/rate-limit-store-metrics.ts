// The Redis that shares the rate limits, in /metrics (docs/decisions/credentials.md, "Redis out of
// reach"): whether this process counts in it now, and how often it counted alone instead. Only when
// REDIS_URL is set; read from this process at scrape time.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { RedisCounts } from '../http/redis-counts.ts';

export function registerRateLimitStoreMetrics(registry: Registry, redis: RedisCounts): void {
  new Gauge({
    name: 'ledgerhook_rate_limit_store_up',
    help: '1 while rate limits are counted in Redis (REDIS_URL), 0 while this process counts them alone',
    registers: [registry],
    collect() {
      this.set(redis.up ? 1 : 0);
    },
  });
  let reported = 0;
  new Counter({
    name: 'ledgerhook_rate_limit_store_fallbacks_total',
    help: 'Rate-limit counts and lookups made in this process because Redis was not ready or did not answer in time',
    registers: [registry],
    collect() {
      this.inc(redis.fallbacks - reported);
      reported = redis.fallbacks;
    },
  });
}
