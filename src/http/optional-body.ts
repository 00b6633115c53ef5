// Request bodies a client may omit. Fastify refuses a request without a body when its route
// declares one, and its OpenAPI plugin marks every declared body required; a route whose body is
// optional (as the reference API's searches) says `config: { optionalBody: true }`: a request
// without a body is then read as `{}`, and the OpenAPI document says `required: false`.
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request body may be omitted; it is then read as `{}`. */
    optionalBody?: boolean;
  }
}

interface OpenApiDocument {
  paths?: object;
}
type Operation = { operationId?: string; requestBody?: { required?: boolean } };

/**
 * Reads a missing body of an `optionalBody` route as `{}`. Returns what the OpenAPI document needs
 * (swagger's `transformObject`): the document with those routes' bodies marked optional.
 */
export function registerOptionalBodies(app: FastifyInstance): (document: OpenApiDocument) => OpenApiDocument {
  const operations = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!route.config?.optionalBody) return;
    const operationId = route.schema?.operationId;
    if (operationId) operations.add(operationId);
    route.preValidation = [noBodyMeansEmpty, ...[route.preValidation ?? []].flat()] as onRequestHookHandler[];
  });
  return (document) => {
    const paths = Object.values(document.paths ?? {}) as Record<string, Operation>[];
    for (const operation of paths.flatMap((path) => Object.values(path))) {
      if (operation.operationId && operations.has(operation.operationId) && operation.requestBody) {
        operation.requestBody.required = false;
      }
    }
    return document;
  };
}

async function noBodyMeansEmpty(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
