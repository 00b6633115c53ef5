import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  isDatabaseUnavailable,
  isPgError,
  PG_UNSTORABLE_TEXT,
  type WriteRefusal,
  writeRefusalOf,
} from '../db/database.ts';
import { errorContentType, JSON_CONTENT_TYPE } from './content-types.ts';
import { BODY_LIMIT_TEXT } from './json-body.ts';
import { ApiError, type FieldError, jsonPointer, MAX_FIELD_ERRORS, toProblem, validationError } from './problem.ts';
import { documentProblem } from './schemas.ts';
import { shortened, unknownPropertyMessage } from './unknown-properties.ts';

// How long a client should wait before sending again a request the service could not serve (every
// 503): its database did not answer or refused the write, or the identity provider's signing keys
// did not answer.
export const RETRY_AFTER_SECONDS = 2;

/**
 * The single place errors become responses. Known errors keep their type; anything else is logged
 * and answered as a bare 500, so no stack trace or SQL ever reaches a client.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  // Every documented operation reads or writes the database, so any may answer 503 while it is down
  // or refuses writes (an authenticated one also while the identity provider's keys cannot be fetched).
  app.addHook('onRoute', (route) =>
    documentProblem(
      route,
      503,
      'The database (or the identity provider) is not reachable (SERVICE_UNAVAILABLE), or takes no writes for now: its disk is full (STORAGE_FULL) or it is read-only (DATABASE_READ_ONLY). Retry after Retry-After seconds',
    ),
  );
}

/** Answers `error` as an error body (`apiError`, when given, in its place); logs what is not a client's fault. */
export function answerError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  apiError = toApiError(error),
): FastifyReply {
  if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
  return sendProblem(request, reply, apiError);
}

/**
 * Errors Fastify's router meets before any hook runs, which it would answer as plain JSON: a path
 * that is not valid percent-encoding, and a path parameter over 100 characters (no id is that long).
 */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  const detail =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is longer than 100 characters'
      : 'The path is not valid percent-encoded UTF-8';
  sendProblem(request, reply, validationError([{ path: '/', message: detail, in: 'path' }], detail));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a header with a CR, an unknown
 * method, headers over 16 KiB, a request that does not arrive in time): the same error body as JSON
 * (no Accept header was read), written on the socket, which is then closed (Node's own behaviour).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiError('REQUEST_TIMEOUT', 'The request did not arrive in time')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError('REQUEST_HEADERS_TOO_LARGE', 'The request line and headers are larger than 16 KiB')
        : new ApiError('MALFORMED_REQUEST', 'The request is not valid HTTP/1.1');
  const requestId = randomUUID();
  const body = JSON.stringify(toProblem(apiError, requestId));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.status === 401) reply.header('www-authenticate', 'Bearer');
  if (error.status === 503) reply.header('retry-after', RETRY_AFTER_SECONDS);
  return reply
    .status(error.status)
    .header('content-type', errorContentType(request.headers.accept))
    .send(toProblem(error, request.id));
}

