// The endpoint `ledgerhook listen` subscribes: an HTTP server on 127.0.0.1 that verifies each
// notification with the subscription's secret, prints it, forwards it unchanged to the developer's
// application and answers the service with that application's status (docs/decisions/listen.md).
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../config.ts';
import { signatureMatches } from '../webhooks/signature.ts';
import { type Sent, send } from './send.ts';

export interface ListenerOptions {
  /** 0: any free port. */
  port: number;
  /** Where each verified notification is sent on; none: it is answered 204. */
  forward: URL | undefined;
  /** Print each body, and each forward's answer body. */
  verbose: boolean;
  /** One line (or, verbose, a block) of output. */
  print: (text: string) => void;
}

export interface Listener {
  /** The endpoint URL to subscribe: http://127.0.0.1:<port>/. */
  url: string;
  /** The subscription's secret; notifications that arrive before it wait for it. */
  trust(secret: string): void;
  /** Stops taking connections; resolves once the notifications under way are answered. */
  close(): Promise<void>;
}

// Standard Webhooks' tolerance: a signed timestamp further from this clock is a replay, or the clock is wrong.
const TIMESTAMP_TOLERANCE_S = 5 * 60;
// The service's own default budget for one attempt (WEBHOOK_TIMEOUT_MS): a forward that takes longer
// would have failed the attempt anyway.
const FORWARD_TIMEOUT_MS = 15_000;
// Far above any notification; a larger body is not one.
const MAX_BODY_BYTES = 16 * 1024 * 1024;
// Not forwarded: they describe this connection, not the notification.
const CONNECTION_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

export async function startListener(options: ListenerOptions): Promise<Listener> {
  let trusted: (secret: string | undefined) => void = () => {};
  const secret = new Promise<string | undefined>((resolve) => {
    trusted = resolve;
  });
  let closing = false;
  const server = createServer((request, response) => {
    // Once closing, a connection is closed as soon as its answer is out, not kept alive for more.
    response.on('finish', () => {
      if (closing) server.closeIdleConnections();
    });
    answer(request, response, secret, options).catch((error: unknown) => {
      options.print(`${now()} failed ${request.headers['webhook-id'] ?? ''}: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  server.listen(options.port, '127.0.0.1');
  try {
    await once(server, 'listening');
  } catch (error) {
    throw new ConfigError(`--port ${options.port}: cannot listen on 127.0.0.1: ${(error as Error).message}`);
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    trust: (value) => trusted(value),
    async close() {
      trusted(undefined);
      closing = true;
      const closed = once(server, 'close');
      server.close();
      server.closeIdleConnections();
      await closed;
    },
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  secret: Promise<string | undefined>,
  { forward, verbose, print }: ListenerOptions,
): Promise<void> {
  const body = await readBody(request);
  const id = header(request.headers, 'webhook-id');
  if (body === undefined) {
    print(`${now()} refused ${id || '(no webhook-id)'}: the body is over ${MAX_BODY_BYTES} bytes; answered 413`);
    response.writeHead(413).end();
    return;
  }
  const key = await secret;
  if (key === undefined) {
    response.writeHead(503).end(); // stopping: the subscription is being deleted
    return;
  }
  const problem = verificationProblem(request.headers, body, key);
  if (problem) {
    print(`${now()} refused ${id || '(no webhook-id)'}: ${problem}; answered 400`);
    response.writeHead(400).end();
    return;
  }
  print(`${now()} ${eventTypeOf(body)} ${id}`);
  if (verbose) print(readable(body));
  if (!forward) {
    response.writeHead(204).end();
    return;
  }
  const started = performance.now();
  let forwarded: Sent;
  try {
    forwarded = await send(forward, {
      method: 'POST',
      headers: forwardedHeaders(request.headers),
      body,
      timeoutMs: FORWARD_TIMEOUT_MS,
    });
  } catch (error) {
    // As the service would see it had it sent there itself: an attempt that failed, retried later.
    print(`${now()} ${id} not forwarded to ${forward.href}: ${(error as Error).message}; answered 502`);
    response.writeHead(502).end();
    return;
  }
  const ms = Math.round(performance.now() - started);
  print(`${now()} ${id} forwarded: ${forwarded.status} ${forwarded.statusText} (${ms} ms)`.trimEnd());
  if (verbose && forwarded.body.length > 0) print(forwarded.body.toString('utf8'));
  const type = forwarded.headers['content-type'];
  response.writeHead(forwarded.status, type ? { 'content-type': type } : {});
  // The service keeps an excerpt of what its endpoint answered: the application's answer, here.
  response.end([204, 304].includes(forwarded.status) ? undefined : forwarded.body);
}

/** The body, or undefined when it is larger than any notification. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Why the notification is not the subscription's, or undefined when its signature holds. */
function verificationProblem(headers: IncomingHttpHeaders, body: Buffer, secret: string): string | undefined {
  const messageId = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (!messageId || !timestamp || !signature) {
    return 'it lacks a webhook-id, webhook-timestamp or webhook-signature header';
  }
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - seconds) > TIMESTAMP_TOLERANCE_S) {
    return `its webhook-timestamp ${timestamp} is more than ${TIMESTAMP_TOLERANCE_S / 60} minutes from this clock`;
  }
  const content = { messageId, timestamp: seconds, body: body.toString('utf8') };
  if (!signatureMatches(content, signature, secret)) return "its webhook-signature is not the subscription's";
  return undefined;
}

/** Every header the service sent (webhook-*, content-type, user-agent), but those of the connection. */
function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !CONNECTION_HEADERS.has(name))
      kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function eventTypeOf(body: Buffer): string {
  try {
    const type = (JSON.parse(body.toString('utf8')) as { payload?: { eventType?: unknown } }).payload?.eventType;
    return typeof type === 'string' ? type : '(no eventType)';
  } catch {
    return '(not JSON)';
  }
}

/** The body as indented JSON, or as it is when it is not JSON. */
function readable(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function now(): string {
  return new Date().toISOString();
}
