// What `ledgerhook listen` asks of a running service, over its public HTTP API and with a credential
// an application holds: an API key, a bearer token, or a client id and secret exchanged at
// /oauth/token (docs/decisions/listen.md).
import { CommandFailure } from '../command-failure.ts';
import { ConfigError } from '../config.ts';
import { type Sent, send } from './send.ts';

export type Credential =
  | { kind: 'api-key'; key: string }
  | { kind: 'token'; token: string }
  | { kind: 'client'; clientId: string; clientSecret: string };

/** A service's answer: its status and its JSON body (undefined when it had none, or not JSON). */
export interface Answer {
  status: number;
  body: Record<string, unknown> | undefined;
}

export interface EventTypeEntry {
  eventType: string;
  scopes: string[];
}

/**
 * The service could not be asked, or failed to answer: one line, exit code 1. A refusal of the
 * credential or the request is a ConfigError (exit code 2): asking again would not mend it.
 */
export class ServiceUnavailableError extends CommandFailure {}

export interface ServiceClient {
  eventTypes(): Promise<EventTypeEntry[]>;
  /** The create's answer as it is: the caller reads its refusals (listen.ts). */
  createSubscription(request: { eventTypes: string[]; endpointUrl: string }): Promise<Answer>;
  secretOf(subscriptionId: string): Promise<string>;
  deleteSubscription(subscriptionId: string): Promise<void>;
}

// A call that has not been answered by then is given up: the service is stuck or out of reach.
const CALL_TIMEOUT_MS = 30_000;
// A token from /oauth/token is fetched again this long before it expires.
const TOKEN_RENEWAL_MARGIN_MS = 60_000;

export function serviceClient(baseUrl: URL, credential: Credential): ServiceClient {
  let issued: { bearer: string; renewAt: number } | undefined;

  /** The bearer: the key or token as given; for a client, a token it gets, again when it is to expire. */
  async function bearer(): Promise<string> {
    if (credential.kind === 'api-key') return credential.key;
    if (credential.kind === 'token') return credential.token;
    if (issued && Date.now() < issued.renewAt) return issued.bearer;
    const answer = await call('POST', 'oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credential.clientId,
        client_secret: credential.clientSecret,
      }).toString(),
    });
    const token = answer.body?.access_token;
    const expiresIn = Number(answer.body?.expires_in);
    if (answer.status !== 200 || typeof token !== 'string') {
      throw refusal(answer, `the service refused the client credentials of ${credential.clientId}`);
    }
    issued = { bearer: token, renewAt: Date.now() + expiresIn * 1000 - TOKEN_RENEWAL_MARGIN_MS };
    return token;
  }

  async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
    let sent: Sent;
    try {
      sent = await send(new URL(path, baseUrl), {
        method,
        headers: { accept: 'application/json', ...init.headers },
        body: init.body,
        timeoutMs: CALL_TIMEOUT_MS,
      });
    } catch (error) {
      throw new ServiceUnavailableError(
        `cannot reach the service at ${baseUrl.href}: ${(error as Error).message} (see --url)`,
      );
    }
    let body: Record<string, unknown> | undefined;
    try {
      body = sent.body.length > 0 ? JSON.parse(sent.body.toString('utf8')) : undefined;
    } catch {
      body = undefined;
    }
    return { status: sent.status, body };
  }

  async function api(method: string, path: string, json?: unknown): Promise<Answer> {
    const authorization = `Bearer ${await bearer()}`;
    return call(method, path, {
      headers: { authorization, ...(json !== undefined && { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  }

  return {
    async eventTypes() {
      const answer = await api('GET', 'v1/event-types');
      if (answer.status !== 200 || !Array.isArray(answer.body?.data)) {
        throw refusal(answer, 'the service refused to list the event types');
      }
      return answer.body.data as EventTypeEntry[];
    },
    createSubscription: (request) => api('POST', 'v1/subscriptions', request),
    async secretOf(id) {
      const answer = await api('GET', `v1/subscriptions/${id}/secret`);
      const secret = (answer.body?.data as { secretKey?: unknown } | undefined)?.secretKey;
      if (answer.status !== 200 || typeof secret !== 'string') {
        throw refusal(answer, `the service refused the secret of subscription ${id}`);
      }
      return secret;
    },
    async deleteSubscription(id) {
      const answer = await api('DELETE', `v1/subscriptions/${id}`);
      if (answer.status !== 204) throw refusal(answer, `the service refused to delete subscription ${id}`);
    },
  };
}

/**
 * `what` and the answer's reason, as an error: a refusal of what was asked (400, 401, 403, 404) is
 * not mended by asking again, anything else (a 409, a rate limit, a 5xx) may be.
 */
export function refusal(answer: Answer, what: string): Error {
  const message = `${what}: ${describeAnswer(answer)}`;
  return [400, 401, 403, 404].includes(answer.status) ? new ConfigError(message) : new ServiceUnavailableError(message);
}

/** `401 UNAUTHORIZED: …`, with each invalid field; the token endpoint's OAuth errors too. */
export function describeAnswer({ status, body }: Answer): string {
  if (typeof body?.error === 'string') return `${status} ${body.error}: ${body.error_description}`;
  if (typeof body?.type !== 'string') return `${status}`;
  const fields = Array.isArray(body.errors)
    ? (body.errors as { path?: string; message?: string }[]).map((e) => ` ${e.path} ${e.message}`)
    : [];
  return `${status} ${body.type}: ${body.detail ?? body.message}${fields.length > 0 ? ` (${fields.join(';').trim()})` : ''}`;
}
