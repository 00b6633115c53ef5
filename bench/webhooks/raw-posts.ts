// The machine's ceiling for webhook delivery: undici Pool POSTs of one notification's exact body and
// headers to the same receivers, as fast as `concurrency` requests in flight allow, with no database.
import { Pool } from 'undici';

export interface RawResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Answers other than 204, and errors: a figure with either is not a measurement. */
  failures: number;
}

export interface RawOptions {
  urls: string[];
  body: string;
  headers: Record<string, string>;
  total: number;
  concurrency: number;
}

/** Sends `total` POSTs round-robin over `urls`, `concurrency` at a time, each origin its own Pool. */
export async function runRawPosts(options: RawOptions): Promise<RawResult> {
  const pools = options.urls.map((url) => ({ pool: new Pool(new URL(url).origin, { keepAliveTimeout: 30_000 }), url }));
  let next = 0;
  let failures = 0;
  const sendNext = async (): Promise<void> => {
    for (let i = next++; i < options.total; i = next++) {
      const target = pools[i % pools.length];
      if (!target) continue;
      try {
        const response = await target.pool.request({
          origin: target.url,
          path: new URL(target.url).pathname,
          method: 'POST',
          headers: options.headers,
          body: options.body,
        });
        await response.body.dump();
        if (response.statusCode !== 204) failures++;
      } catch {
        failures++;
      }
    }
  };
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: options.concurrency }, sendNext));
    const seconds = (performance.now() - started) / 1000;
    return { requests: options.total, seconds, rps: options.total / seconds, failures };
  } finally {
    await Promise.all(pools.map(({ pool }) => pool.close()));
  }
}
