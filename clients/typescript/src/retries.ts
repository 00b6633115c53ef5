// Which requests are sent again after a 429 or 503, and when (docs/decisions/client.md).
import { OPERATIONS } from './generated/openapi.ts';

export type OperationId = keyof typeof OPERATIONS;

/** Reads sent as POST: a search or a calculation changes nothing. */
const POST_READ = /:(search|calculate-tax-amounts)$/;

/**
 * True where sending the request again cannot do twice what it asks: reads, and creates the service
 * replays (an identical create answers 200 with what the first stored, so both answers list 200 and
 * 201). A batch create answers an item it already created in `created`, so a resent batch is a replay too.
 */
export function retrySafe(operationId: OperationId): boolean {
  const { method, path, statuses } = OPERATIONS[operationId];
  if (method === 'GET' || (method === 'POST' && POST_READ.test(path))) return true;
  const answers: readonly number[] = statuses;
  if (method === 'POST' && answers.includes(200) && answers.includes(201)) return true;
  return operationId === 'createAccountsBatchV1';
}

export const RETRIED_STATUSES = new Set([429, 503]);

/**
 * How long to wait before attempt `retry` (1 for the first retry): the answer's Retry-After (seconds
 * or an HTTP date) when it has one, else 0.5 s doubled each time with jitter.
 */
export function retryDelayMs(headers: Headers, retry: number, now: number = Date.now()): number {
  const value = headers.get('retry-after');
  if (value !== null) {
    if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return 500 * 2 ** (retry - 1) * (0.75 + Math.random() * 0.5);
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
