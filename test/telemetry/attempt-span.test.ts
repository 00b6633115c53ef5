// A delivery attempt's span, with a tracer provider of this process exporting to memory: what it
// says of the attempt, and of the wait for its subscription's rate slot (docs/decisions/traces.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { sendTraced } from '../../src/telemetry/attempt-span.ts';
import { tracingState } from '../../src/telemetry/trace-context.ts';
import type { ClaimedMessage } from '../../src/webhooks/delivery-store.ts';
import type { AttemptOutcome } from '../../src/webhooks/send-notification.ts';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

before(() => {
  trace.setGlobalTracerProvider(provider);
  tracingState.enabled = true;
});
after(async () => {
  tracingState.enabled = false;
  trace.disable();
  await provider.shutdown();
});

function message(waitMs: number): ClaimedMessage {
  return {
    messageId: 'msg_1',
    subscriptionId: '6f1c2a7e-1b2d-4c3e-8f4a-5b6c7d8e9f01',
    tenant: 'tenant',
    attempts: 0,
    waitMs,
    ageMs: 0,
    subscriptionUpdatedAt: '2026-01-01 00:00:00+00',
    eventTraceparent: null,
    endpointUrl: 'https://receiver.example:8443/hooks',
    payload: { eventId: 'evt_1', eventType: 'v1.account.created' },
    secrets: [],
    customHeaders: {},
  } as unknown as ClaimedMessage;
}

const delivered = { succeeded: true, statusCode: 204, error: null } as AttemptOutcome;

describe('the span of a delivery attempt', () => {
  it('says how long a rated message waited for its slot, and nothing of a wait when there was none', async () => {
    exporter.reset();
    await sendTraced(message(1234.4), async () => delivered);
    await sendTraced(message(0), async () => delivered);
    const [waited, unwaited] = exporter.getFinishedSpans();
    assert.equal(waited?.attributes['ledgerhook.rate_wait_ms'], 1234);
    assert.equal(unwaited?.attributes['ledgerhook.rate_wait_ms'], undefined);
    assert.deepEqual(
      [waited?.attributes['server.address'], waited?.attributes['server.port']],
      ['receiver.example', 8443],
    );
  });

  it('hands the send a traceparent naming the span', async () => {
    exporter.reset();
    let sent: string | undefined;
    await sendTraced(message(0), async (traceparent) => {
      sent = traceparent;
      return delivered;
    });
    const [span] = exporter.getFinishedSpans();
    const context = span?.spanContext();
    assert.equal(sent, `00-${context?.traceId}-${context?.spanId}-01`);
  });
});
