// The trace and span id a log line carries when tracing runs (pino's `mixin`): those of the active
// span when it is sampled, so that a line leads to a trace the collector has.
import { TraceFlags, trace } from '@opentelemetry/api';

const NONE = {};

export function traceLogFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return NONE;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return traceFlags & TraceFlags.SAMPLED ? { trace_id: traceId, span_id: spanId } : NONE;
}
