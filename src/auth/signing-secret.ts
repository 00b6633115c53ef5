import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';

const SECRET_FILE = 'auth-jwt-secret';

export interface ResolvedSecret {
  secret: string;
  /** Where it came from, for the start-up message. */
  source: 'environment' | 'generated' | 'data-dir' | 'memory';
}

/**
 * The HS256 key: AUTH_JWT_SECRET when set; otherwise, in embedded mode only, one generated on first
 * start and kept in DATA_DIR (or for this process only with DATA_DIR=memory). Returns undefined when
 * tokens are verified through JWKS instead.
 */
export function resolveSigningSecret(config: Config): ResolvedSecret | undefined {
  if (config.authJwtSecret) return { secret: config.authJwtSecret, source: 'environment' };
  if (config.authJwksUrl) return undefined;
  if (config.databaseUrl) {
    // Only our own tokens (and API keys) are accepted then.
    if (config.oauthSigningKey) return undefined;
    throw new Error(
      'With DATABASE_URL, set AUTH_JWT_SECRET, AUTH_JWKS_URL or OAUTH_SIGNING_KEY: a shared database needs a shared key',
    );
  }
  if (config.dataDir === 'memory') return { secret: randomBytes(32).toString('base64url'), source: 'memory' };
  const file = join(config.dataDir, SECRET_FILE);
  if (existsSync(file)) return { secret: readFileSync(file, 'utf8').trim(), source: 'data-dir' };
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { secret, source: 'generated' };
}
