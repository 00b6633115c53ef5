import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasScope, type Principal, type Scope } from '../auth/principal.ts';
import { InvalidTokenError, type TokenVerifier } from '../auth/verify-token.ts';
import { ApiError } from './problem.ts';
import type { RateLimiter } from './rate-limit.ts';
import { ProblemSchema } from './schemas.ts';

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

/** Finds the principal an API key stands for; undefined when it is unknown or revoked. */
export type ApiKeyAuthenticator = (key: string) => Promise<Principal | undefined>;

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
 */
export function registerAuthentication(
  app: FastifyInstance,
  verify: TokenVerifier,
  { apiKeys, limiter }: AuthenticationOptions = {},
): void {
  app.decorateRequest('principal', undefined as unknown as Principal);
  // Each authenticated route gets its own hook, made once with the route's scope, so that a request
  // neither reads its route's options nor passes a check meant for others.
  app.addHook('onRoute', (route) => {
    const { scope, authenticated } = route.config ?? {};
    if (!scope && !authenticated) return;
    // Every authenticated operation may answer 429: say so in its OpenAPI responses.
    const responses = route.schema?.response as Record<string, unknown> | undefined;
    if (responses && !responses[429]) {
      responses[429] = { ...ProblemSchema, description: 'Too many requests: wait for Retry-After seconds' };
    }
    const check = async (request: FastifyRequest, reply: FastifyReply) => {
      const refusal = limiter?.refuseBlockedAddress(request, reply);
      if (refusal) await refusal;
      try {
        request.principal = await authenticate(request, verify, apiKeys);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401 && request.headers.authorization) {
          await limiter?.countFailure(request);
        }
        throw error;
      }
      const { principal } = request;
      const counting = limiter?.countRequest(request, reply, principal.credential ?? `subject:${principal.subject}`);
      if (counting) await counting;
      if (scope && !hasScope(principal, scope)) {
        throw new ApiError('FORBIDDEN', `This operation needs the scope ${scope}`);
      }
    };
    route.onRequest = [...[route.onRequest ?? []].flat(), check];
  });
}

async function authenticate(
  request: FastifyRequest,
  verify: TokenVerifier,
  apiKeys: ApiKeyAuthenticator | undefined,
): Promise<Principal> {
  const header = request.headers.authorization;
  if (!header) throw new ApiError('UNAUTHORIZED', 'Send Authorization: Bearer <token>');
  const basic = /^Basic +([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (basic?.[1]) return authenticateApiKey(basicUserName(basic[1]), apiKeys);
  const match = /^Bearer +([^\s]+)\s*$/i.exec(header);
  if (!match?.[1]) throw new ApiError('UNAUTHORIZED', 'The Authorization header must be Bearer <token>');
  const credential = match[1];
  if (apiKeys && !credential.includes('.')) return authenticateApiKey(credential, apiKeys);
  try {
    return await verify(credential);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw new ApiError('UNAUTHORIZED', error.message);
    throw error;
  }
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

async function authenticateApiKey(key: string, apiKeys: ApiKeyAuthenticator | undefined): Promise<Principal> {
  const principal = apiKeys ? await apiKeys(key) : undefined;
  if (!principal) throw new ApiError('UNAUTHORIZED', 'The API key is not valid or has been revoked');
  return principal;
}

/** 403 unless the token lists the company a request body names (decisions §2). */
export function assertCompanyAccess(principal: Principal, companyId: string): void {
  if (!principal.companies.has(companyId.toLowerCase())) {
    throw new ApiError('FORBIDDEN', `The token does not grant access to company ${companyId}`);
  }
}
