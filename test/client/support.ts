// A real ledgerhook for the client's tests: the service on a socket at 127.0.0.1 (API keys, OAuth
// client credentials and test tokens all accepted), on the suite's database, with a delivery worker
// when a test needs notifications. Every request the client sends is recorded.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { mintToken } from '../../src/auth/mint-token.ts';
import type { RateLimitSettings } from '../../src/http/rate-limit.ts';
import { type CredentialsApp, startCredentialsApp } from '../credentials/support.ts';
import { ALL_SCOPES, TEST_JWT_SECRET } from '../support/harness.ts';
import { startTestWorker, type TestWorker } from '../webhooks/delivery/fixtures.ts';

/** Every scope a client may hold: the client's tests reach every resource. */
export const EVERY_SCOPE = ALL_SCOPES.join(' ');

export interface SentRequest {
  method: string;
  url: URL;
  status: number;
  /** performance.now() when it was sent, and when its answer came. */
  sentAt: number;
  answeredAt: number;
  retryAfter: string | null;
  /** The Authorization header it carried. */
  authorization: string | null;
}

export interface ClientTestService {
  baseUrl: string;
  service: CredentialsApp;
  /** Started by `startClientTestService({ worker: true })`. */
  worker?: TestWorker;
  /** A registered application of one new company: its id, secret and API key. */
  application(scope?: string): Promise<{ companyId: string; clientId: string; clientSecret: string; apiKey: string }>;
  /** A test token (HS256) for a new user of `companyId`. */
  token(companyId: string, scope?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startClientTestService(
  options: { worker?: boolean; rateLimits?: RateLimitSettings } = {},
): Promise<ClientTestService> {
  const service = await startCredentialsApp({ webhookAllowPrivateTargets: true, rateLimits: options.rateLimits });
  let worker: TestWorker | undefined;
  try {
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    if (options.worker) worker = await startTestWorker(service.db);
  } catch (error) {
    await service.close();
    throw error;
  }
  const { port } = service.app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    service,
    ...(worker && { worker }),
    async application(scope = EVERY_SCOPE) {
      const created = await service.createClient({ scope });
      return {
        companyId: created.client.companies[0] as string,
        clientId: created.client.id,
        clientSecret: created.clientSecret,
        apiKey: created.apiKeyValue,
      };
    },
    token: (companyId, scope = EVERY_SCOPE) =>
      mintToken(TEST_JWT_SECRET, { subject: randomUUID(), companies: [companyId], scope }),
    async close() {
      await worker?.stop();
      await service.close();
    },
  };
}

/** A fetch that records what it sends, for the client's `fetch` option. */
export function recordingFetch(sent: SentRequest[]): typeof fetch {
  return async (input, init) => {
    const sentAt = performance.now();
    const response = await fetch(input, init);
    sent.push({
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      status: response.status,
      sentAt,
      answeredAt: performance.now(),
      retryAfter: response.headers.get('retry-after'),
      authorization: new Headers(init?.headers).get('authorization'),
    });
    return response;
  };
}
