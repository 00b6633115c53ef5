// Sends one request of the API: its URL from the operation's path template, the authorization,
// JSON in and out, a retry after 429 or 503 where that is safe, and a LedgerhookError for any answer
// outside 2xx.
import type { Authorizer } from './credentials.ts';
import { LedgerhookError } from './errors.ts';
import { OPERATIONS, type Operations } from './generated/openapi.ts';
import { type OperationId, RETRIED_STATUSES, retryDelayMs, retrySafe, sleep } from './retries.ts';

/** What one call may add: an abort signal, headers, its own retry count. */
export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Retries after 429 or 503 where a retry is safe; the client's `maxRetries` by default. */
  maxRetries?: number;
}

/** An answer with its status and headers: what `Ledgerhook.request` resolves to. */
export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  requestId: string | null;
  body: T;
}

type Operation<K extends OperationId> = Operations[K];
/** Any success answer's body of the operation. */
export type ResponseBody<K extends OperationId> = Operation<K>['responses'][keyof Operation<K>['responses']];

/** The path parameters, query and body of operation K: only the members it has. */
export type OperationArgs<K extends OperationId> = ([Operation<K>['path']] extends [never]
  ? { path?: undefined }
  : { path: Operation<K>['path'] }) &
  ([Operation<K>['query']] extends [never] ? { query?: undefined } : { query?: Operation<K>['query'] }) &
  // An optional body (the service's `required: false`) may be left out.
  (undefined extends Operation<K>['body'] ? { body?: Operation<K>['body'] } : { body: Operation<K>['body'] });

export interface TransportSettings {
  baseUrl: string;
  fetch: typeof fetch;
  maxRetries: number;
  /** A Retry-After longer than this is not waited for: the 429 or 503 is thrown. */
  maxRetryDelayMs: number;
  headers: Record<string, string>;
}

interface RawRequest {
  method: string;
  url: string;
  body?: string;
  contentType?: string;
  retry: boolean;
  authorizer?: Authorizer;
}

export class Transport {
  readonly #settings: TransportSettings;
  #authorizer: Authorizer | undefined;

  constructor(settings: TransportSettings) {
    this.#settings = { ...settings, baseUrl: settings.baseUrl.replace(/\/+$/, '') };
  }

  /** Set once the credentials are known (the OAuth authorizer sends its token requests through this transport). */
  authorize(authorizer: Authorizer): void {
    this.#authorizer = authorizer;
  }

  operation<K extends OperationId>(
    operationId: K,
    args: OperationArgs<K>,
    options: RequestOptions = {},
  ): Promise<ApiResponse<ResponseBody<K>>> {
    const { method, path } = OPERATIONS[operationId];
    const { path: parameters, query, body } = args as { path?: object; query?: object; body?: unknown };
    return this.#send(
      {
        method,
        url: this.#url(path, parameters as Record<string, string> | undefined, query as Record<string, unknown>),
        ...(body !== undefined && { body: JSON.stringify(body), contentType: 'application/json' }),
        retry: retrySafe(operationId),
        ...(this.#authorizer && { authorizer: this.#authorizer }),
      },
      options,
    ) as Promise<ApiResponse<ResponseBody<K>>>;
  }

  /** POST /oauth/token with a form: never authorised by a token itself, always safe to repeat. */
  tokenRequest(form: URLSearchParams): Promise<ApiResponse<unknown>> {
    const request = {
      method: 'POST',
      url: `${this.#settings.baseUrl}/oauth/token`,
      body: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
      retry: true,
    };
    return this.#send(request, {});
  }

  async #send(request: RawRequest, options: RequestOptions): Promise<ApiResponse<unknown>> {
    const maxRetries = options.maxRetries ?? this.#settings.maxRetries;
    let retries = 0;
    let reauthorized = false;
    for (;;) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        ...this.#settings.headers,
        ...options.headers,
      };
      if (request.contentType) headers['content-type'] = request.contentType;
      if (request.authorizer) headers.authorization = await request.authorizer.header();
      const response = await this.#settings.fetch(request.url, {
        method: request.method,
        headers,
        ...(request.body !== undefined && { body: request.body }),
        ...(options.signal && { signal: options.signal }),
      });
      const answer: ApiResponse<unknown> = {
        status: response.status,
        headers: response.headers,
        requestId: response.headers.get('x-request-id'),
        body: await readBody(response),
      };
      if (response.ok) return answer;
      // A cached OAuth token the service no longer takes: once, with a new one.
      if (response.status === 401 && request.authorizer && !reauthorized && request.authorizer.refused()) {
        reauthorized = true;
        continue;
      }
      if (request.retry && RETRIED_STATUSES.has(response.status) && retries < maxRetries) {
        const delay = retryDelayMs(response.headers, retries + 1);
        if (delay <= this.#settings.maxRetryDelayMs) {
          retries++;
          await sleep(delay, options.signal);
          continue;
        }
      }
      throw new LedgerhookError(response.status, answer.body, response.headers);
    }
  }

  #url(template: string, parameters: Record<string, string> = {}, query: Record<string, unknown> = {}): string {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = parameters[name];
      if (typeof value !== 'string' || value === '') throw new TypeError(`${template}: ${name} is required`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      // Arrays as the parameter repeated, as the service reads them.
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== null) search.append(name, String(item));
      }
    }
    const suffix = search.size > 0 ? `?${search}` : '';
    return `${this.#settings.baseUrl}${path}${suffix}`;
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (!/json/i.test(response.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
