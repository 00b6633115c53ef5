// One SERVER span per HTTP request, continuing an incoming W3C `traceparent`, registered only when
// tracing runs (docs/decisions/traces.md). A recorded span's context is made active for the hooks
// and the handler, so that database spans and a recorded event's traceparent hang under it; the
// attributes beyond the ones a sampler may read are built only for a span that is recorded. A
// request whose client goes away before its answer is written ends its span when the connection
// closes (Fastify runs no onResponse for it), marked as an error of type `aborted`.
import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tracer } from './trace-context.ts';

/** The span attribute naming the company a request is about. */
export const ATTR_COMPANY_ID = 'ledgerhook.company_id';

interface Traced {
  span: Span;
  context: Context;
  ended: boolean;
}

const traced = new WeakMap<FastifyRequest, Traced>();

export function registerRequestSpans(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url;
    const span = tracer().startSpan(
      route ? `${request.method} ${route}` : request.method,
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method } },
      parent,
    );
    // An unsampled request's span records nothing, and nothing under it reads it: its statements get
    // no span, its events store no traceparent and its log lines no trace id whether it is active or
    // not. So it is neither made active nor kept, and its request costs the sampler's decision alone.
    if (!span.isRecording()) return done();
    const active = trace.setSpan(parent, span);
    const entry: Traced = { span, context: active, ended: false };
    traced.set(request, entry);
    reply.raw.once('close', () => {
      if (entry.ended || reply.raw.writableFinished) return;
      entry.ended = true;
      span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the connection before the answer' });
      span.end();
    });
    context.with(active, done);
  });
  // The request body is read between the two, on the socket's own turns: made active again.
  app.addHook('preHandler', (request, _reply, done) => {
    const entry = traced.get(request);
    if (entry) context.with(entry.context, done);
    else done();
  });
  // Before the request's log line (server.ts), which is written with the span active.
  app.addHook('onResponse', (request, reply, done) => {
    const entry = traced.get(request);
    if (!entry || entry.ended) return done();
    entry.ended = true;
    const { span } = entry;
    if (span.isRecording()) {
      const route = request.routeOptions.url;
      span.setAttributes({
        [ATTR_HTTP_RESPONSE_STATUS_CODE]: reply.statusCode,
        [ATTR_URL_PATH]: request.url.split('?', 1)[0] as string,
      });
      if (route) span.setAttribute(ATTR_HTTP_ROUTE, route);
      const company = companyOf(request);
      if (company) span.setAttribute(ATTR_COMPANY_ID, company);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
    context.with(entry.context, done);
  });
}

/** The company a request names: its `companyId` in the body, the query or the path. */
function companyOf(request: FastifyRequest): string | undefined {
  for (const source of [request.body, request.query, request.params]) {
    const value = (source as { companyId?: unknown } | undefined)?.companyId;
    if (typeof value === 'string') return value;
  }
  return undefined;
}
