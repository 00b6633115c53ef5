import { randomBytes } from 'node:crypto';
import { type Config, ConfigError } from '../config.ts';
import { keepInDataDir } from './data-dir-key.ts';

const SECRET_FILE = 'auth-jwt-secret';

export interface ResolvedSecret {
  secret: string;
  /** Where it came from, for the start-up message. */
  source: 'environment' | 'generated' | 'data-dir' | 'memory';
}

/**
 * The HS256 key: AUTH_JWT_SECRET when set; otherwise, in embedded mode only, one generated on first
 * start and kept in DATA_DIR (or for this process only with DATA_DIR=memory). Undefined when tokens
 * are verified otherwise: through JWKS, or with DATABASE_URL and OAUTH_SIGNING_KEY, our own only.
 */
export function resolveSigningSecret(config: Config): ResolvedSecret | undefined {
  if (config.authJwtSecret) return { secret: config.authJwtSecret, source: 'environment' };
  if (config.authJwksUrl) return undefined;
  if (config.databaseUrl) {
    requireSharedKey(config);
    // Only our own tokens (and API keys) are accepted then.
    return undefined;
  }
  if (config.dataDir === 'memory') return { secret: randomBytes(32).toString('base64url'), source: 'memory' };
  const kept = keepInDataDir(config.dataDir, SECRET_FILE, () => randomBytes(32).toString('base64url'));
  return { secret: kept.value, source: kept.generated ? 'generated' : 'data-dir' };
}

/**
 * With DATABASE_URL, tokens must be verified with a key every process sharing the database has: a
 * configured one, since a key made up per process would refuse the other processes' tokens.
 */
export function requireSharedKey(
  config: Pick<Config, 'databaseUrl' | 'authJwtSecret' | 'authJwksUrl' | 'oauthSigningKey'>,
): void {
  if (!config.databaseUrl || config.authJwtSecret || config.authJwksUrl || config.oauthSigningKey) return;
  throw new ConfigError(
    'with DATABASE_URL, set AUTH_JWT_SECRET, AUTH_JWKS_URL or OAUTH_SIGNING_KEY: processes sharing a database need a shared key',
  );
}
