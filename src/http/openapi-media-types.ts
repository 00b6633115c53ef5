// The media types the OpenAPI document declares, as the reference's files declare them, so that a
// client generated from either file sees the same: request bodies as `application/json;charset=UTF-8`;
// answers as that too, except the accounts' (v1-beta and the v1 chart of accounts), which the
// reference declares as `application/json` (the service sends the charset with them all). Fastify
// and its OpenAPI plugin key both by media type alone, so the routes say `application/json`.
import { JSON_CONTENT_TYPE, JSON_MEDIA_TYPE } from './content-types.ts';
import type { OpenApiDocument } from './openapi-problem.ts';

const ANSWERED_AS_PLAIN_JSON = ['/v1-beta/accounts', '/v1/chart-of-accounts'];

type Content = Record<string, unknown>;
interface Operation {
  requestBody?: { content?: Content };
  responses?: Record<string, { content?: Content }>;
}

/** The document with each request body's and answer's `application/json` renamed as the reference names it. */
export function declareReferenceMediaTypes<T extends OpenApiDocument>(document: T): T {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const answerType = ANSWERED_AS_PLAIN_JSON.some((prefix) => path.startsWith(prefix))
      ? JSON_MEDIA_TYPE
      : JSON_CONTENT_TYPE;
    for (const operation of Object.values(operations) as Operation[]) {
      if (operation.requestBody?.content)
        operation.requestBody.content = renamed(operation.requestBody.content, JSON_CONTENT_TYPE);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.content && status.startsWith('2')) response.content = renamed(response.content, answerType);
      }
    }
  }
  return document;
}

function renamed(content: Content, mediaType: string): Content {
  return Object.fromEntries(
    Object.entries(content).map(([type, value]) => [type === JSON_MEDIA_TYPE ? mediaType : type, value]),
  );
}
