// The trace context the service reads and writes: whether tracing runs, the tracer, and the W3C
// traceparent of the active span for an event to keep (docs/decisions/traces.md).
import { type Span, TraceFlags, trace } from '@opentelemetry/api';
import { VERSION } from '../version.ts';

/** Set once by startTracing; until then every helper here returns at once. */
export const tracingState = { enabled: false };

export function tracer() {
  return trace.getTracer('ledgerhook', VERSION);
}

/** The active span when tracing runs and it is recorded, else undefined. */
export function recordingSpan(): Span | undefined {
  if (!tracingState.enabled) return undefined;
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span : undefined;
}

/** `00-<trace id>-<span id>-<flags>` of `span`. */
export function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The traceparent of the active span when it is sampled, for the event a change records; else null. */
export function sampledTraceparent(): string | null {
  if (!tracingState.enabled) return null;
  const span = trace.getActiveSpan();
  return span && span.spanContext().traceFlags & TraceFlags.SAMPLED ? traceparentOf(span) : null;
}
