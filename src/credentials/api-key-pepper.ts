import { hkdfSync, randomBytes } from 'node:crypto';
import { keepInDataDir } from '../auth/data-dir-key.ts';
import type { Config } from '../config.ts';

const PEPPER_FILE = 'api-key-pepper';

/**
 * The HMAC key API keys are stored under. API_KEY_PEPPER when set; else derived (HKDF-SHA256) from
 * AUTH_JWT_SECRET when that is set; else, in embedded mode, generated on first start and kept in
 * DATA_DIR. Undefined with DATABASE_URL and neither setting: API keys are then not accepted.
 * Changing it invalidates every stored API key (client secrets are unaffected).
 */
export function resolveApiKeyPepper(
  config: Pick<Config, 'apiKeyPepper' | 'authJwtSecret' | 'databaseUrl' | 'dataDir'>,
): Buffer | undefined {
  if (config.apiKeyPepper) return Buffer.from(config.apiKeyPepper, 'utf8');
  if (config.authJwtSecret) {
    return Buffer.from(hkdfSync('sha256', config.authJwtSecret, 'ledgerhook', 'api-key-pepper', 32));
  }
  if (config.databaseUrl) return undefined;
  if (config.dataDir === 'memory') return randomBytes(32);
  const kept = keepInDataDir(config.dataDir, PEPPER_FILE, () => randomBytes(32).toString('base64url'));
  return Buffer.from(kept.value, 'base64url');
}
