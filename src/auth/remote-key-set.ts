// The identity provider's key set (AUTH_JWKS_URL), fetched and kept by jose (10 minutes, or until a
// token names a key it lacks). Two things jose leaves to us:
// - A failed fetch is the provider's fault, not the token's: it is KeySetUnavailableError, which
//   the API answers 503, neither 401 nor a failed authentication of the client's address.
// - A failed refresh throws away nothing: the last key set fetched serves on, for up to a day, so a
//   provider's outage at the moment of a refresh goes unnoticed. Without a key set to serve (none
//   yet, or a day old), a failed fetch is not tried again for a few seconds, so an outage does not
//   bring one fetch per request.
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';

export class KeySetUnavailableError extends Error {}

const STALE_KEY_SET_MAX_MS = 24 * 60 * 60 * 1000;
const RETRY_FETCH_AFTER_MS = 5000;

// The token's own fault, found while choosing its key: an algorithm no key set serves, a `kid` (or
// key type) that matches no key, or several (jwtVerify's caller tries each of those).
const KEY_CHOICE_ERRORS = new Set([
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);

export function remoteKeySet(url: URL, now: () => number = () => Date.now()): JWTVerifyGetKey {
  let lastGood: { body: string; fetchedAt: number } | undefined;
  let failedAt = Number.NEGATIVE_INFINITY;
  const keptBody = () =>
    lastGood !== undefined && now() - lastGood.fetchedAt < STALE_KEY_SET_MAX_MS ? lastGood.body : undefined;

  const fetchKeepingLast = async (target: string, init: RequestInit): Promise<Response> => {
    if (keptBody() === undefined && now() - failedAt < RETRY_FETCH_AFTER_MS) {
      throw new KeySetUnavailableError('The key set could not be fetched a moment ago');
    }
    try {
      const response = await fetch(target, init);
      const body = await response.text();
      if (response.status !== 200 || !isKeySet(body)) {
        throw new KeySetUnavailableError(`The key set answered ${response.status}, not a key set`);
      }
      lastGood = { body, fetchedAt: now() };
      return keySetResponse(body);
    } catch (error) {
      failedAt = now();
      const kept = keptBody();
      if (kept !== undefined) return keySetResponse(kept);
      throw error;
    }
  };

  const keys = createRemoteJWKSet(url, { [customFetch]: fetchKeepingLast });
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (error) {
      if (KEY_CHOICE_ERRORS.has((error as { code?: string }).code ?? '')) throw error;
      throw new KeySetUnavailableError(`The key set at ${url} could not be fetched`, { cause: error });
    }
  };
}

function isKeySet(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray((parsed as { keys?: unknown } | null)?.keys);
  } catch {
    return false;
  }
}

function keySetResponse(body: string): Response {
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}
