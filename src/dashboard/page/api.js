// The page's only way to the service: the public API, with the credential the user signed in with.
// The credential lives in sessionStorage (this tab, until it closes or signs out): never in a URL,
// a cookie or localStorage.

const STORAGE_KEY = 'ledgerhook.dashboard.credential';
// The page is served at <service>/dashboard/: the API is one level up (a path prefix is kept).
const SERVICE = new URL('../', location.href);

/** An answer other than 2xx, with the problem+json fields the page branches on. */
export class ApiProblem extends Error {
  /**
   * @param {number} status 0 when the service did not answer
   * @param {any} body the parsed problem+json (or OAuth error) body, if any
   * @param {number | null} [retryAfter]
   */
  constructor(status, body, retryAfter = null) {
    super(body?.detail ?? body?.error_description ?? body?.title ?? `HTTP ${status}`);
    this.status = status;
    this.type = body?.type ?? body?.error ?? null;
    /** @type {{ path?: string, field?: string, message?: string }[]} */
    this.errors = Array.isArray(body?.errors) ? body.errors : [];
    /** Seconds to wait (429), from Retry-After. */
    this.retryAfter = retryAfter;
  }
}

/** @typedef {'apiKey' | 'client' | 'token'} CredentialKind */

/** The signed-in credential: { kind: CredentialKind, bearer, label, expiresAt? } or null. */
export function credential() {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
  } catch {
    return null;
  }
}

export function signOut() {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** Sends a request with the credential; answers the parsed JSON body (undefined for 204). */
export async function api(method, path, body) {
  const bearer = credential()?.bearer;
  return send(method, path, {
    headers: {
      accept: 'application/json',
      ...(bearer && { authorization: `Bearer ${bearer}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function send(method, path, init) {
  let response;
  try {
    response = await fetch(new URL(path, SERVICE), { method, cache: 'no-store', credentials: 'omit', ...init });
  } catch {
    throw new ApiProblem(0, { detail: 'The service did not answer: check that it is running and your network' });
  }
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after')) || null;
    throw new ApiProblem(response.status, json, retryAfter);
  }
  return json;
}

/**
 * Checks a credential with a call every credential may make, then keeps it. An API key and a pasted
 * token are sent as they are; a client id and secret are exchanged at /oauth/token for a token, and
 * only the token is kept.
 * @param {CredentialKind} kind
 * @param {{ secret: string, clientId: string, clientSecret: string }} values
 */
export async function signIn(kind, values) {
  let stored;
  if (kind === 'client') {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: values.clientId.trim(),
      client_secret: values.clientSecret.trim(),
    });
    const token = await send('POST', 'oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    });
    stored = {
      kind,
      bearer: token.access_token,
      label: `client ${values.clientId.trim()}`,
      expiresAt: Date.now() + token.expires_in * 1000,
    };
  } else {
    const secret = values.secret.trim();
    stored = { kind, bearer: secret, label: kind === 'apiKey' ? `API key ${secret.slice(0, 8)}…` : 'pasted token' };
  }
  await send('GET', 'v1/event-types', {
    headers: { accept: 'application/json', authorization: `Bearer ${stored.bearer}` },
  });
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  return stored;
}

/** `path?name=value…`, leaving out empty values. */
export function withQuery(path, query) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
