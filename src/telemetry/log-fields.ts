// The trace and span id a log line carries when tracing runs (pino's `mixin`): those of the active
// span when it is sampled, so that a line leads to a trace the collector has.
import { TraceFlags, trace } from '@opentelemetry/api';

// A new object each call: pino merges the line's own fields into what the mixin returns.
export function traceLogFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return traceFlags & TraceFlags.SAMPLED ? { trace_id: traceId, span_id: spanId } : {};
}
