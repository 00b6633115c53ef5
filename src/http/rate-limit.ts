// Rate limits: requests per credential, and failed authentications per client address.
// Fixed windows, counted in this process by default, and in Redis when REDIS_URL is set so that
// every process of a deployment shares the counts. In this process the counts are plain synchronous
// lookups (fixed-windows.ts): the credential's count is on every authenticated request, and a
// promise per request costs get-by-id measurably (`git show 6d471bc:docs/performance.md`). When
// Redis is not ready or does not answer in time, a count falls back to this process's windows
// (redis-counts.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MaybePromise } from '../maybe-promise.ts';
import { FixedWindows, type Window } from './fixed-windows.ts';
import { ApiError } from './problem.ts';
import { RedisCounts } from './redis-counts.ts';

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
  /** The Redis the counts are shared through, when REDIS_URL is set (for /metrics). */
  redis?: RedisCounts;
}

const NO_LIMITS: RateLimiter = {
  countRequest: () => undefined,
  refuseBlockedAddress: () => undefined,
  countFailure: () => undefined,
};

// Keys (credentials and addresses) whose counts this process keeps; the least recently counted
// makes room. Redis keeps every key until its window ends.
const LOCAL_KEYS_MAX = 10_000;

/** The fixed windows of one limit. */
interface Windows {
  hit(key: string): MaybePromise<Window>;
  peek(key: string): MaybePromise<Readonly<Window> | undefined>;
}

export async function registerRateLimits(app: FastifyInstance, settings?: RateLimitSettings): Promise<RateLimiter> {
  if (!settings || (settings.max === 0 && settings.authFailureMax === 0)) return NO_LIMITS;
  const requests = new FixedWindows(settings.windowMs, LOCAL_KEYS_MAX);
  const failures = new FixedWindows(settings.authFailureWindowMs, LOCAL_KEYS_MAX);
  if (!settings.redisUrl) return limiter(settings, requests, failures);
  const redis = await RedisCounts.connect(settings.redisUrl, app.log);
  app.addHook('onClose', () => redis.close());
  return {
    ...limiter(
      settings,
      sharedWindows(redis, 'credential', settings.windowMs, requests),
      sharedWindows(redis, 'failed-auth', settings.authFailureWindowMs, failures),
    ),
    redis,
  };
}

// A window known at once is answered at once, without a closure or promise: that is every
// authenticated request's path when the counts are kept in this process.
function limiter(settings: RateLimitSettings, requests: Windows, failures: Windows): RateLimiter {
  const enforce = verdictEnforcer(settings);
  const refuseBlocked = (reply: FastifyReply, window: Readonly<Window> | undefined): undefined => {
    if (window && window.count >= settings.authFailureMax) refuseAddress(reply, secondsUntil(window.endsAt));
    return undefined;
  };
  return {
    countRequest(_request, reply, credential) {
      if (settings.max === 0) return undefined;
      const window = requests.hit(credential);
      return window instanceof Promise ? window.then((known) => enforce(reply, known)) : enforce(reply, window);
    },
    refuseBlockedAddress(request, reply) {
      if (settings.authFailureMax === 0) return undefined;
      const window = failures.peek(request.ip);
      return window instanceof Promise
        ? window.then((known) => refuseBlocked(reply, known))
        : refuseBlocked(reply, window);
    },
    countFailure(request) {
      if (settings.authFailureMax === 0) return undefined;
      const window = failures.hit(request.ip);
      return window instanceof Promise ? window.then(() => undefined) : undefined;
    },
  };
}

/**
 * `limit`'s windows in Redis, shared by every process. While Redis is not ready a count is made in
 * `local` at once; a command that fails or times out is counted there too.
 */
function sharedWindows(redis: RedisCounts, limit: string, windowMs: number, local: FixedWindows): Windows {
  const hitHere = (key: string, error?: unknown) => {
    redis.countedHere(error);
    return local.hit(key);
  };
  const peekHere = (key: string, error?: unknown) => {
    redis.countedHere(error);
    return local.peek(key);
  };
  return {
    hit: (key) => (redis.up ? redis.hit(limit, key, windowMs).catch((error) => hitHere(key, error)) : hitHere(key)),
    peek: (key) => (redis.up ? redis.peek(limit, key).catch((error) => peekHere(key, error)) : peekHere(key)),
  };
}

/** Sets the RateLimit headers of every counted request; past the limit, throws 429 with Retry-After. */
function verdictEnforcer(settings: RateLimitSettings): (reply: FastifyReply, window: Window) => undefined {
  const policy = `${settings.max};w=${Math.ceil(settings.windowMs / 1000)}`;
  return (reply, window) => {
    const remaining = Math.max(0, settings.max - window.count);
    const resetSeconds = secondsUntil(window.endsAt);
    reply.headers({
      'ratelimit-policy': policy,
      'ratelimit-limit': settings.max,
      'ratelimit-remaining': remaining,
      'ratelimit-reset': resetSeconds,
    });
    if (window.count <= settings.max) return undefined;
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

function secondsUntil(endsAt: number): number {
  return Math.ceil((endsAt - Date.now()) / 1000);
}

function policyWindow(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
