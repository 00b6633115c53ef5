// Answers whose JSON the database wrote: sent as text, neither parsed nor serialised again. The
// route's response schema still describes them (OpenAPI), and the tests check them against it.
import type { FastifyReply } from 'fastify';

/** Sends `json` as it is; the JSON content type is every answer's default (server.ts). */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.send(json);
}

/** Answers `{ "data": … }` around the JSON text of one resource. */
export function sendData(reply: FastifyReply, json: string): FastifyReply {
  return sendJsonText(reply, `{"data":${json}}`);
}
