import type { KeyObject } from 'node:crypto';
import { decodeProtectedHeader, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { andThen, type MaybePromise } from '../maybe-promise.ts';
import { UUID } from '../text-formats.ts';
import type { Principal } from './principal.ts';
import { KeySetUnavailableError, remoteKeySet } from './remote-key-set.ts';

/**
 * The principal a bearer token stands for. A token verified before is answered at once (or refused
 * by throwing); any other with a promise. Failures are InvalidTokenError.
 */
export type TokenVerifier = (token: string) => MaybePromise<Principal>;

export class InvalidTokenError extends Error {}

export interface VerifierOptions {
  /** HS256 shared secret. */
  secret?: string;
  /** JWKS document for RS256/ES256 tokens. */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** The key our own /oauth/token signs with: its tokens are verified with it alone, ES256 only. */
  own?: OwnTokenKey;
}

export interface OwnTokenKey {
  publicKey: KeyObject;
  kid: string;
  /** This deployment's PUBLIC_BASE_URL: a token of another deployment has another `iss`… */
  issuer: string;
  /** …and another `aud` (`ledgerhook-<ENVIRONMENT>`). */
  audience: string;
  /** Whether the client a token was issued to is still active; asked on every request, answered at once when known. */
  isClientActive(clientId: string): MaybePromise<boolean>;
}

// A verified token is remembered for at most this long (and never past its `exp`), so a busy client
// pays for signature verification about once a minute instead of on every request.
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;
const HMAC_SHA256 = { name: 'HMAC', hash: 'SHA-256' };
// How far in the future a token's `iat` may lie: the issuer's clock may run a little ahead of ours,
// but a token issued later than that was made to outlive the issuer's own expiry rules.
const ISSUED_AT_SKEW_S = 60;

/**
 * Builds the bearer token check: signature, algorithm, expiry, issuer, audience, then claims. Each key
 * has its own algorithms: a token naming our own key's `kid` is checked with that key and ES256 only;
 * any other with the HS256 secret or the JWKS keys (RS256/ES256), never with our public key.
 */
export function createTokenVerifier(options: VerifierOptions): TokenVerifier {
  const external = externalKey(options);
  const { own } = options;
  // A verified token is remembered; whether our client is still active is asked every time. The
  // cache is keyed by the signature alone, which is unique per token and a fraction of its length
  // (hashing whole tokens was 2 % of a get-by-id), and a hit must hold the very same token.
  const verified = new LRUCache<string, { token: string; principal: Principal }>({
    max: VERIFIED_MAX,
    ttlAutopurge: false,
  });
  // Only a token from our own /oauth/token has a client that can be revoked.
  const check = (principal: Principal) =>
    own && principal.credential?.startsWith('client:') ? stillActive(own, principal) : principal;
  return (token) => {
    const signature = token.slice(token.lastIndexOf('.') + 1);
    const known = verified.get(signature);
    if (known?.token === token) return check(known.principal);
    return verifyAndRemember(token, signature).then(check);
  };

  async function verifyAndRemember(token: string, signature: string): Promise<Principal> {
    const isOwn = own !== undefined && kidOf(token) === own.kid;
    let payload: JWTPayload;
    try {
      if (isOwn) {
        ({ payload } = await jwtVerify(token, own.publicKey, {
          algorithms: ['ES256'],
          issuer: own.issuer,
          audience: own.audience,
          requiredClaims: ['exp', 'client_id'],
        }));
      } else {
        if (!external) throw new InvalidTokenError('The token is not signed by a key this service knows');
        payload = await verifyWithAnyCandidate(token, external.key, {
          algorithms: external.algorithms,
          issuer: options.issuer,
          audience: options.audience,
          requiredClaims: ['exp'],
        });
      }
    } catch (error) {
      if (error instanceof InvalidTokenError || error instanceof KeySetUnavailableError) throw error;
      throw new InvalidTokenError(describeJoseError(error));
    }
    // jose checks that `iat` is a number, but whether it lies in the future only with maxTokenAge.
    if (payload.iat !== undefined && payload.iat > Date.now() / 1000 + ISSUED_AT_SKEW_S) {
      throw new InvalidTokenError('The token was issued in the future (`iat`)');
    }
    const principal = toPrincipal(payload, isOwn);
    const ttl = Math.min(VERIFIED_TTL_MS, (payload.exp as number) * 1000 - Date.now());
    if (ttl > 0) verified.set(signature, { token, principal }, { ttl });
    return principal;
  }
}

/**
 * The payload of `token` verified with `key`. A token without `kid`, where the key set holds several
 * keys of its type, is tried against each of them (jose leaves that to its caller).
 */
async function verifyWithAnyCandidate(
  token: string,
  key: JWTVerifyGetKey,
  options: JWTVerifyOptions,
): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, key, options)).payload;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_JWKS_MULTIPLE_MATCHING_KEYS') throw error;
    for await (const candidate of error as AsyncIterable<CryptoKey>) {
      try {
        return (await jwtVerify(token, candidate, options)).payload;
      } catch (attempt) {
        if ((attempt as { code?: string }).code !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') throw attempt;
      }
    }
    throw new InvalidTokenError('The token signature is not valid');
  }
}

