// Each delivery attempt as a CLIENT span in the trace its event was recorded in (the traceparent the
// event keeps, migration 0036), and the W3C traceparent naming that span for the notification's
// header, so that a receiver that traces continues the same trace (docs/decisions/traces.md).
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions';
import type { ClaimedMessage } from '../webhooks/delivery-store.ts';
import type { AttemptOutcome } from '../webhooks/send-notification.ts';
import { traceparentOf, tracer, tracingState } from './trace-context.ts';

/**
 * Runs `send` (given the traceparent to send, when tracing runs) inside the attempt's span. An event
 * recorded without a sampled span (tracing off then, an unsampled request) starts a trace of its own,
 * which the sampler decides on.
 */
export async function sendTraced(
  message: ClaimedMessage,
  send: (traceparent: string | undefined) => Promise<AttemptOutcome>,
): Promise<AttemptOutcome> {
  if (!tracingState.enabled) return send(undefined);
  const parent = message.eventTraceparent
    ? propagation.extract(ROOT_CONTEXT, { traceparent: message.eventTraceparent })
    : ROOT_CONTEXT;
  const span = tracer().startSpan(
    'POST webhook',
    { kind: SpanKind.CLIENT, attributes: { [ATTR_HTTP_REQUEST_METHOD]: 'POST' } },
    parent,
  );
  const outcome = await send(traceparentOf(span));
  if (span.isRecording()) {
    const endpoint = URL.parse(message.endpointUrl);
    span.setAttributes({
      'ledgerhook.message_id': message.messageId,
      'ledgerhook.subscription_id': message.subscriptionId,
      'ledgerhook.event_id': message.payload.eventId,
      'ledgerhook.event_type': message.payload.eventType,
      'ledgerhook.attempt': message.attempts + 1,
      // How long it waited for its subscription's rate slot before this span began.
      ...(message.waitMs > 0 && { 'ledgerhook.rate_wait_ms': Math.round(message.waitMs) }),
      ...(endpoint && {
        [ATTR_SERVER_ADDRESS]: endpoint.hostname,
        [ATTR_SERVER_PORT]: Number(endpoint.port) || (endpoint.protocol === 'https:' ? 443 : 80),
      }),
      ...(outcome.statusCode !== null && { [ATTR_HTTP_RESPONSE_STATUS_CODE]: outcome.statusCode }),
    });
    if (!outcome.succeeded) {
      span.setAttribute(ATTR_ERROR_TYPE, outcome.statusCode === null ? 'no response' : String(outcome.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR, ...(outcome.error && { message: outcome.error }) });
    }
  }
  span.end();
  return outcome;
}
