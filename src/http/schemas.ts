// Schemas shared by every route. Route schemas are the single source of the OpenAPI document.
import Type, { type Static, type TSchema } from 'typebox';
import { JSON_MEDIA_TYPE, PROBLEM_CONTENT_TYPE } from './content-types.ts';
import { MAX_FIELD_ERRORS, PROBLEM_TYPES } from './problem.ts';

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', description, examples: ['123e4567-e89b-12d3-a456-426614174005'] });

/**
 * A value that may also be JSON null, written as a type list (`"type": ["string", "null"]`) where
 * the schema has one type: responses then serialize without trying each branch of an anyOf.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, enum: values } = schema as { type?: unknown; enum?: unknown[] };
  if (typeof type !== 'string') return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
  return Type.Unsafe<Static<T> | null>({
    ...schema,
    type: [type, 'null'],
    ...(values ? { enum: [...values, null] } : {}),
  });
}

/** An optional search filter: any of these ids (at most 1,000, each once), or null for none. */
export const IdList = (description: string) =>
  Type.Optional(Nullable(Type.Array(Uuid(), { uniqueItems: true, maxItems: 1000, description })));

/** An IdList filter as a search binds it: lower-case (a null entry stays null), and null when omitted. */
export function lowerIds<Id extends string | null>(ids: readonly Id[] | null | undefined): Id[] | null {
  return ids ? ids.map((id) => (id === null ? id : (id.toLowerCase() as Id))) : null;
}

export const Timestamp = (description: string) =>
  Type.String({ format: 'date-time', description, examples: ['2026-11-22T09:30:00.000000Z'] });

/**
 * A timestamp a client sends, within what PostgreSQL's timestamptz takes and prints back as sent:
 * years 0001 to 9999 in UTC (its calendar has no year 0, and it would print 1 BC without the era
 * and year 10000 in five digits), and a zone offset up to 15:59 (past it PostgreSQL refuses it).
 */
export const TimestampInput = (description: string) =>
  Type.String({
    format: 'date-time',
    formatMinimum: '0001-01-01T00:00:00Z',
    formatMaximum: '9999-12-31T23:59:59.999999Z',
    pattern: '(?:[Zz]|[+-](?:0\\d|1[0-5]):[0-5]\\d)$',
    description: `${description}; RFC 3339, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, zone offset at most 15:59`,
    examples: ['2026-11-22T09:30:00Z'],
  });

/** The problem schema's title, by which the OpenAPI document finds and shares it (openapi-problem.ts). */
export const PROBLEM_TITLE = 'Problem';

const PROBLEM_PROPERTIES = {
  type: Type.String({ enum: Object.keys(PROBLEM_TYPES), description: 'Stable code to branch on' }),
  message: Type.String({ description: "What went wrong (the reference's ExceptionInfo); the same text as detail" }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  requestId: Type.String({ description: 'Also in the x-request-id response header' }),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        path: Type.String({ description: 'JSON pointer to the field' }),
        message: Type.String(),
        in: Type.Optional(Type.String({ enum: ['body', 'query', 'path'] })),
      }),
      { maxItems: MAX_FIELD_ERRORS, description: `The broken fields, at most ${MAX_FIELD_ERRORS}` },
    ),
  ),
};
const PROBLEM_OPTIONS = {
  title: PROBLEM_TITLE,
  additionalProperties: true,
  description:
    "The reference's ExceptionInfo (type, message) with RFC 9457 problem details; served as application/problem+json to a client whose Accept header names it",
};

export const ProblemSchema = Type.Object(PROBLEM_PROPERTIES, PROBLEM_OPTIONS);

/** A problem+json response whose body adds fields, such as a conflict's id of what it conflicts with. */
export function problemWith<P extends Record<string, TSchema>>(added: P, description: string) {
  return problemResponse(description, Type.Object({ ...PROBLEM_PROPERTIES, ...added }, PROBLEM_OPTIONS));
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid',
  401: 'The bearer token is missing, malformed, expired or wrongly signed',
  403: 'The token lacks the scope, or does not list the company',
  404: 'Not found (also when it belongs to another company)',
  409: 'Conflicts with the current state',
  410: 'Gone: what it points at is older than the service keeps',
  413: 'The request body is too large',
  415: 'The request body is not JSON',
  422: 'The change is not possible in the current state',
};

/**
 * Adds a problem+json response for `status` to a route's documented responses, unless it has one;
 * routes without a response schema are left alone. For statuses a whole class of routes may answer
 * (429 after authentication, 503 while the database is down), from an `onRoute` hook.
 */
export function documentProblem(route: { schema?: { response?: unknown } }, status: number, description: string): void {
  const responses = route.schema?.response as Record<number, unknown> | undefined;
  if (responses && !responses[status]) responses[status] = problemResponse(description);
}

/**
 * An operation's OpenAPI security requirement: these scopes, under either way to authenticate (a
 * bearer token or API key, or an API key as Basic user name).
 */
export function scopeSecurity(scopes: readonly string[]): Record<string, string[]>[] {
  return [{ bearerAuth: [...scopes] }, { apiKeyBasic: [...scopes] }];
}

/**
 * An error response, under both content types it is sent with (errorContentType), for Fastify's
 * serializers and the OpenAPI document.
 */
export function problemResponse(description: string, schema: TSchema = ProblemSchema) {
  return { description, content: { [JSON_MEDIA_TYPE]: { schema }, [PROBLEM_CONTENT_TYPE]: { schema } } };
}

/** The problem+json responses a route can answer, for its schema and the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, ReturnType<typeof problemResponse>> {
  const all = [...new Set([400, 401, 403, 413, 415, ...statuses])];
  return Object.fromEntries(all.map((status) => [status, problemResponse(ERROR_DESCRIPTIONS[status] ?? 'Error')]));
}

/**
 * The body of an action that takes no input (`config.optionalBody`): none, or `{}`. A property is an
 * unknown one, so a client that believes it sets an option is told it does not.
 */
export const NoFieldsBody = Type.Object({}, { description: 'No fields: send no body, or {}' });

export const DataEnvelope = <T extends TSchema>(item: T, description?: string) =>
  Type.Object({ data: item }, { description });

/** The 409 of a delete refused because other records reference the row: each kind, with up to 10 ids. */
export function inUseResponse(description: string) {
  return problemWith(
    {
      usedBy: Type.Array(
        Type.Object({
          resource: Type.String({
            description: 'The kind of record, as its path names it',
            examples: ['bookkeeping-categories'],
          }),
          ids: Type.Array(Uuid(), { maxItems: 10, description: 'Up to 10 of them' }),
        }),
        { description: 'What references it' },
      ),
    },
    description,
  );
}
