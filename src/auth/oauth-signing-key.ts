// The ES256 key that signs the tokens of POST /oauth/token; its public half is published at
// /.well-known/jwks.json so that other services can verify them.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { type Config, ConfigError } from '../config.ts';
import { keepInDataDir } from './data-dir-key.ts';

const KEY_FILE = 'oauth-signing-key.pem';

export interface PublicJwk extends JWK {
  kty: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

export interface OAuthSigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as published: kid (its RFC 7638 thumbprint), alg ES256, use sig. */
  publicJwk: PublicJwk;
  source: 'environment' | 'generated' | 'data-dir' | 'memory';
}

/**
 * OAUTH_SIGNING_KEY (a PKCS#8/SEC1 PEM or a private JWK of curve P-256) when set; else, in embedded
 * mode, a key generated on first start and kept in DATA_DIR (or for this process only with
 * DATA_DIR=memory). With DATABASE_URL and no key, undefined: processes that share a database must
 * share the key, so none is made up, and the token endpoint is not offered.
 */
export async function resolveOAuthSigningKey(
  config: Pick<Config, 'oauthSigningKey' | 'databaseUrl' | 'dataDir'>,
): Promise<OAuthSigningKey | undefined> {
  if (config.oauthSigningKey) return toSigningKey(parseOAuthSigningKey(config.oauthSigningKey), 'environment');
  if (config.databaseUrl) return undefined;
  if (config.dataDir === 'memory') return toSigningKey(generateP256(), 'memory');
  const kept = keepInDataDir(config.dataDir, KEY_FILE, () =>
    (generateP256().export({ format: 'pem', type: 'pkcs8' }) as string).trim(),
  );
  return toSigningKey(parseOAuthSigningKey(kept.value), kept.generated ? 'generated' : 'data-dir');
}

/**
 * A new key for OAUTH_SIGNING_KEY, as `ledgerhook oauth-signing-key` prints it: a private JWK, whose
 * JSON is one line, so it fits an environment file as it is.
 */
export function newOAuthSigningKeyJwk(): string {
  return JSON.stringify(generateP256().export({ format: 'jwk' }));
}

function generateP256(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

/** OAUTH_SIGNING_KEY's value as a key, or a ConfigError saying what is wrong with it (never the value). */
export function parseOAuthSigningKey(text: string): KeyObject {
  let key: KeyObject;
  try {
    const trimmed = text.trim();
    key = trimmed.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(trimmed), format: 'jwk' })
      : createPrivateKey(trimmed.replace(/\\n/g, '\n'));
  } catch {
    throw new ConfigError('OAUTH_SIGNING_KEY is not a private key in PEM or JWK form');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ConfigError('OAUTH_SIGNING_KEY must be an EC key on curve P-256 (ES256)');
  }
  return key;
}

async function toSigningKey(privateKey: KeyObject, source: OAuthSigningKey['source']): Promise<OAuthSigningKey> {
  const publicKey = createPublicKey(privateKey);
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const jwk = { kty: kty ?? 'EC', crv, x, y };
  const kid = await calculateJwkThumbprint(jwk);
  return { privateKey, publicKey, publicJwk: { ...jwk, kid, alg: 'ES256', use: 'sig' }, source };
}
