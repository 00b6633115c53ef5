// Rate limits (issue 5): requests per credential, and failed authentications per client address.
// Counted by @fastify/rate-limit's stores: in this process by default, in Redis when REDIS_URL is
// set so that every process of a deployment shares the counts. Fixed windows.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { ApiError } from './problem.ts';

export interface RateLimitSettings {
  /** Requests per credential per window; 0: no limit. */
  max: number;
  windowMs: number;
  /** Failed authentications per client address per window before every attempt is refused; 0: no limit. */
  authFailureMax: number;
  authFailureWindowMs: number;
  /** Shared counters across processes. */
  redisUrl?: string;
}

export interface RateLimiter {
  /** Counts a request of `credential`; sets the RateLimit headers, and throws 429 past the limit. */
  countRequest(request: FastifyRequest, reply: FastifyReply, credential: string): Promise<void>;
  /**
   * Throws 429 while the client address has used up its failed authentications. Undefined, rather
   * than a promise, when the address is known to be free without asking the store.
   */
  refuseBlockedAddress(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined;
  /** Counts a failed authentication of the client address. */
  countFailure(request: FastifyRequest): Promise<void>;
}

const NO_LIMITS: RateLimiter = {
  countRequest: async () => {},
  refuseBlockedAddress: () => undefined,
  countFailure: async () => {},
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The key the credential limit counts under (set just before counting). */
    rateLimitKey: string;
  }
}

// Keys (credentials and addresses) the in-process store keeps counts for; the addresses known to
// have failed recently are held to the same number.
const STORE_KEYS_MAX = 10_000;

export async function registerRateLimits(app: FastifyInstance, settings?: RateLimitSettings): Promise<RateLimiter> {
  if (!settings || (settings.max === 0 && settings.authFailureMax === 0)) return NO_LIMITS;
  const redis = settings.redisUrl
    ? new Redis(settings.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableAutoPipelining: true })
    : undefined;
  if (redis) {
    // Errors are reported through the commands that fail; without a listener ioredis logs them itself.
    redis.on('error', () => {});
    app.addHook('onClose', async () => void (await redis.quit().catch(() => {})));
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'ledgerhook-rate-limit:' } : {}),
    // A store that does not answer lets requests through rather than refusing everyone.
    skipOnError: true,
    cache: STORE_KEYS_MAX,
  });
  app.decorateRequest('rateLimitKey', '');
  const perCredential = app.createRateLimit({
    max: settings.max,
    timeWindow: settings.windowMs,
    keyGenerator: (request) => `credential:${request.rateLimitKey}`,
  });
  const perAddress = app.createRateLimit({
    max: settings.authFailureMax,
    timeWindow: settings.authFailureWindowMs,
    keyGenerator: (request) => `failed-auth:${request.ip}`,
  });
  const policy = `${settings.max};w=${Math.ceil(settings.windowMs / 1000)}`;
  // With the counts in this process, an address that has not failed within the window cannot be
  // blocked, and its requests need not make an asynchronous call into the plugin to learn it.
  // With Redis, other processes count failures too, so every request asks.
  const failedRecently = redis
    ? undefined
    : new LRUCache<string, true>({ max: STORE_KEYS_MAX, ttl: settings.authFailureWindowMs });

  return {
    async countRequest(request, reply, credential) {
      if (settings.max === 0) return;
      request.rateLimitKey = credential;
      const limit = await perCredential(request);
      if (limit.isAllowed) return;
      reply.headers({
        'ratelimit-policy': policy,
        'ratelimit-limit': limit.max,
        'ratelimit-remaining': limit.remaining,
        'ratelimit-reset': limit.ttlInSeconds,
      });
      if (limit.isExceeded) {
        reply.header('retry-after', limit.ttlInSeconds);
        throw new ApiError(
          'TOO_MANY_REQUESTS',
          `This credential may make ${limit.max} requests per ${policyWindow(settings.windowMs)}; retry in ${limit.ttlInSeconds} s`,
        );
      }
    },
    refuseBlockedAddress(request, reply) {
      if (settings.authFailureMax === 0) return undefined;
      if (failedRecently && !failedRecently.has(request.ip)) return undefined;
      return perAddress(request, { increment: false }).then((status) => {
        if (status.isAllowed || status.remaining > 0) return;
        reply.header('retry-after', status.ttlInSeconds);
        throw new ApiError(
          'TOO_MANY_REQUESTS',
          `Too many failed authentications from this address; retry in ${status.ttlInSeconds} s`,
        );
      });
    },
    async countFailure(request) {
      if (settings.authFailureMax === 0) return;
      failedRecently?.set(request.ip, true);
      await perAddress(request);
    },
  };
}

function policyWindow(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