function stillActive(own: OwnTokenKey, principal: Principal): MaybePromise<Principal> {
  return andThen(own.isClientActive(principal.clientId ?? ''), (active) => admitClient(active, principal));
}

function admitClient(active: boolean, principal: Principal): Principal {
  if (!active) throw new InvalidTokenError('The client this token was issued to has been revoked');
  return principal;
}

function kidOf(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
}

/**
 * The keys of tokens from elsewhere than our /oauth/token, and the algorithms each takes: HS256 with
 * AUTH_JWT_SECRET, RS256/ES256 with the keys of AUTH_JWKS_URL. With both set, both are accepted and
 * the token's algorithm chooses the key (jose refuses any other algorithm before asking), so a
 * published key is never an HMAC secret.
 */
function externalKey(options: VerifierOptions): { key: JWTVerifyGetKey; algorithms: string[] } | undefined {
  const keySet = options.jwksUrl ? remoteKeySet(new URL(options.jwksUrl)) : undefined;
  // Imported once: given raw bytes, jose would import the key again on every verification.
  const secret = options.secret
    ? crypto.subtle.importKey('raw', new TextEncoder().encode(options.secret), HMAC_SHA256, false, ['verify'])
    : undefined;
  if (!keySet && !secret) {
    if (!options.own)
      throw new Error('Token verification needs AUTH_JWT_SECRET, AUTH_JWKS_URL or an OAuth signing key');
    return undefined;
  }
  const algorithms = [...(secret ? ['HS256'] : []), ...(keySet ? ['RS256', 'ES256'] : [])];
  const key: JWTVerifyGetKey = (header, token) =>
    header.alg === 'HS256' ? (secret as Promise<CryptoKey>) : (keySet as JWTVerifyGetKey)(header, token);
  return { key, algorithms };
}

function toPrincipal(payload: JWTPayload, isOwn: boolean): Principal {
  const { sub, scope, companies, client_id: clientId, accounting_system: accountingSystem } = payload;
  if (typeof sub !== 'string' || !UUID.test(sub)) throw new InvalidTokenError('The token has no uuid `sub` claim');
  if (scope !== undefined && typeof scope !== 'string')
    throw new InvalidTokenError('The `scope` claim must be a string');
  if (!Array.isArray(companies) || !companies.every((c) => typeof c === 'string' && UUID.test(c))) {
    throw new InvalidTokenError('The `companies` claim must be an array of company uuids');
  }
  if (clientId !== undefined && typeof clientId !== 'string')
    throw new InvalidTokenError('`client_id` must be a string');
  if (accountingSystem !== undefined && typeof accountingSystem !== 'string') {
    throw new InvalidTokenError('`accounting_system` must be a string');
  }
  return {
    subject: sub.toLowerCase(),
    clientId,
    scopes: new Set((scope ?? '').split(' ').filter(Boolean)),
    companies: new Set(companies.map((c: string) => c.toLowerCase())),
    accountingSystem,
    credential: isOwn ? `client:${clientId}` : `subject:${sub.toLowerCase()}`,
  };
}

function describeJoseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'The token has expired';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'The token signature is not valid';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'The token is signed with an algorithm this service does not accept';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return `The token is not valid here: ${(error as Error).message}`;
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'The token is not signed by a key this service knows';
    default:
      return 'The token is malformed';
  }
}
