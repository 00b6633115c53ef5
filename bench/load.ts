// One timed load: autocannon drives the requests; latencies are taken from every 2xx response at
// microsecond resolution (autocannon's own histogram rounds to whole milliseconds).
import autocannon from 'autocannon';
import { startIoStallWatch } from './io-pressure.ts';

export type LoadRequest = autocannon.Request;

export interface LoadOptions {
  /** Base address, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The sequence each connection cycles through. */
  requests: LoadRequest[];
  connections: number;
  seconds: number;
  /** A short untimed run first, so that caches, pools and the JIT are warm. */
  warmupSeconds?: number;
}

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  /**
   * Non-2xx answers, connection errors and timeouts, or every request sent when none was answered:
   * a figure with any is not a measurement.
   */
  failures: number;
  /** Share of the timed seconds during which some task on the machine waited for I/O, in %. */
  ioStallPercent?: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds) await fire({ ...options, seconds: options.warmupSeconds });
  const ioStall = startIoStallWatch();
  const result = await fire(options);
  return { ...result, ioStallPercent: ioStall() };
}

function fire(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        requests: options.requests,
        timeout: 10,
      },
      (error, result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        resolve({
          rps: result['2xx'] / result.duration,
          p50Ms: percentile(latencies, 0.5),
          p99Ms: percentile(latencies, 0.99),
          responses: result['2xx'],
          // Requests still unanswered when the run ends count nowhere: a service that answered
          // nothing at all failed every request it was sent.
          failures: result.non2xx + result.errors + (result['2xx'] === 0 ? result.requests.sent : 0),
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}
