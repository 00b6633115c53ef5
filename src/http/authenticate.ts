import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope, type Principal, type Scope } from '../auth/principal.ts';
import { KeySetUnavailableError } from '../auth/remote-key-set.ts';
import { InvalidTokenError, type TokenVerifier } from '../auth/verify-token.ts';
import { andThen, type MaybePromise, recover } from '../maybe-promise.ts';
import { ApiError } from './problem.ts';
import type { RateLimiter } from './rate-limit.ts';
import { documentProblem, scopeSecurity } from './schemas.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a route needs. */
    scope?: Scope;
    /** A valid token is needed but no particular scope (the operation checks what it must). */
    authenticated?: true;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

/**
 * Finds the principal an API key stands for; undefined when it is unknown or revoked. Answers at once
 * when it knows, with a promise when it must ask the database.
 */
export type ApiKeyAuthenticator = (key: string) => MaybePromise<Principal | undefined>;

export interface AuthenticationOptions {
  /** Accepts API keys (as Bearer, or as a Basic user name with an empty password); without it, none. */
  apiKeys?: ApiKeyAuthenticator;
  /** Per-credential and failed-authentication limits; without it, none. */
  limiter?: RateLimiter;
}

/**
 * Authenticates every route that declares a scope (or `authenticated`), before its body is read:
 * 429 while the client address has too many failed attempts, 401 for a missing or bad credential
 * (counted as a failure of the address), 429 past the credential's request limit, 403 for a missing
 * scope. Routes with neither are public (health, metrics, docs, the token endpoint).
 *
 * Each step answers at once when it can (a token verified before, counts kept in this process) and
 * with a promise only when it must wait: a request that waits for nothing creates no promise here
 * (docs/decisions/credentials.md).
 */
export function registerAuthentication(
  app: FastifyInstance,
  verify: TokenVerifier,
  { apiKeys, limiter }: AuthenticationOptions = {},
): void {
  app.decorateRequest('principal', undefined as unknown as Principal);
  const identify = (request: FastifyRequest): MaybePromise<Principal> =>
    recover(
      () => authenticate(request, verify, apiKeys),
      (error) => countFailure(request, error),
    );
  // A 401 for a request that sent a credential counts against its address; the error stands.
  const countFailure = (request: FastifyRequest, error: unknown): MaybePromise<never> => {
    const counting =
      error instanceof ApiError && error.status === 401 && request.headers.authorization
        ? limiter?.countFailure(request)
        : undefined;
    return andThen(counting, () => {
      throw error;
    });
  };
  // Each authenticated route gets its own hook, made once with the route's scope, so that a request
  // neither reads its route's options nor passes a check meant for others.
  app.addHook('onRoute', (route) => {
    const { scope, authenticated } = route.config ?? {};
    if (!scope && !authenticated) return;
    // Every authenticated operation may answer 429: say so in its OpenAPI responses.
    documentProblem(route, 429, 'Too many requests: wait for Retry-After seconds');
    // A route's scope is its OpenAPI security requirement, unless it declares its own.
    if (scope && route.schema && !route.schema.security) route.schema.security = scopeSecurity([scope]);
    const admit = (request: FastifyRequest, reply: FastifyReply, principal: Principal): MaybePromise<void> => {
      request.principal = principal;
      const counting = limiter?.countRequest(request, reply, principal.credential ?? `subject:${principal.subject}`);
      return andThen(counting, () => checkScope(principal, scope));
    };
    const check = (request: FastifyRequest, reply: FastifyReply): MaybePromise<void> =>
      andThen(limiter?.refuseBlockedAddress(request, reply), () =>
        andThen(identify(request), (principal) => admit(request, reply, principal)),
      );
    const hook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      let waiting: MaybePromise<void>;
      try {
        waiting = check(request, reply);
      } catch (error) {
        return done(error as Error);
      }
      if (waiting instanceof Promise) waiting.then(() => done(), done);
      else done();
    };
    route.onRequest = [...[route.onRequest ?? []].flat(), hook];
  });
}

