// One notification attempt (docs/decisions/webhook-delivery.md): a signed POST, time-boxed as a
// whole, redirects never followed, only public addresses connected to unless private targets are
// allowed, and at most 4 KiB of the answer kept. It never throws: every way an attempt can end is
// an outcome.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { VERSION } from '../version.ts';
import { endpointUrlProblem, publicOnlyLookup } from './endpoint-guard.ts';
import type { EventPayload } from './event-payload.ts';
import { retryAfterMs } from './retry-after.ts';
import { signatureHeader } from './signature.ts';

/** How much of a response body the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 4096;

export interface Notification {
  /** The webhook-id: the message id, the same on every attempt. */
  messageId: string;
  endpointUrl: string;
  /** What the body carries: the same on every attempt (event-payload.ts). */
  payload: EventPayload;
  /** Every active signing secret (two during a rotation). */
  secrets: readonly string[];
  basicAuth?: { username: string; password: string };
  customHeaders: Readonly<Record<string, string>>;
  /** The W3C traceparent naming this attempt's span, when tracing runs (telemetry/attempt-span.ts). */
  traceparent?: string;
}

export interface AttemptOutcome {
  succeeded: boolean;
  /** The HTTP status, or null when no response came. */
  statusCode: number | null;
  /** Why no 2xx came when there was no response (timeout, refused, TLS, private address…). */
  error: string | null;
  /** The first 4 KiB of the response body, or null without a response. */
  responseBody: string | null;
  /** The wait a 429 or 503 asked for with Retry-After, in milliseconds (retry-after.ts), else null. */
  retryAfterMs: number | null;
  durationMs: number;
  startedAt: Date;
}

export interface NotificationSender {
  send(notification: Notification): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

export interface SenderOptions {
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: allow http:// and loopback/private addresses (tests, local work). */
  allowPrivateTargets: boolean;
}

// Set by us on every notification; custom headers cannot replace them or the framing.
const RESERVED = /^(webhook-|host$|content-length$|transfer-encoding$|connection$)/i;

/** The exact body bytes that are signed and sent. */
export function notificationBody(n: Pick<Notification, 'payload'>): string {
  return JSON.stringify({ payload: n.payload });
}

/** The headers of one attempt, signed at `timestamp` (Unix seconds): fixed ones, Basic auth, then custom ones. */
export function notificationHeaders(n: Notification, body: string, timestamp: number): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `ledgerhook/${VERSION}`,
    'webhook-id': n.messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader({ messageId: n.messageId, timestamp, body }, n.secrets),
  };
  if (n.basicAuth) {
    const credentials = Buffer.from(`${n.basicAuth.username}:${n.basicAuth.password}`).toString('base64');
    headers.authorization = `Basic ${credentials}`;
  }
  for (const [name, value] of Object.entries(n.customHeaders)) {
    if (!RESERVED.test(name)) headers[name.toLowerCase()] = value;
  }
  // The attempt's own trace context, over a custom header of that name.
  if (n.traceparent) headers.traceparent = n.traceparent;
  return headers;
}

export function createNotificationSender(options: SenderOptions): NotificationSender {
  const agent = new Agent({
    pipelining: 1,
    keepAliveTimeout: 30_000,
    connect: {
      timeout: options.timeoutMs,
      ...(options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup }),
    },
  });

  async function send(n: Notification): Promise<AttemptOutcome> {
    const startedAt = new Date();
    const start = performance.now();
    const finish = (
      outcome: Pick<AttemptOutcome, 'statusCode' | 'error' | 'responseBody'> &
        Partial<Pick<AttemptOutcome, 'retryAfterMs'>>,
    ): AttemptOutcome => ({
      retryAfterMs: null,
      ...outcome,
      succeeded: outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300,
      durationMs: Math.round(performance.now() - start),
      startedAt,
    });
    // The lookup guard sees names only; literal addresses and the scheme are checked here.
    const problem = endpointUrlProblem(n.endpointUrl, options.allowPrivateTargets);
    if (problem) return finish({ statusCode: null, error: `endpoint URL ${problem}`, responseBody: null });

    const body = notificationBody(n);
    const headers = notificationHeaders(n, body, Math.floor(Date.now() / 1000));
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      // undici's request() follows no redirects: a 3xx is answered as it is, a failed attempt.
      const response = await request(n.endpointUrl, { dispatcher: agent, method: 'POST', headers, body, signal });
      const responseBody = await readExcerpt(response.body);
      return finish({
        statusCode: response.statusCode,
        error: null,
        responseBody,
        retryAfterMs: retryAfterMs(response.statusCode, response.headers['retry-after']),
      });
    } catch (error) {
      const timedOut = signal.aborted;
      return finish({
        statusCode: null,
        error: timedOut ? `timed out after ${options.timeoutMs} ms` : describeError(error),
        responseBody: null,
      });
    }
  }

  return { send, close: () => agent.close() };
}

/** The first RESPONSE_EXCERPT_BYTES of a body as text; the rest is discarded unread. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_EXCERPT_BYTES) break;
  }
  body.destroy();
  const text = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
  // PostgreSQL text cannot hold NUL.
  return text.replaceAll('\0', '');
}

function describeError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const effective = code && code !== 'UND_ERR_SOCKET' ? code : (cause?.code ?? code);
  if (effective === 'ECONNREFUSED') return 'connection refused';
  if (effective === 'ECONNRESET' || effective === 'UND_ERR_SOCKET') return 'connection closed by the endpoint';
  if (effective === 'ENOTFOUND' || effective === 'EAI_AGAIN') return 'endpoint host name did not resolve';
  if (effective === 'ERR_PRIVATE_ADDRESS') return message ?? 'not a public address';
  if (effective === 'UND_ERR_CONNECT_TIMEOUT') return 'connect timed out';
  if (effective && /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(effective)) {
    return `TLS error: ${effective}`;
  }
  return effective ? `${effective}: ${message ?? ''}`.trim() : (message ?? 'request failed');
}
