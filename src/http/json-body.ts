// The parser of JSON request bodies, in place of Fastify's. Fastify's decodes any charset as UTF-8,
// replacing what is not UTF-8 with U+FFFD, and passes on values that later fail where they cannot be
// told apart from a bug: a lone surrogate (PostgreSQL's json refuses it: a 500), a number beyond
// a double (JSON.stringify writes null: the stored value differs from the one sent), nesting deep
// enough to overflow JSON.stringify's stack (a 500), NUL (PostgreSQL refuses it, and could not say
// in which field). Here each is a 400 naming the field.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, type FieldError, jsonPointer, validationError } from './problem.ts';

/** The largest request body, in bytes (Fastify's bodyLimit): past it, 413. */
export const BODY_LIMIT = 1024 * 1024;
export const BODY_LIMIT_TEXT = `${BODY_LIMIT / 1024 / 1024} MiB`;

/** Deeper than this, a body is refused (metadata is the only field that nests at all). */
export const MAX_JSON_DEPTH = 64;

// PostgreSQL's text and json types cannot hold it.
const NUL_MESSAGE = 'must not contain NUL (\\u0000) characters';

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request, body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

function parseJsonBody(request: FastifyRequest, body: Buffer): unknown {
  const charset = charsetOf(request.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the body as UTF-8 (charset=utf-8), not ${charset}`);
  }
  // Many clients send the header on every request: an empty body is no body. A route that needs
  // one says so in its validation ("must be object"); one that takes none or an optional one goes on.
  if (body.length === 0) return undefined;
  if (!isUtf8(body)) throw new ApiError('MALFORMED_JSON', 'The request body is not valid UTF-8');
  let value: unknown;
  try {
    const text = body.toString('utf8');
    // A byte order mark is allowed before the JSON (as Fastify's parser allowed it).
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new ApiError('MALFORMED_JSON', 'The request body is not valid JSON');
  }
  const errors: FieldError[] = [];
  const checked = checkValue(value, [], errors);
  if (errors.length > 0) throw validationError(errors);
  return checked;
}

/** The charset parameter of a content type, lower-cased, unquoted; undefined when there is none. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType && /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType);
  return match ? (match[1] ?? '').toLowerCase() : undefined;
}

/**
 * `value` with -0 read as 0 (JSON.stringify writes both as 0, so a replay must compare them equal),
 * and an entry in `errors` for each string or key that is not well-formed Unicode or holds NUL, each number
 * beyond a double, each `__proto__` key, and nesting past MAX_JSON_DEPTH. `at` holds the keys down
 * to `value`; a field's path is written only when it is wrong.
 */
function checkValue(value: unknown, at: (string | number)[], errors: FieldError[]): unknown {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) errors.push(fieldError(at, 'must be well-formed Unicode (it holds a lone surrogate)'));
    else if (value.includes('\0')) errors.push(fieldError(at, NUL_MESSAGE));
    return value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) errors.push(fieldError(at, 'is too large for a JSON number (a double)'));
    return value === 0 ? 0 : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (at.length === MAX_JSON_DEPTH) {
    errors.push(fieldError(at, `nests deeper than ${MAX_JSON_DEPTH} levels`));
    return value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      const checked = checkValue(value[i], at, errors);
      if (!Object.is(checked, value[i])) value[i] = checked;
      at.pop();
    }
    return value;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    at.push(key);
    // JSON.parse makes it an own property, harmless here; but code that copied the object with
    // Object.assign would set its prototype instead. Fastify refuses it too.
    if (key === '__proto__') {
      errors.push(fieldError(at, 'is not accepted as a key'));
    } else {
      if (!key.isWellFormed()) {
        errors.push(fieldError(at, 'must be a well-formed Unicode key (it holds a lone surrogate)'));
      } else if (key.includes('\0')) {
        errors.push(fieldError(at, NUL_MESSAGE));
      }
      const checked = checkValue(object[key], at, errors);
      if (!Object.is(checked, object[key])) object[key] = checked;
    }
    at.pop();
  }
  return object;
}

/** A field error at the JSON pointer of `at`. */
function fieldError(at: (string | number)[], message: string): FieldError {
  return { path: jsonPointer(at) || '/', message, in: 'body' };
}
