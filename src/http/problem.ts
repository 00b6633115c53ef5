// The one error vocabulary of the API (docs/decisions/api-conventions.md): a closed list of stable
// `type` codes that clients branch on, one typed error that domain code throws, and the error body:
// the reference's ExceptionInfo (`type`, `message`) with RFC 9457's problem members.

export const PROBLEM_TYPES = {
  VALIDATION_FAILED: { status: 400, title: 'The request is invalid' },
  MALFORMED_JSON: { status: 400, title: 'The request body is not valid JSON' },
  MALFORMED_REQUEST: { status: 400, title: 'The request is not valid HTTP' },
  INVALID_CURSOR: { status: 400, title: 'The pagination cursor is invalid' },
  TAX_CODE_NOT_FOUND: { status: 400, title: 'The tax code does not exist' },
  UNKNOWN_ACCOUNT: { status: 400, title: 'The account does not exist in this company' },
  UNKNOWN_BOOKKEEPING_CATEGORY_GROUP: { status: 400, title: 'The category group does not exist in this company' },
  UNKNOWN_ACCOUNTING_ENTRY: { status: 400, title: 'The accounting entry does not exist in this company' },
  UNAUTHORIZED: { status: 401, title: 'Authentication is required' },
  FORBIDDEN: { status: 403, title: 'The credential does not allow this' },
  ROUTE_NOT_FOUND: { status: 404, title: 'No such route' },
  ACCOUNT_NOT_FOUND: { status: 404, title: 'The account does not exist' },
  TAX_CODE_ID_NOT_FOUND: { status: 404, title: 'The tax code does not exist' },
  ACCOUNTING_ENTRY_NOT_FOUND: { status: 404, title: 'The accounting entry does not exist' },
  EXPORT_NOT_FOUND: { status: 404, title: 'The export job does not exist' },
  CONTRA_ACCOUNT_NOT_FOUND: { status: 404, title: 'The contra account does not exist' },
  SUBSCRIPTION_NOT_FOUND: { status: 404, title: 'The subscription does not exist' },
  MESSAGE_NOT_FOUND: { status: 404, title: 'The message does not exist in this subscription' },
  BOOKKEEPING_CATEGORY_GROUP_NOT_FOUND: { status: 404, title: 'The category group does not exist' },
  BOOKKEEPING_CATEGORY_NOT_FOUND: { status: 404, title: 'The category does not exist' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'The route does not allow this method' },
  ACCOUNT_ALREADY_EXISTS: { status: 409, title: 'An account with this externalId already exists' },
  ACCOUNT_IN_USE: { status: 409, title: 'The account is in use' },
  CONTRA_ACCOUNT_ALREADY_EXISTS: { status: 409, title: 'The company already has this contra account' },
  TAX_CODE_ALREADY_EXISTS: { status: 409, title: 'A tax code with this code already exists' },
  TAX_CODE_IN_USE: { status: 409, title: 'The tax code is used by accounts' },
  BOOKKEEPING_CATEGORY_GROUP_ALREADY_EXISTS: {
    status: 409,
    title: 'A category group with this externalId already exists',
  },
  BOOKKEEPING_CATEGORY_GROUP_IN_USE: { status: 409, title: 'The category group has categories' },
  BOOKKEEPING_CATEGORY_ALREADY_EXISTS: { status: 409, title: 'A category with this externalId already exists' },
  SUBSCRIPTION_DISABLED: { status: 409, title: 'The service disabled this subscription' },
  SUBSCRIPTION_LIMIT_REACHED: { status: 409, title: 'The owner has as many subscriptions as it may' },
  EXPORT_ALREADY_IN_PROGRESS: { status: 409, title: 'The company already has a pending or in_progress export job' },
  EVENT_CURSOR_EXPIRED: { status: 410, title: 'The cursor points at events older than the retention' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large' },
  TOO_MANY_ITEMS: { status: 413, title: 'The request names too many items' },
  EXPORT_JOB_ITEMS_UPDATE_LIMIT: { status: 413, title: 'Number of items to update is more than 100.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'The request body must be JSON' },
  REQUEST_TIMEOUT: { status: 408, title: 'The request did not arrive in time' },
  REQUEST_HEADERS_TOO_LARGE: { status: 431, title: 'The request headers are too large' },
  INVALID_EXPORT_JOB_STATUS_CHANGE: { status: 422, title: 'The export job cannot make this status change' },
  EXPORT_JOB_STATUS_UNPROCESSABLE: { status: 422, title: 'Export job is finished' },
  TOO_MANY_REQUESTS: { status: 429, title: 'Too many requests' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'The service is not ready' },
  STORAGE_FULL: { status: 503, title: "The database's disk is full" },
  DATABASE_READ_ONLY: { status: 503, title: 'The database accepts no writes at the moment' },
  INTERNAL_ERROR: { status: 500, title: 'Something went wrong on our side' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

export interface FieldError {
  /** JSON pointer into the request part named by `in`. */
  path: string;
  message: string;
  in?: 'body' | 'query' | 'path';
}

export interface Problem {
  type: ProblemType;
  /** The reference's ExceptionInfo member: the same text as `detail`. */
  message: string;
  title: string;
  status: number;
  detail: string;
  requestId: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** Thrown by domain and HTTP code; the error handler turns it into the error body. */
export class ApiError extends Error {
  readonly type: ProblemType;
  readonly status: number;
  readonly extensions: Record<string, unknown>;

  constructor(type: ProblemType, detail: string, extensions: Record<string, unknown> = {}) {
    super(detail);
    this.type = type;
    this.status = PROBLEM_TYPES[type].status;
    this.extensions = extensions;
  }
}

/** The JSON pointer (RFC 6901) of the keys from the root down, each with `~` and `/` escaped. */
export function jsonPointer(keys: readonly (string | number)[]): string {
  return keys.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/**
 * The most field errors a problem lists. Every broken field is reported, so without a bound a 1 MiB
 * body of 300,000 wrong array items answered 23 MB of errors (docs/decisions/bounded-answers.md).
 */
export const MAX_FIELD_ERRORS = 100;

/** 400 VALIDATION_FAILED listing the broken fields, the first MAX_FIELD_ERRORS of them; the detail says how many in all. */
export function validationError(errors: FieldError[], detail = 'The request has invalid fields'): ApiError {
  if (errors.length <= MAX_FIELD_ERRORS) return new ApiError('VALIDATION_FAILED', detail, { errors });
  return new ApiError('VALIDATION_FAILED', `${detail}; the first ${MAX_FIELD_ERRORS} of ${errors.length} are listed`, {
    errors: errors.slice(0, MAX_FIELD_ERRORS),
  });
}

export function toProblem(error: ApiError, requestId: string): Problem {
  return {
    type: error.type,
    message: error.message,
    title: PROBLEM_TYPES[error.type].title,
    status: error.status,
    detail: error.message,
    requestId,
    ...error.extensions,
  };
}
