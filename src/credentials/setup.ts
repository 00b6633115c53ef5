// The pieces our own credentials need at run time, built once per process by serve.ts.
import { type OAuthSigningKey, parseOAuthSigningKey } from '../auth/oauth-signing-key.ts';
import { requireSharedKey } from '../auth/signing-secret.ts';
import type { OwnTokenKey } from '../auth/verify-token.ts';
import type { Config } from '../config.ts';
import type { CredentialStatus } from './credential-status.ts';
import { ownAudience, type TokenIssuer } from './operations.ts';

/**
 * The credential settings the API reads once the database is open, checked before it is opened: a
 * wrong one ends the start at once with its one line (exit 2), whatever the database's state.
 */
export function checkCredentialSettings(
  config: Pick<Config, 'databaseUrl' | 'authJwtSecret' | 'authJwksUrl' | 'oauthSigningKey'>,
): void {
  requireSharedKey(config);
  if (config.oauthSigningKey) parseOAuthSigningKey(config.oauthSigningKey);
}

/**
 * Why tokens from this process may be refused by the others, or undefined. Each process verifies
 * tokens against its own PUBLIC_BASE_URL; unset, that is the process's own address, which differs
 * from process to process behind a load balancer. Only PostgreSQL is shared by several processes.
 */
export function unsharedIssuerWarning(
  issuer: TokenIssuer | undefined,
  config: Pick<Config, 'databaseUrl' | 'publicBaseUrlSet'>,
): string | undefined {
  if (!issuer || !config.databaseUrl || config.publicBaseUrlSet) return undefined;
  return `PUBLIC_BASE_URL is not set: tokens from this process's /oauth/token carry its own address (${issuer.issuer}) as issuer, and other processes on this database refuse them (401); set PUBLIC_BASE_URL to the address clients use, the same in every process`;
}

/** What /oauth/token signs with and which `iss`/`aud` it writes: this deployment's. */
export function tokenIssuer(
  key: OAuthSigningKey,
  config: Pick<Config, 'publicBaseUrl' | 'environment' | 'oauthTokenTtlSeconds'>,
): TokenIssuer {
  return {
    key,
    issuer: config.publicBaseUrl,
    audience: ownAudience(config.environment),
    ttlSeconds: config.oauthTokenTtlSeconds,
  };
}

/** How the token verifier recognises and checks the tokens `issuer` signs. */
export function ownTokenKey(issuer: TokenIssuer, status: CredentialStatus): OwnTokenKey {
  return {
    publicKey: issuer.key.publicKey,
    kid: issuer.key.publicJwk.kid,
    issuer: issuer.issuer,
    audience: issuer.audience,
    isClientActive: (clientId) => status.isClientActive(clientId),
  };
}
