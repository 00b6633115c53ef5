// Every setting of the service, its environment variable and its default, in one place (the
// README's settings table lists them). Nothing else reads process.env.
import { isIP } from 'node:net';
import { DECIMAL_INTEGER } from './text-formats.ts';

export type Role = 'api' | 'worker' | 'all';

/**
 * Which peers' `X-Forwarded-For` names the client (Fastify's `trustProxy`): none, any, the nearest
 * `n` hops, or these addresses, CIDRs and proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string;
  /** `postgres://…` selects PostgreSQL; unset selects the embedded PGlite database. */
  databaseUrl: string | undefined;
  /** Embedded database folder; `memory` keeps it in memory. */
  dataDir: string;
  /** The embedded database's page cache (its shared_buffers) in MB, or sized to its data at start. */
  pgliteSharedBuffersMb: number | 'auto';
  /** HS256 key for bearer JWTs. */
  authJwtSecret: string | undefined;
  /** Production verification (RS256/ES256) through a JWKS document. */
  authJwksUrl: string | undefined;
  authIssuer: string | undefined;
  authAudience: string | undefined;
  /** Waits between webhook attempts, in milliseconds. */
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  /**
   * How long past WEBHOOK_TIMEOUT_MS a claimed message stays leased: the time a dead worker's
   * messages wait before another worker sends them again.
   */
  webhookLeaseMarginMs: number;
  webhookAllowPrivateTargets: boolean;
  /** How long delivered and failed messages, their attempts and their events are kept. */
  webhookRetentionMs: number;
  /** How long an endpoint may fail every attempt before its subscription is disabled; 0: never. */
  webhookDisableAfterMs: number;
  /**
   * Subscriptions one tenant (a client for one set of companies) may have; each may hold delivery
   * slots (decisions/tenant-isolation.md).
   */
  webhookMaxSubscriptionsPerTenant: number;
  logLevel: string;
  environment: 'production' | 'staging';
  /** Lifetime of an export job since its last change, in seconds. */
  exportJobTtlSeconds: number;
  /** The deployment's own base address: the OpenAPI server and the `iss` of the tokens it issues. */
  publicBaseUrl: string;
  /** PUBLIC_BASE_URL was set; else publicBaseUrl is this process's own listening address. */
  publicBaseUrlSet: boolean;
  /** ES256 private key (PEM or JWK) that signs /oauth/token tokens; embedded mode generates one. */
  oauthSigningKey: string | undefined;
  /** Lifetime of a token from /oauth/token, in seconds. */
  oauthTokenTtlSeconds: number;
  /** Key of the HMAC that API keys are stored under; derived from AUTH_JWT_SECRET when unset. */
  apiKeyPepper: string | undefined;
  /** `redis://…` shares rate-limit counters between processes; unset keeps them per process. */
  redisUrl: string | undefined;
  /** Requests per credential per window; 0 turns the limit off. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Failed authentications per client address per window before 429; 0 turns the limit off. */
  authFailureLimitMax: number;
  authFailureLimitWindowMs: number;
  /** Proxies whose `X-Forwarded-For` names the client address that failed authentications count under. */
  trustProxy: TrustProxy;
  /** Serve the delivery dashboard at /dashboard (API role). */
  dashboard: boolean;
  /** A worker-only process (`--role worker`) serves GET /metrics on this port (at HOST); unset: none. */
  metricsPort: number | undefined;
  /** OpenTelemetry traces (the `OTEL_*` variables); unset: none, and the hot paths take the API's no-op path. */
  tracing: TracingConfig | undefined;
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

export interface TracingConfig {
  /** Where spans are POSTed: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
  endpoint: string;
  protocol: OtlpProtocol;
  /** Sent with every export (authentication to a collector). */
  headers: Record<string, string>;
  sampler: TraceSamplerName;
  /** The ratio of the traceidratio samplers, 0 to 1. */
  samplerRatio: number;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  /** The batch span processor (OTEL_BSP_*): how long finished spans wait, how many a batch sends, how many wait at most. */
  batches: SpanBatchConfig;
}

