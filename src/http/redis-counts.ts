// The Redis that shares rate-limit counts between processes (REDIS_URL). It helps the limits, it is
// not something the API depends on: a request asks it only while the connection is ready, and waits
// at most COMMAND_TIMEOUT_MS for its answer; otherwise the limiter counts in this process
// (docs/decisions/credentials.md, "Redis out of reach"). Outages are logged when they begin and end,
// not per request, and shown on /metrics.
import type { FastifyBaseLogger } from 'fastify';
import { Redis, type Result } from 'ioredis';
import type { Window } from './fixed-windows.ts';

// The longest a request waits for Redis. Redis answers a count in well under a millisecond.
const COMMAND_TIMEOUT_MS = 250;
// A connection with a command out that hears nothing for this long is dropped and opened again:
// until it is ready again, requests count in this process at once instead of each waiting.
const SILENCE_MS = 1000;
// The longest a start waits to learn whether Redis answers.
const START_WAIT_MS = 2000;
// The most often a failing command (with the connection still up) is logged.
const FAILURE_LOG_INTERVAL_MS = 60_000;

const KEY_PREFIX = 'ledgerhook-rate-limit:';

// One hit: the window starts with its key's first hit and ends windowMs later, when the key
// expires. A key found without an expiry (written by something else) gets one: no count lasts for ever.
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {count, ttl}`;

// The window without counting: {0, 0} when the key has none.
const PEEK = `
local count = redis.call('GET', KEYS[1])
if not count then return {0, 0} end
return {tonumber(count), redis.call('PTTL', KEYS[1])}`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    rateLimitHit(key: string, windowMs: number): Result<[number, number], Context>;
    rateLimitPeek(key: string): Result<[number, number], Context>;
  }
}

/** Fixed-window counts in Redis, under `ledgerhook-rate-limit:<limit>:<key>`. */
export class RedisCounts {
  readonly #redis: Redis;
  readonly #log: FastifyBaseLogger;
  /** host:port, for the log (the URL may hold a password). */
  readonly #address: string;
  /** What the log last said; events before the start's line and after close are not news. */
  #state: 'starting' | 'up' | 'down' | 'closed' = 'starting';
  #lastError = 'no answer';
  #lastFailureLog = 0;
  /** Counts and lookups made in this process because Redis was not ready or did not answer. */
  fallbacks = 0;

  private constructor(url: string, log: FastifyBaseLogger) {
    this.#log = log;
    const parsed = new URL(url);
    this.#address = `${parsed.hostname}:${parsed.port || 6379}`;
    this.#redis = new Redis(url, {
      connectTimeout: SILENCE_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      socketTimeout: SILENCE_MS,
      // Commands are never queued for later or sent again: the request has counted here meanwhile.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      enableAutoPipelining: true,
      scripts: {
        rateLimitHit: { numberOfKeys: 1, lua: HIT },
        rateLimitPeek: { numberOfKeys: 1, lua: PEEK },
      },
    });
    // Without a listener ioredis prints every failed attempt itself.
    this.#redis.on('error', (error: Error) => {
      this.#lastError = error.message;
    });
    this.#redis.on('ready', () => {
      // A connection that closes without an error (Redis stopped) is logged as this.
      this.#lastError = 'connection closed';
      this.#changed(true);
    });
    this.#redis.on('close', () => this.#changed(false));
  }

  /** Connects, waiting at most START_WAIT_MS to learn whether Redis answers; either way it keeps trying. */
  static async connect(url: string, log: FastifyBaseLogger): Promise<RedisCounts> {
    const counts = new RedisCounts(url, log);
    const redis = counts.#redis;
    await new Promise<void>((resolve) => {
      const settle = () => {
        clearTimeout(timer);
        redis.off('ready', settle).off('error', settle);
        resolve();
      };
      const timer = setTimeout(settle, START_WAIT_MS);
      redis.once('ready', settle).once('error', settle);
    });
    counts.#say(counts.up);
    return counts;
  }

  /** Whether requests count in Redis now; when false they count in this process at once. */
  get up(): boolean {
    return this.#redis.status === 'ready';
  }

  /** Counts one hit of `key` under `limit`; rejects when Redis does not answer in time. */
  async hit(limit: string, key: string, windowMs: number): Promise<Window> {
    const [count, ttl] = await this.#redis.rateLimitHit(`${KEY_PREFIX}${limit}:${key}`, windowMs);
    return { count, endsAt: Date.now() + ttl };
  }

  /** The window `key` is in under `limit`, without counting. */
  async peek(limit: string, key: string): Promise<Window | undefined> {
    const [count, ttl] = await this.#redis.rateLimitPeek(`${KEY_PREFIX}${limit}:${key}`);
    return count > 0 && ttl > 0 ? { count, endsAt: Date.now() + ttl } : undefined;
  }

  /** Notes a count made in this process; `error` when Redis was asked and failed. */
  countedHere(error?: unknown): void {
    this.fallbacks++;
    if (error === undefined) return;
    const now = Date.now();
    if (now - this.#lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.#lastFailureLog = now;
    this.#log.warn(
      { redis: this.#address, err: (error as Error).message, countedHere: this.fallbacks },
      'a Redis rate-limit count failed: counted in this process instead',
    );
  }

  /** Says goodbye to Redis if it answers within COMMAND_TIMEOUT_MS, then closes the connection for good. */
  async close(): Promise<void> {
    this.#state = 'closed';
    if (this.up) await this.#redis.quit().catch(() => {});
    this.#redis.disconnect();
  }

  #changed(up: boolean): void {
    if (this.#state === (up ? 'down' : 'up')) this.#say(up);
  }

  #say(up: boolean): void {
    this.#state = up ? 'up' : 'down';
    if (up) this.#log.info({ redis: this.#address }, 'rate limits are counted in Redis, shared by every process');
    else
      this.#log.warn(
        { redis: this.#address, err: this.#lastError },
        'Redis is out of reach: rate limits are counted in each process until it answers',
      );
  }
}
