import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { sendProblem } from './error-handler.ts';
import { ApiError } from './problem.ts';

/** The options of Fastify's router that decide which paths match. */
export interface RouterOptions {
  ignoreTrailingSlash?: boolean;
  ignoreDuplicateSlashes?: boolean;
  caseSensitive?: boolean;
}

/**
 * Unknown paths answer 404 ROUTE_NOT_FOUND; a known path with another method answers 405 with an
 * Allow header. Fastify's router answers 404 for both, so the routes are mirrored here to tell them
 * apart. `routerOptions` must be Fastify's own: with other options the mirror could match a path
 * Fastify did not, such as `/v1-beta/accounts/` (a trailing slash ignored) as `/v1-beta/accounts/:accountId`.
 */
export function registerNotFoundHandler(app: FastifyInstance, routerOptions: RouterOptions): void {
  const known = FindMyWay(routerOptions);
  const noop = () => {};
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!known.hasRoute(method as HTTPMethod, route.url)) known.on(method as HTTPMethod, route.url, noop);
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = (['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const).filter((m) => known.find(m, path));
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(
        request,
        reply,
        new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`),
      );
    }
    return sendProblem(request, reply, new ApiError('ROUTE_NOT_FOUND', `No route ${request.method} ${path}`));
  });
}
