-- The W3C traceparent of the span that recorded an event, when that span was sampled (OpenTelemetry
-- traces, docs/decisions/traces.md): each delivery attempt of the event is a span of that trace, and
-- its notification carries a traceparent naming the attempt. Null without tracing, for an unsampled
-- request, and for the events recorded before this column.
ALTER TABLE events ADD COLUMN traceparent text;
