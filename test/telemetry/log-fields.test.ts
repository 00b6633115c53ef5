// The trace fields of a log line: those of a sampled active span, and nothing kept between lines.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { context, TraceFlags, trace } from '@opentelemetry/api';
import pino from 'pino';
import { AsyncLocalStorageContextManager } from '../../src/telemetry/context-manager.ts';
import { traceLogFields } from '../../src/telemetry/log-fields.ts';

describe('traceLogFields', () => {
  it("names a sampled span's trace, no unsampled one's, and keeps no line's fields for the next", () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const logger = pino({ mixin: traceLogFields }, sink);
    const manager = new AsyncLocalStorageContextManager();
    context.setGlobalContextManager(manager);
    try {
      const sampled = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED };
      const unsampled = { ...sampled, traceFlags: TraceFlags.NONE };
      logger.info({ first: 1 }, 'outside');
      context.with(trace.setSpanContext(context.active(), sampled), () => logger.info('sampled'));
      context.with(trace.setSpanContext(context.active(), unsampled), () => logger.info('unsampled'));
      logger.info('outside again');
      const fields = lines.map(({ msg, trace_id, span_id, first }) => ({ msg, trace_id, span_id, first }));
      assert.deepEqual(fields, [
        { msg: 'outside', trace_id: undefined, span_id: undefined, first: 1 },
        { msg: 'sampled', trace_id: sampled.traceId, span_id: sampled.spanId, first: undefined },
        { msg: 'unsampled', trace_id: undefined, span_id: undefined, first: undefined },
        { msg: 'outside again', trace_id: undefined, span_id: undefined, first: undefined },
      ]);
    } finally {
      context.disable();
    }
  });
});