function checkScope(principal: Principal, scope: Scope | undefined): void {
  if (scope && !hasScope(principal, scope)) {
    throw new ApiError('FORBIDDEN', `This operation needs the scope ${scope}`);
  }
}

function authenticate(
  request: FastifyRequest,
  verify: TokenVerifier,
  apiKeys: ApiKeyAuthenticator | undefined,
): MaybePromise<Principal> {
  const header = request.headers.authorization;
  if (!header) throw new ApiError('UNAUTHORIZED', 'Send Authorization: Bearer <token>');
  if (authorizationLines(request.raw.rawHeaders) > 1) {
    throw new ApiError('MALFORMED_REQUEST', 'Send one Authorization header, not several');
  }
  const { scheme, credential } = splitAuthorization(header);
  if (scheme === 'basic' && BASE64.test(credential)) return authenticateApiKey(basicUserName(credential), apiKeys);
  if (scheme !== 'bearer') throw new ApiError('UNAUTHORIZED', 'The Authorization header must be Bearer <token>');
  if (apiKeys && !credential.includes('.')) return authenticateApiKey(credential, apiKeys);
  return recover(() => verify(credential), toUnauthorized);
}

function toUnauthorized(error: unknown): never {
  if (error instanceof InvalidTokenError) throw new ApiError('UNAUTHORIZED', error.message);
  // The identity provider's fault, not the token's: not a failed authentication of the address.
  if (error instanceof KeySetUnavailableError) {
    const unavailable = new ApiError(
      'SERVICE_UNAVAILABLE',
      'The signing keys of the identity provider could not be fetched; retry shortly',
    );
    unavailable.cause = error; // logged with the 503, never sent
    throw unavailable;
  }
  throw error;
}

const BASE64 = /^[A-Za-z0-9+/=]+$/;

/**
 * How many Authorization lines the request has. Node keeps the first and drops the others, so a
 * proxy in front that read the last would authenticate another credential than this service
 * (RFC 9110 allows the field once).
 */
function authorizationLines(rawHeaders: string[]): number {
  let lines = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 13 && name.toLowerCase() === 'authorization') lines++;
  }
  return lines;
}

/**
 * `<scheme> <credential>`, the scheme in lower case (it is case-insensitive) and the credential
 * without the spaces around it; an empty scheme when the header is not of that form. Split by hand:
 * a regular expression over the whole token was 1 % of a get-by-id's instructions.
 */
function splitAuthorization(header: string): { scheme: string; credential: string } {
  const space = header.indexOf(' ');
  const credential = header.slice(space + 1).trim();
  if (space <= 0 || credential === '' || credential.includes(' ') || credential.includes('\t')) {
    return { scheme: '', credential: '' };
  }
  return { scheme: header.slice(0, space).toLowerCase(), credential };
}

/** The reference API's placement of an API key: `Basic base64(<key>:)`, the password empty. */
function basicUserName(encoded: string): string {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || colon < decoded.length - 1) {
    throw new ApiError('UNAUTHORIZED', 'Basic authentication takes the API key as user name and an empty password');
  }
  return decoded.slice(0, colon);
}

function authenticateApiKey(key: string, apiKeys: ApiKeyAuthenticator | undefined): MaybePromise<Principal> {
  return andThen(apiKeys?.(key), admitted);
}

function admitted(principal: Principal | undefined): Principal {
  if (!principal) throw new ApiError('UNAUTHORIZED', 'The API key is not valid or has been revoked');
  return principal;
}

/** 403 unless the token lists the company a request body names (docs/decisions/credentials.md). */
export function assertCompanyAccess(principal: Principal, companyId: string): void {
  if (!principal.companies.has(companyId.toLowerCase())) {
    throw new ApiError('FORBIDDEN', `The token does not grant access to company ${companyId}`);
  }
}
