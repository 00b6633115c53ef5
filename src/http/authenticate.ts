import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasScope, type Principal, type Scope } from '../auth/principal.ts';
import { InvalidTokenError, type TokenVerifier } from '../auth/verify-token.ts';
import { ApiError } from './problem.ts';

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
 * Authenticates every route that declares a scope (or `authenticated`), before its body is read:
 * 401 for a missing or bad token, 403 for a missing scope. Routes with neither are public (health,
 * metrics, docs).
 */
export function registerAuthentication(app: FastifyInstance, verify: TokenVerifier): void {
  app.decorateRequest('principal', undefined as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    const { scope, authenticated } = request.routeOptions.config;
    if (!scope && !authenticated) return;
    request.principal = await authenticate(request, verify);
    if (scope && !hasScope(request.principal, scope)) {
      throw new ApiError('FORBIDDEN', `This operation needs the scope ${scope}`);
    }
  });
}

async function authenticate(request: FastifyRequest, verify: TokenVerifier): Promise<Principal> {
  const header = request.headers.authorization;
  if (!header) throw new ApiError('UNAUTHORIZED', 'Send Authorization: Bearer <token>');
  const match = /^Bearer +([^\s]+)\s*$/i.exec(header);
  if (!match?.[1]) throw new ApiError('UNAUTHORIZED', 'The Authorization header must be Bearer <token>');
  try {
    return await verify(match[1]);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw new ApiError('UNAUTHORIZED', error.message);
    throw error;
  }
}

/** 403 unless the token lists the company a request body names (decisions §2). */
export function assertCompanyAccess(principal: Principal, companyId: string): void {
  if (!principal.companies.has(companyId.toLowerCase())) {
    throw new ApiError('FORBIDDEN', `The token does not grant access to company ${companyId}`);
  }
}
