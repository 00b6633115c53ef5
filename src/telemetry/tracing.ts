// Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (config.ts): the
// global tracer provider, the AsyncLocalStorage context and the W3C propagator. Without it nothing
// here runs and the API's no-op tracer answers every call (docs/decisions/traces.md).
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../config.ts';
import { VERSION } from '../version.ts';
import { AsyncLocalStorageContextManager } from './context-manager.ts';
import { tracingState } from './trace-context.ts';

export interface Tracing {
  /** Sends the spans not yet sent and stops. */
  shutdown(): Promise<void>;
}

export async function startTracing(config: TracingConfig): Promise<Tracing> {
  const provider = new TracerProvider({
    sampler: samplerOf(config),
    resource: resourceFromAttributes({
      ...config.resourceAttributes,
      [ATTR_SERVICE_NAME]: config.serviceName,
      [ATTR_SERVICE_VERSION]: VERSION,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: await exporterOf(config),
        scheduledDelayMillis: config.batches.scheduleDelayMs,
        maxExportBatchSize: config.batches.maxExportBatchSize,
        maxQueueSize: config.batches.maxQueueSize,
        exportTimeoutMillis: config.batches.exportTimeoutMs,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracingState.enabled = true;
  return {
    async shutdown() {
      await provider.shutdown();
    },
  };
}

function samplerOf({ sampler, samplerRatio }: TracingConfig): Sampler {
  const root = sampler.endsWith('always_on')
    ? new AlwaysOnSampler()
    : sampler.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(samplerRatio);
  return sampler.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

// Each exporter is loaded only for its protocol.
async function exporterOf({ endpoint, headers, protocol }: TracingConfig): Promise<SpanExporter> {
  const { OTLPTraceExporter } =
    protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url: endpoint, headers });
}
