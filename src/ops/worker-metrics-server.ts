// GET /metrics of a worker-only process (`--role worker`, METRICS_PORT; docs/decisions/
// webhook-delivery.md, "Metrics"): its attempts' histograms and Node's own figures. The fleet's
// queue gauges are the API's to report: they are read from the database, the same from any process.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerAttemptMetrics } from './attempt-metrics.ts';

export interface WorkerMetricsServer {
  /** The port it listens on (METRICS_PORT=0 takes a free one). */
  port: number;
  close(): Promise<void>;
}

export async function startWorkerMetricsServer(host: string, port: number): Promise<WorkerMetricsServer> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerAttemptMetrics(registry);
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(error)}\n`),
    );
  });
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
