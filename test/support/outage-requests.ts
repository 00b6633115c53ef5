// Requests to a served process whose database goes away (restarted, stopped, its sessions ended),
// as a client sees their answers, and what such a test waits for (docs/decisions/database-outages.md).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Receiver } from './receiver.ts';

export interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
}

/** What the service may answer while its database is away: 2xx, or 503 saying when to try again. */
export function answersAsItMay(answer: Answer): boolean {
  return answer.status < 300 || (answer.status === 503 && answer.retryAfter === '2');
}

/** Sends a request with a JSON body, if any; rejects when no answer comes within 15 s. */
export async function sendRequest(
  baseUrl: string,
  authorization: string,
  method: string,
  path: string,
  body?: object,
): Promise<Answer> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { authorization, ...(body && { 'content-type': 'application/json' }) },
    ...(body && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

/** The ids of what the receiver's webhooks announced (`payload.data.id`). */
export function announcedIds(receiver: Receiver): Set<string> {
  return new Set(receiver.requests.map((request) => JSON.parse(request.body).payload.data.id as string));
}

/**
 * Resolves once `check` answers true, asking every `intervalMs`; rejects, naming `what`, after
 * `timeoutMs`.
 */
export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(intervalMs);
  }
}