export function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) return schemaValidationError(error.validation, error.validationContext);
  // Not the request's fault and not a bug: sent again once the database has room or takes writes
  // again, or is back, it may succeed.
  const refusal = writeRefusalOf(error);
  if (refusal) return writeRefusedError(refusal);
  if (isDatabaseUnavailable(error)) {
    return new ApiError('SERVICE_UNAVAILABLE', 'The database is not reachable; retry shortly');
  }
  // Text PostgreSQL cannot store (a NUL character) fails in the database, before anything is written.
  if (isPgError(error, PG_UNSTORABLE_TEXT)) {
    return new ApiError('VALIDATION_FAILED', 'Text must not contain NUL (\\u0000) characters');
  }
  // JSON bodies are read by json-body.ts, which throws ApiErrors of its own.
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${BODY_LIMIT_TEXT}`);
  }
  // A body parser's own error (a syntax error, or a 400 without a code) is the body's fault.
  if (error instanceof SyntaxError || (error.statusCode === 400 && !error.code)) {
    return new ApiError('MALFORMED_JSON', 'The request body is not valid JSON');
  }
  return new ApiError('INTERNAL_ERROR', 'The request could not be completed; it has been logged');
}

/** The 503 for a database that takes no writes for now: its disk is full, or it is read-only. */
export function writeRefusedError(refusal: WriteRefusal): ApiError {
  return refusal === 'disk-full'
    ? new ApiError('STORAGE_FULL', "The database's disk is full; nothing was written, retry later")
    : new ApiError('DATABASE_READ_ONLY', 'The database is read-only for now; nothing was written, retry later');
}

type AjvIssue = NonNullable<FastifyError['validation']>[number];

/** The most unknown properties a detail names; the field errors list the others. */
const UNKNOWN_IN_DETAIL = 10;

/**
 * 400 VALIDATION_FAILED for what a schema found (and the `added` errors of rules beside it). Its
 * detail names the unknown properties, if any: the mistake a client is least likely to spot itself.
 */
export function schemaValidationError(
  issues: AjvIssue[],
  context: string | undefined,
  added: FieldError[] = [],
): ApiError {
  const where = toLocation(context);
  const errors = [...fieldErrors(issues, where), ...added];
  const unknown = issues.filter((issue) => issue.keyword === 'additionalProperties');
  const [first] = unknown;
  if (!first) return validationError(errors);
  if (errors.length === 1) return validationError(errors, unknownPropertyText(first, first.instancePath));
  const named = unknown.slice(0, UNKNOWN_IN_DETAIL).map((issue) => shortened(toFieldError(issue, where).path));
  const more = unknown.length > UNKNOWN_IN_DETAIL ? ` and ${unknown.length - UNKNOWN_IN_DETAIL} more` : '';
  const noun = unknown.length === 1 ? 'property' : 'properties';
  return validationError(
    errors,
    `The request has invalid fields, among them the unknown ${noun} ${named.join(', ')}${more}`,
  );
}

/**
 * One entry per broken field. A nullable field is `anyOf [T, null]`, for which Ajv reports three
 * issues (T's rule, "must be null", "must match a schema in anyOf"); only T's rule says what is wrong,
 * at the field or, for an object, at a field of it (an unknown or missing property).
 * A key that breaks `propertyNames` is reported twice too: its rule, and "property name must be valid".
 */
function fieldErrors(issues: AjvIssue[], where: FieldError['in']): FieldError[] {
  const isNullableNoise = (issue: AjvIssue) =>
    issue.keyword === 'anyOf' ||
    issue.keyword === 'propertyNames' ||
    (issue.keyword === 'type' && issue.message === 'must be null');
  // Only the first MAX_FIELD_ERRORS are listed: a suggestion for the others would be spent on nothing
  // (a megabyte of unknown keys is 80,000 of them).
  let unknown = 0;
  const all = issues.map((issue) => {
    const suggest = issue.keyword === 'additionalProperties' && unknown++ < MAX_FIELD_ERRORS;
    return { noise: isNullableNoise(issue), error: toFieldError(issue, where, suggest) };
  });
  // Each path an error explains, and the paths of the objects it is in.
  const explained = new Set<string>();
  for (const { noise, error } of all) {
    if (noise) continue;
    for (let end = error.path.length; end > 0; end = error.path.lastIndexOf('/', end - 1)) {
      explained.add(error.path.slice(0, end));
    }
  }
  const unique = new Map<string, FieldError>();
  for (const { noise, error } of all) {
    if (noise && explained.has(error.path)) continue;
    unique.set(`${error.path} ${error.message}`, error);
  }
  return [...unique.values()];
}

function toFieldError(issue: AjvIssue, where: FieldError['in'], suggest = true): FieldError {
  const missing = (issue.params as { missingProperty?: string }).missingProperty;
  // A key that breaks its object's propertyNames rule is reported at the key itself.
  const key =
    (issue as { propertyName?: string }).propertyName ??
    (issue.params as { propertyName?: string }).propertyName ??
    (issue.params as { additionalProperty?: string }).additionalProperty;
  const path = missing
    ? `${issue.instancePath}/${missing}`
    : key !== undefined
      ? `${issue.instancePath}${jsonPointer([key])}`
      : issue.instancePath || '/';
  const message = missing
    ? 'is required'
    : issue.keyword === 'additionalProperties'
      ? unknownPropertyText(issue, '', suggest)
      : (issue.message ?? 'is invalid');
  return { path, message, in: where };
}

/**
 * An unknown property's message, suggesting the property of its object it most likely misspells
 * (one the client sent too may be suggested: defaults are filled in before the check, so what was
 * sent cannot be told apart); `parent`, when given, says which object.
 */
function unknownPropertyText(issue: AjvIssue, parent = '', suggest = true): string {
  const name = (issue.params as { additionalProperty: string }).additionalProperty;
  // Body validators are verbose (validation.ts): the issue carries its object's schema.
  const { parentSchema } = issue as { parentSchema?: { properties?: object } };
  const known = suggest ? Object.keys(parentSchema?.properties ?? {}) : [];
  return unknownPropertyMessage(name, known, parent);
}

function toLocation(context: string | undefined): FieldError['in'] {
  if (context === 'querystring') return 'query';
  if (context === 'params') return 'path';
  return 'body';
}
