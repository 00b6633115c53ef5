// How each request is authorised: a fixed bearer value (an API key or a token of your own), or an
// OAuth 2.0 client-credentials token fetched from the service and fetched again before it expires.

export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** Sends the token request: resolves with a 2xx answer's body, throws a LedgerhookError otherwise. */
export type TokenRequest = (form: URLSearchParams) => Promise<{ body: unknown }>;

export interface Authorizer {
  /** The Authorization header value for the next request. */
  header(): Promise<string>;
  /** The header was refused (401): drop what is cached. True when a retry could use a new credential. */
  refused(): boolean;
}

export function fixedBearer(value: string): Authorizer {
  const header = `Bearer ${value}`;
  return { header: async () => header, refused: () => false };
}

// A token is fetched again once this much of its lifetime is left (at most a minute), so a request
// never leaves with a token that expires on its way.
const REFRESH_AHEAD_SHARE = 0.2;
const REFRESH_AHEAD_MAX_MS = 60_000;

export function clientCredentials(
  options: { clientId: string; clientSecret: string; scope?: string },
  request: TokenRequest,
  now: () => number = Date.now,
): Authorizer {
  let cached: { header: string; refreshAt: number } | undefined;
  // Concurrent requests share one token request.
  let pending: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    if (options.scope) form.set('scope', options.scope);
    const started = now();
    const answer = (await request(form)).body as TokenAnswer;
    const lifetimeMs = answer.expires_in * 1000;
    const header = `Bearer ${answer.access_token}`;
    cached = {
      header,
      refreshAt: started + lifetimeMs - Math.min(lifetimeMs * REFRESH_AHEAD_SHARE, REFRESH_AHEAD_MAX_MS),
    };
    return header;
  }

  return {
    header() {
      if (cached && now() < cached.refreshAt) return Promise.resolve(cached.header);
      pending ??= fetchToken().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    refused() {
      const had = cached !== undefined;
      cached = undefined;
      return had;
    },
  };
}
