// An OTLP/HTTP trace receiver for the tests: POST /v1/traces on 127.0.0.1, answered 200. Bodies in
// http/json are decoded into spans; http/protobuf ones are only counted (no protobuf decoder ships).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** service.name of its resource. */
  service: string;
}

export interface OtlpReceiver {
  /** Base address, e.g. http://127.0.0.1:40123 (the exporter appends /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Every request: path and content type. */
  requests: { path: string; contentType: string }[];
  /** Resolves with the first span `match` accepts, when it has arrived; rejects after `timeoutMs`. */
  waitForSpan(match: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  /** Resolves once `n` requests have arrived; rejects after `timeoutMs`. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface OtlpJson {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: { key: string; value: OtlpValue }[];
      }[];
    }[];
  }[];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = String(request.headers['content-type'] ?? '');
      requests.push({ path: request.url ?? '', contentType });
      if (request.method === 'POST' && contentType.startsWith('application/json')) {
        spans.push(...decode(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJson));
      }
      response
        .writeHead(200, { 'content-type': contentType || 'application/json' })
        .end(contentType.startsWith('application/json') ? '{}' : '');
      for (const waiter of waiters) waiter();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const until = (ready: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!ready()) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${what} within ${timeoutMs} ms; spans so far: ${JSON.stringify(spans.map((s) => s.name))}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    requests,
    async waitForSpan(match, timeoutMs = 30_000) {
      await until(() => spans.some(match), 'no matching span', timeoutMs);
      return spans.find(match) as ReceivedSpan;
    },
    waitForRequests: (n, timeoutMs = 30_000) => until(() => requests.length >= n, `not ${n} requests`, timeoutMs),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function decode(body: OtlpJson): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpan) => {
    const service = String(attributesOf(resourceSpan.resource?.attributes)['service.name'] ?? '');
    return (resourceSpan.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        service,
      })),
    );
  });
}

function attributesOf(list: { key: string; value: OtlpValue }[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? '')),
    ]),
  );
}