export interface SpanBatchConfig {
  /** How long finished spans wait before a batch is sent (OTEL_BSP_SCHEDULE_DELAY). */
  scheduleDelayMs: number;
  /** The most spans one export sends; a full batch is sent at once (OTEL_BSP_MAX_EXPORT_BATCH_SIZE). */
  maxExportBatchSize: number;
  /** The most finished spans kept waiting; more are dropped (OTEL_BSP_MAX_QUEUE_SIZE). */
  maxQueueSize: number;
  /** How long one export may take (OTEL_BSP_EXPORT_TIMEOUT). */
  exportTimeoutMs: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, { min: 0, max: 65535 });
  const host = hostOf(env, 'HOST', '127.0.0.1');
  return {
    port,
    host,
    databaseUrl: urlOf(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: env.DATA_DIR || './data',
    pgliteSharedBuffersMb: integerOrAuto(env, 'PGLITE_SHARED_BUFFERS_MB', { min: 16, max: 1024 }),
    authJwtSecret: env.AUTH_JWT_SECRET || undefined,
    authJwksUrl: urlOf(env, 'AUTH_JWKS_URL', ['http:', 'https:']),
    authIssuer: env.AUTH_ISSUER || undefined,
    authAudience: env.AUTH_AUDIENCE || undefined,
    webhookRetrySchedule: durations(env, 'WEBHOOK_RETRY_SCHEDULE', '5s,5m,30m,2h,5h,10h,10h'),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, { min: 1 }),
    webhookLeaseMarginMs: integer(env, 'WEBHOOK_LEASE_MARGIN_MS', 30_000, { min: 1000 }),
    webhookAllowPrivateTargets: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    webhookRetentionMs: duration(env, 'WEBHOOK_RETENTION', '30d', TEN_YEARS_MS),
    webhookDisableAfterMs:
      env.WEBHOOK_DISABLE_AFTER === '0' ? 0 : duration(env, 'WEBHOOK_DISABLE_AFTER', '5d', TEN_YEARS_MS),
    webhookMaxSubscriptionsPerTenant: integer(env, 'WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT', 250, { min: 1 }),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    environment: oneOf(env, 'ENVIRONMENT', ['production', 'staging'], 'production'),
    exportJobTtlSeconds: integer(env, 'EXPORT_JOB_TTL', 3600, { min: 1 }),
    publicBaseUrl: baseUrl(env, 'PUBLIC_BASE_URL', `http://${host.includes(':') ? `[${host}]` : host}:${port}`),
    publicBaseUrlSet: Boolean(env.PUBLIC_BASE_URL),
    oauthSigningKey: env.OAUTH_SIGNING_KEY || undefined,
    oauthTokenTtlSeconds: integer(env, 'OAUTH_TOKEN_TTL', 3600, { min: 1, max: 86_400 }),
    apiKeyPepper: env.API_KEY_PEPPER || undefined,
    redisUrl: urlOf(env, 'REDIS_URL', ['redis:', 'rediss:']),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 1000, { min: 0 }),
    rateLimitWindowMs: duration(env, 'RATE_LIMIT_WINDOW', '1m'),
    authFailureLimitMax: integer(env, 'AUTH_FAILURE_LIMIT_MAX', 20, { min: 0 }),
    authFailureLimitWindowMs: duration(env, 'AUTH_FAILURE_LIMIT_WINDOW', '5m'),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    dashboard: boolean(env, 'DASHBOARD', true),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, { min: 0, max: 65535 }) : undefined,
    tracing: tracing(env),
  };
}

/**
 * The OpenTelemetry settings, by the specification's rules (docs/decisions/traces.md). Every one is
 * checked whether or not an endpoint is set: a wrong one is a mistake either way.
 */
