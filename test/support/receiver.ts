// A webhook receiver for tests and the bench: an HTTP server on 127.0.0.1 that records every request
// it gets (headers, exact body, arrival time) and answers 204, or what `respond` says.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Recorded {
  /** The webhook-id header (empty when absent). */
  id: string;
  /** The webhook-timestamp header (empty when absent). */
  timestamp: string;
  /** The webhook-signature header (empty when absent). */
  signature: string;
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes as text. */
  body: string;
  /** When the body had fully arrived: `performance.timeOrigin + performance.now()`, in ms. */
  receivedAt: number;
  /** The status this receiver answered. */
  status: number;
}

export interface Reply {
  status: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer once this settles (the request is recorded at once). */
  answerWhen?: Promise<unknown>;
}

export interface ReceiverOptions {
  /** What to answer to a request; called once the body arrived. Default: 204 at once. */
  respond?: (request: Recorded) => Reply;
}

export interface Receiver {
  /** Base address, e.g. http://127.0.0.1:40123/. Any path is accepted. */
  url: string;
  /** Every request so far, in arrival order. */
  requests: Recorded[];
  /** Resolves once `n` requests have arrived; rejects after `timeoutMs` (30 s by default). */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const requests: Recorded[] = [];
  const waiters = new Set<{ n: number; resolve: () => void }>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      const recorded: Recorded = {
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: performance.timeOrigin + performance.now(),
        status: 204,
      };
      const reply = options.respond?.(recorded) ?? { status: 204 };
      recorded.status = reply.status;
      requests.push(recorded);
      for (const waiter of waiters) {
        if (requests.length >= waiter.n) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
      const answer = () => {
        if (!response.destroyed) response.writeHead(reply.status).end();
      };
      if (reply.answerWhen) void reply.answerWhen.finally(answer);
      else if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 10_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    async waitFor(n, timeoutMs = 30_000) {
      if (requests.length >= n) return;
      let waiter: { n: number; resolve: () => void } | undefined;
      const arrived = new Promise<void>((resolve) => {
        waiter = { n, resolve };
        waiters.add(waiter);
      });
      const controller = new AbortController();
      const timedOut = sleep(timeoutMs, undefined, { signal: controller.signal }).then(() => {
        throw new Error(`the receiver got ${requests.length} of ${n} requests within ${timeoutMs} ms`);
      });
      try {
        await Promise.race([arrived, timedOut]);
      } finally {
        controller.abort();
        timedOut.catch(() => {});
        if (waiter) waiters.delete(waiter);
      }
    },
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
