// A server with our own credentials switched on (API keys, /oauth/token, JWKS), on a fresh test
// database, reached in-process. Every log line is kept, so tests can check no secret was logged.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { type OAuthSigningKey, resolveOAuthSigningKey } from '../../src/auth/oauth-signing-key.ts';
import { createTokenVerifier } from '../../src/auth/verify-token.ts';
import { type CredentialStatus, startCredentialStatus } from '../../src/credentials/credential-status.ts';
import { type CreatedClient, createClient } from '../../src/credentials/operations.ts';
import { ownTokenKey, tokenIssuer } from '../../src/credentials/setup.ts';
import type { Database } from '../../src/db/database.ts';
import type { App } from '../../src/http/app.ts';
import type { RateLimitSettings } from '../../src/http/rate-limit.ts';
import { buildServer } from '../../src/server.ts';
import { openTestDatabase } from '../support/database.ts';
import { sendChecked, TEST_JWT_SECRET, type TestResponse } from '../support/harness.ts';
import { ResponseChecker } from '../support/openapi-responses.ts';

export interface CredentialsApp {
  app: App;
  db: Database;
  pepper: Buffer;
  signingKey: OAuthSigningKey;
  /** Every log line written so far. */
  logs: string[];
  /** A client of `companies` (one new company by default) with `scope`, made as the CLI makes it. */
  createClient(options?: { scope?: string; companies?: string[] }): Promise<CreatedClient>;
  request<T = any>(method: string, url: string, options?: RawRequest): Promise<TestResponse<T>>;
  /** POST /oauth/token with a form body. */
  token(form: Record<string, string>, headers?: Record<string, string>): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RawRequest {
  headers?: Record<string, string>;
  body?: unknown;
}

export interface CredentialsAppOptions {
  environment?: 'production' | 'staging';
  publicBaseUrl?: string;
  /** Shared with another app to test foreign-environment tokens; a new one by default. */
  signingKey?: OAuthSigningKey;
  rateLimits?: RateLimitSettings;
  /** An existing database (another deployment's view of it); a new one by default. */
  db?: Database;
  /** Webhook endpoints may be http and local (receivers of the test); false by default, as in production. */
  webhookAllowPrivateTargets?: boolean;
}

export const ALL_CLIENT_SCOPES = 'accounts:write tax-codes:write export-jobs:read';

export async function startCredentialsApp(options: CredentialsAppOptions = {}): Promise<CredentialsApp> {
  const ownsDb = !options.db;
  const db = options.db ?? (await openTestDatabase());
  const pepper = Buffer.from(`pepper-${randomUUID()}`);
  const signingKey =
    options.signingKey ??
    ((await resolveOAuthSigningKey({
      oauthSigningKey: undefined,
      databaseUrl: undefined,
      dataDir: 'memory',
    })) as OAuthSigningKey);
  const status: CredentialStatus = await startCredentialStatus(db, pepper);
  const environment = options.environment ?? 'production';
  const publicBaseUrl = options.publicBaseUrl ?? `https://${environment}.ledgerhook.test`;
  const issuer = tokenIssuer(signingKey, { publicBaseUrl, environment, oauthTokenTtlSeconds: 3600 });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = await buildServer({
    db,
    logger: pino({ level: 'debug' }, sink),
    publicBaseUrl,
    verifyToken: createTokenVerifier({ secret: TEST_JWT_SECRET, own: ownTokenKey(issuer, status) }),
    credentials: { status, issuer },
    rateLimits: options.rateLimits,
    webhookAllowPrivateTargets: options.webhookAllowPrivateTargets ?? false,
  });
  await app.ready();
  const checker = new ResponseChecker(app.swagger() as never);
  const request = (method: string, url: string, options: RawRequest = {}) =>
    sendChecked(app, checker, method, url, options);
  return {
    app,
    db,
    pepper,
    signingKey,
    logs,
    createClient: ({ scope = ALL_CLIENT_SCOPES, companies = [randomUUID()] } = {}) =>
      createClient(db, pepper, { name: 'Test integration', companies, scope }),
    request,
    token: (form, headers = {}) =>
      request('POST', '/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form).toString(),
      }),
    async close() {
      await app.close();
      await status.close();
      if (ownsDb) await db.close();
    },
  };
}

/** `Basic base64(user:password)`. */
export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