function tracing(env: Env): TracingConfig | undefined {
  const disabled = oneOf(env, 'OTEL_SDK_DISABLED', ['true', 'false'], 'false', (raw) => raw.toLowerCase());
  const traces = urlOf(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:']);
  const base = urlOf(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  const protocol =
    otlpProtocol(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? otlpProtocol(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  // The traces' own headers win over the generic ones, key by key.
  const headers = {
    ...keyValueList(env, 'OTEL_EXPORTER_OTLP_HEADERS', false),
    ...keyValueList(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', false),
  };
  const exporter = tracesExporter(env);
  const sampler = oneOf(env, 'OTEL_TRACES_SAMPLER', TRACE_SAMPLERS, 'parentbased_always_on');
  const samplerRatio = ratio(env, 'OTEL_TRACES_SAMPLER_ARG', sampler.endsWith('traceidratio'));
  const serviceName = env.OTEL_SERVICE_NAME || undefined;
  const resourceAttributes = keyValueList(env, 'OTEL_RESOURCE_ATTRIBUTES', true);
  const batches = spanBatches(env);
  const endpoint = traces ?? (base && `${base}${base.endsWith('/') ? '' : '/'}v1/traces`);
  if (disabled === 'true' || exporter === 'none' || endpoint === undefined) return undefined;
  return {
    endpoint,
    protocol: protocol ?? 'http/protobuf',
    headers,
    sampler,
    samplerRatio,
    serviceName: serviceName ?? resourceAttributes['service.name'] ?? 'ledgerhook',
    resourceAttributes,
    batches,
  };
}

/** The OTEL_BSP_* variables, with the specification's defaults; a batch larger than the queue is refused. */
function spanBatches(env: Env): SpanBatchConfig {
  const maxQueueSize = integer(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, { min: 1 });
  const maxExportBatchSize = integer(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', Math.min(512, maxQueueSize), { min: 1 });
  if (maxExportBatchSize > maxQueueSize) {
    throw new ConfigError(
      `OTEL_BSP_MAX_EXPORT_BATCH_SIZE=${maxExportBatchSize} is more than OTEL_BSP_MAX_QUEUE_SIZE=${maxQueueSize}`,
    );
  }
  return {
    scheduleDelayMs: integer(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, { min: 1 }),
    maxExportBatchSize,
    maxQueueSize,
    exportTimeoutMs: integer(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30000, { min: 1 }),
  };
}

/** OTEL_TRACES_EXPORTER: `otlp` (the default) or `none`; the SDK's other exporters do not ship. */
function tracesExporter(env: Env): 'otlp' | 'none' {
  const raw = (env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'otlp') return 'otlp';
  if (raw === 'none') return 'none';
  throw new ConfigError(`OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER} is not supported: use otlp or none`);
}

function otlpProtocol(env: Env, name: string): OtlpProtocol | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'grpc') {
    throw new ConfigError(`${name}=grpc is not supported (no gRPC exporter ships): use http/protobuf or http/json`);
  }
  return oneOf<OtlpProtocol>(env, name, ['http/protobuf', 'http/json'], 'http/protobuf');
}

/** The ratio of a traceidratio sampler, 0 to 1 (default 1); ignored by the other samplers. */
function ratio(env: Env, name: string, used: boolean): number {
  const raw = env[name];
  if (!used || raw === undefined || raw === '') return 1;
  const value = /^\d+(\.\d+)?$|^\.\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 1)) throw new ConfigError(`${name}=${raw} is not a ratio from 0 to 1`);
  return value;
}

/**
 * `key1=value1,key2=value2` (the W3C Baggage form the OTEL_* lists take), values percent-decoded.
 * Header values may be secrets: an entry is named by its place, never echoed, unless `echo`.
 */
function keyValueList(env: Env, name: string, echo: boolean): Record<string, string> {
  const raw = env[name];
  const list: Record<string, string> = {};
  if (raw === undefined || raw.trim() === '') return list;
  raw.split(',').forEach((entry, index) => {
    const at = entry.indexOf('=');
    const key = entry.slice(0, Math.max(at, 0)).trim();
    const wrong = `${name}: entry ${index + 1}${echo ? ` (${entry.trim()})` : ''}`;
    if (at < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) throw new ConfigError(`${wrong} is not key=value`);
    try {
      list[key] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${wrong} has a value that is not percent-encoded correctly`);
    }
  });
  return list;
}

// pino's levels, and `silent`.
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses `5s,5m,30m,2h,1d` into milliseconds. */
export function parseDurationList(text: string): number[] {
  return text.split(',').map((part) => parseDuration(part.trim()));
}

export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new ConfigError(`"${text}" is not a duration like 50ms, 5s, 5m, 2h or 30d`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
}

function durations(env: Env, name: string, fallback: string): number[] {
  const raw = env[name] || fallback;
  try {
    return parseDurationList(raw);
  } catch (error) {
    throw new ConfigError(`${name}=${raw}: ${(error as Error).message}`);
  }
}

// Past this, a period subtracted from now() leaves the range of a PostgreSQL timestamp.
const TEN_YEARS_MS = 3650 * 86_400_000;

function duration(env: Env, name: string, fallback: string, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name] || fallback;
  try {
    const ms = parseDuration(raw);
    if (ms < 1) throw new ConfigError('must be at least 1ms');
    if (ms > max) throw new ConfigError(`must be at most ${max / 86_400_000}d`);
    return ms;
  } catch (error) {
    throw new ConfigError(`${name}=${raw}: ${(error as Error).message}`);
  }
}

// An environment file read by systemd (EnvironmentFile) keeps a comment after a value as part of it;
// the URL parser would take `https://login.example/jwks.json  # …` for a path with spaces.
const TRAILING_COMMENT = 'holds a space (an environment file keeps a comment after the value as part of it)';

/** An absolute http(s) address without a trailing slash. */
function baseUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (/\s/.test(raw)) throw new ConfigError(`${name} ${TRAILING_COMMENT}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name}=${raw} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name}=${raw} must be http(s)`);
  return url.toString().replace(/\/+$/, '');
}

/** An absolute URL with one of `protocols`, as given; unset when empty. */
function urlOf(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (/\s/.test(raw)) throw new ConfigError(`${name} ${TRAILING_COMMENT}`);
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError(`${name} is not an absolute URL`);
  }
  // The value itself is not echoed: it may hold a password.
  if (!protocols.includes(protocol)) throw new ConfigError(`${name} must be a ${protocols.join(' or ')}// URL`);
  return raw;
}

// A DNS name: dot-separated labels of letters, digits and inner hyphens.
const HOST_NAME =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** An address to listen on: an IPv4 or IPv6 address, or a host name. */
function hostOf(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (isIP(raw) !== 0 || HOST_NAME.test(raw)) return raw;
  throw new ConfigError(`${name}=${raw} is not an IP address or a host name`);
}

/** A whole number in `range`, or `auto` (the default) for a value the service chooses. */
function integerOrAuto(env: Env, name: string, range: { min: number; max: number }): number | 'auto' {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'auto') return 'auto';
  const value = wholeNumber(raw);
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ConfigError(`${name}=${raw} is not auto or a whole number from ${range.min} to ${range.max}`);
  }
  return value;
}

/** `raw` as a number when it is decimal digits, else NaN. */
function wholeNumber(raw: string): number {
  return DECIMAL_INTEGER.test(raw) ? Number(raw) : Number.NaN;
}

function integer(env: Env, name: string, fallback: number, range: { min?: number; max?: number }): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = wholeNumber(raw);
  const { min = -Infinity, max = Infinity } = range;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${raw} is not a whole number from ${min} to ${max}`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new ConfigError(`${name}=${raw} must be true or false`);
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(env: Env, name: string): TrustProxy {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (DECIMAL_INTEGER.test(raw) && Number(raw) >= 1) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => PROXY_RANGE_NAMES.includes(entry) || isAddressOrCidr(entry))) return entries;
  throw new ConfigError(
    `${name}=${raw} must be true, false, a number of proxies from 1, or a comma-separated list of addresses, CIDRs, ${PROXY_RANGE_NAMES.join(', ')}`,
  );
}

/** `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`: an address, with a prefix length its family allows. */
function isAddressOrCidr(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function oneOf<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
  normalize = (raw: string) => raw,
): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(normalize(raw))) return normalize(raw) as T;
  throw new ConfigError(`${name}=${raw} must be one of ${allowed.join(', ')}`);
}
