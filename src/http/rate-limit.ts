// Rate limits: requests per credential, and failed authentications per client address.
// Fixed windows, counted in this process by default, and in Redis when REDIS_URL is set so that
// every process of a deployment shares the counts. Redis is reached through @fastify/rate-limit's
// store. In this process the counts are plain synchronous lookups (fixed-windows.ts): the
// credential's count is on every authenticated request, and the plugin's asynchronous path (and
// its registration) cost get-by-id about 1.5 % of its instructions more (docs/performance.md).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { MaybePromise } from '../maybe-promise.ts';
import { FixedWindows } from './fixed-windows.ts';
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

/** Each method answers at once (undefined), rather than with a promise, when it decided without asking Redis. */
export interface RateLimiter {
  /** Counts a request of `credential`; sets the RateLimit headers, and throws 429 past the limit. */
  countRequest(request: FastifyRequest, reply: FastifyReply, credential: string): MaybePromise<void>;
  /** Throws 429 while the client address has used up its failed authentications. */
  refuseBlockedAddress(request: FastifyRequest, reply: FastifyReply): MaybePromise<void>;
  /** Counts a failed authentication of the client address. */
  countFailure(request: FastifyRequest): MaybePromise<void>;
}

const NO_LIMITS: RateLimiter = {
  countRequest: () => undefined,
  refuseBlockedAddress: () => undefined,
  countFailure: () => undefined,
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The key the credential limit counts under in Redis (set just before counting). */
    rateLimitKey: string;
  }
}

// Keys (credentials and addresses) whose counts this process keeps; the least recently counted
// makes room. Redis keeps every key until its window ends.
const LOCAL_KEYS_MAX = 10_000;

/** Where a request stands in its credential's window. */
interface Verdict {
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
}

export async function registerRateLimits(app: FastifyInstance, settings?: RateLimitSettings): Promise<RateLimiter> {
  if (!settings || (settings.max === 0 && settings.authFailureMax === 0)) return NO_LIMITS;
  return settings.redisUrl ? registerRedisLimits(app, settings, settings.redisUrl) : localLimits(settings);
}

function localLimits(settings: RateLimitSettings): RateLimiter {
  const requests = new FixedWindows(settings.windowMs, LOCAL_KEYS_MAX);
  const failures = new FixedWindows(settings.authFailureWindowMs, LOCAL_KEYS_MAX);
  const enforce = verdictEnforcer(settings);
  return {
    countRequest(_request, reply, credential) {
      if (settings.max === 0) return undefined;
      const now = Date.now();
      const window = requests.hit(credential, now);
      return enforce(reply, {
        remaining: Math.max(0, settings.max - window.count),
        resetSeconds: secondsUntil(window.endsAt, now),
        exceeded: window.count > settings.max,
      });
    },
    refuseBlockedAddress(request, reply) {
      if (settings.authFailureMax === 0) return undefined;
      const now = Date.now();
      const window = failures.peek(request.ip, now);
      if (window && window.count >= settings.authFailureMax) refuseAddress(reply, secondsUntil(window.endsAt, now));
      return undefined;
    },
    countFailure(request) {
      if (settings.authFailureMax !== 0) failures.hit(request.ip);
      return undefined;
    },
  };
}

async function registerRedisLimits(
  app: FastifyInstance,
  settings: RateLimitSettings,
  url: string,
): Promise<RateLimiter> {
  const redis = new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableAutoPipelining: true });
  // Errors are reported through the commands that fail; without a listener ioredis logs them itself.
  redis.on('error', () => {});
  app.addHook('onClose', async () => void (await redis.quit().catch(() => {})));
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: 'ledgerhook-rate-limit:',
    // A store that does not answer lets requests through rather than refusing everyone.
    skipOnError: true,
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
  const enforce = verdictEnforcer(settings);
  return {
    countRequest(request, reply, credential) {
      if (settings.max === 0) return undefined;
      request.rateLimitKey = credential;
      return perCredential(request).then((limit) => {
        if (limit.isAllowed) return;
        enforce(reply, { remaining: limit.remaining, resetSeconds: limit.ttlInSeconds, exceeded: limit.isExceeded });
      });
    },
    // Other processes count failures too, so every request asks.
    refuseBlockedAddress(request, reply) {
      if (settings.authFailureMax === 0) return undefined;
      return perAddress(request, { increment: false }).then((status) => {
        if (!status.isAllowed && status.remaining === 0) refuseAddress(reply, status.ttlInSeconds);
      });
    },
    countFailure(request) {
      if (settings.authFailureMax === 0) return undefined;
      return perAddress(request).then(() => {});
    },
  };
}

/** Sets the RateLimit headers of every counted request; past the limit, throws 429 with Retry-After. */
function verdictEnforcer(settings: RateLimitSettings): (reply: FastifyReply, verdict: Verdict) => undefined {
  const policy = `${settings.max};w=${Math.ceil(settings.windowMs / 1000)}`;
  return (reply, { remaining, resetSeconds, exceeded }) => {
    reply.headers({
      'ratelimit-policy': policy,
      'ratelimit-limit': settings.max,
      'ratelimit-remaining': remaining,
      'ratelimit-reset': resetSeconds,
    });
    if (!exceeded) return undefined;
    reply.header('retry-after', resetSeconds);
    throw new ApiError(
      'TOO_MANY_REQUESTS',
      `This credential may make ${settings.max} requests per ${policyWindow(settings.windowMs)}; retry in ${resetSeconds} s`,
    );
  };
}

function refuseAddress(reply: FastifyReply, retryAfterSeconds: number): never {
  reply.header('retry-after', retryAfterSeconds);
  throw new ApiError(
    'TOO_MANY_REQUESTS',
    `Too many failed authentications from this address; retry in ${retryAfterSeconds} s`,
  );
}

function secondsUntil(endsAt: number, now: number): number {
  return Math.ceil((endsAt - now) / 1000);
}

function policyWindow(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
