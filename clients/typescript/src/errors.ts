import type { Problem } from './generated/openapi.ts';

/**
 * Every answer of the service outside 2xx, thrown: its HTTP status, the stable `type` to branch on
 * (a Problem type, or the OAuth 2.0 `error` of the token endpoint), the message and the request id
 * to quote when asking about it. `body` is the whole answer, with fields some types add
 * (`existingId` of ACCOUNT_ALREADY_EXISTS, `usedBy` of ACCOUNT_IN_USE).
 */
export class LedgerhookError extends Error {
  readonly status: number;
  readonly type: Problem['type'] | (string & {});
  readonly requestId: string | null;
  /** The invalid fields of a VALIDATION_FAILED answer. */
  readonly errors: Problem['errors'];
  readonly body: unknown;
  readonly headers: Headers;

  constructor(status: number, body: unknown, headers: Headers) {
    const problem = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const type = text(problem.type) ?? text(problem.error) ?? `HTTP_${status}`;
    const message = text(problem.message) ?? text(problem.error_description) ?? `HTTP ${status}`;
    super(message);
    this.name = 'LedgerhookError';
    this.status = status;
    this.type = type;
    this.requestId = headers.get('x-request-id') ?? text(problem.requestId) ?? null;
    this.errors = Array.isArray(problem.errors) ? (problem.errors as Problem['errors']) : undefined;
    this.body = body;
    this.headers = headers;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
