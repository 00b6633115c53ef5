// Every setting of the service, its environment variable and its default, in one place
// (decisions §1). Nothing else reads process.env.

export type Role = 'api' | 'worker' | 'all';

export interface Config {
  port: number;
  host: string;
  /** `postgres://…` selects PostgreSQL; unset selects the embedded PGlite database. */
  databaseUrl: string | undefined;
  /** Embedded database folder; `memory` keeps it in memory. */
  dataDir: string;
  /** HS256 key for bearer JWTs. */
  authJwtSecret: string | undefined;
  /** Production verification (RS256/ES256) through a JWKS document. */
  authJwksUrl: string | undefined;
  authIssuer: string | undefined;
  authAudience: string | undefined;
  /** Waits between webhook attempts, in milliseconds. */
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  webhookAllowPrivateTargets: boolean;
  logLevel: string;
  environment: 'production' | 'staging';
  /** Lifetime of an export job since its last change, in seconds. */
  exportJobTtlSeconds: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  return {
    port: integer(env, 'PORT', 8080, { min: 0, max: 65535 }),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || './data',
    authJwtSecret: env.AUTH_JWT_SECRET || undefined,
    authJwksUrl: env.AUTH_JWKS_URL || undefined,
    authIssuer: env.AUTH_ISSUER || undefined,
    authAudience: env.AUTH_AUDIENCE || undefined,
    webhookRetrySchedule: durations(env, 'WEBHOOK_RETRY_SCHEDULE', '5s,5m,30m,2h,5h,10h,10h'),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, { min: 1 }),
    webhookAllowPrivateTargets: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    logLevel: env.LOG_LEVEL || 'info',
    environment: oneOf(env, 'ENVIRONMENT', ['production', 'staging'], 'production'),
    exportJobTtlSeconds: integer(env, 'EXPORT_JOB_TTL', 3600, { min: 1 }),
  };
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses `5s,5m,30m,2h` into milliseconds. */
export function parseDurationList(text: string): number[] {
  return text.split(',').map((part) => parseDuration(part.trim()));
}

export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!match) throw new ConfigError(`"${text}" is not a duration like 50ms, 5s, 5m or 2h`);
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

function integer(env: Env, name: string, fallback: number, range: { min?: number; max?: number }): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
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

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(`${name}=${raw} must be one of ${allowed.join(', ')}`);
}
