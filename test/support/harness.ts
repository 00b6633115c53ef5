import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { mintToken, type TokenClaims } from '../../src/auth/mint-token.ts';
import type { Scope } from '../../src/auth/principal.ts';
import { createTokenVerifier } from '../../src/auth/verify-token.ts';
import type { Database } from '../../src/db/database.ts';
import type { App } from '../../src/http/app.ts';
import { buildServer, type ServerOptions } from '../../src/server.ts';
import { openTestDatabase } from './database.ts';
import { ResponseChecker } from './openapi-responses.ts';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-32-bytes-long';

export interface TestResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

/**
 * Sends a request through the server in-process and checks the answer against the OpenAPI
 * document the server publishes.
 */
export async function sendChecked(
  app: App,
  checker: ResponseChecker,
  method: string,
  url: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<TestResponse> {
  const inject: InjectOptions = { method: method as InjectOptions['method'], url, headers };
  if (body !== undefined) inject.payload = body as InjectOptions['payload'];
  const response = await app.inject(inject);
  checker.check(method, url, response.statusCode, response.body, response.headers['content-type']?.toString());
  const json = response.headers['content-type']?.toString().includes('json') && response.body;
  return {
    status: response.statusCode,
    headers: response.headers,
    body: json ? JSON.parse(response.body) : undefined,
    text: response.body,
  };
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: App;
  db: Database;
  /** A token for a new user on `companies`, with `scopes` (all of them by default). */
  token(options?: { companies?: string[]; scopes?: Scope[] | string[] } & Partial<TokenClaims>): Promise<string>;
  /** Sends a request through the server; every answer is checked against the OpenAPI document. */
  request<T = any>(method: string, url: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export const ALL_SCOPES: Scope[] = [
  'accounts:write',
  'tax-codes:write',
  'accounting-entries:write',
  'export-jobs:write',
  'export-items:read',
  'bookkeeping-categories:write',
  'contra-accounts:write',
  'bookkeeping-preferences:write',
];

/**
 * A server on a fresh database, reached in-process (no socket). Webhook endpoints may be http and
 * local (WEBHOOK_ALLOW_PRIVATE_TARGETS=true) unless `webhookAllowPrivateTargets` says false, so tests
 * can subscribe local receivers. Tokens are HS256 with TEST_JWT_SECRET unless `verifyToken` says otherwise.
 */
export async function startTestApp(
  options: Partial<
    Pick<
      ServerOptions,
      | 'exportJobTtlSeconds'
      | 'webhookAllowPrivateTargets'
      | 'webhookMaxSubscriptionsPerTenant'
      | 'webhookRetentionMs'
      | 'verifyToken'
      | 'rateLimits'
      | 'trustProxy'
      | 'dashboard'
    >
  > = {},
): Promise<TestApp> {
  const db = await openTestDatabase();
  const app = await buildServer({
    webhookAllowPrivateTargets: true,
    verifyToken: createTokenVerifier({ secret: TEST_JWT_SECRET }),
    ...options,
    db,
  });
  await app.ready();
  const checker = new ResponseChecker(app.swagger() as never);
  return {
    app,
    db,
    token: ({ companies = [randomUUID()], scopes = ALL_SCOPES, ...claims } = {}) =>
      mintToken(TEST_JWT_SECRET, { subject: randomUUID(), companies, scope: scopes.join(' '), ...claims }),
    request: (method, url, { token, body, headers = {} } = {}) =>
      sendChecked(app, checker, method, url, {
        headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
        body,
      }),
    async close() {
      await app.close();
      await db.close();
    },
  };
}
