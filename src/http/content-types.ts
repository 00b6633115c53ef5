import type { FastifyReply } from 'fastify';

// The content types the service answers with, as the reference API's files declare them: JSON as
// `application/json;charset=UTF-8`, errors too, unless the client asks for RFC 9457's
// `application/problem+json` (docs/decisions/api-conventions.md, "Errors").

export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
/** The media type of JSON_CONTENT_TYPE, by which Fastify keys a response's serializers. */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * The content type of an error answer: problem+json to a client whose Accept header names it (with
 * a q-value above 0), else the reference's JSON, which a client generated from it parses.
 */
export function errorContentType(accept: string | undefined): string {
  if (!accept?.includes(PROBLEM_CONTENT_TYPE)) return JSON_CONTENT_TYPE;
  const asked = accept.split(',').find((range) => range.trim().startsWith(PROBLEM_CONTENT_TYPE));
  const q = /;\s*q\s*=\s*([\d.]+)/i.exec(asked ?? '')?.[1];
  return q !== undefined && Number(q) === 0 ? JSON_CONTENT_TYPE : `${PROBLEM_CONTENT_TYPE}; charset=utf-8`;
}

/**
 * Answers `status` with no body and so no content type: the JSON one every answer starts with
 * (server.ts) would make a client that parses by content type fail on the empty body.
 */
export function answerWithoutBody(reply: FastifyReply, status: 202 | 204): FastifyReply {
  return reply.status(status).removeHeader('content-type').send();
}
