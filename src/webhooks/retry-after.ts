// A receiver that answers 429 (too many requests) or 503 (unavailable) may say with Retry-After
// when to come back (RFC 9110 §10.2.3): a number of seconds, or an HTTP date. The next attempt
// then waits at least that long, however short the schedule's next wait, and no longer than the
// schedule's longest wait: a receiver cannot park a message beyond what the schedule would
// (docs/decisions/webhook-delivery.md, "Retry-After").

const ASKS_TO_WAIT = new Set([429, 503]);
const SECONDS = /^\d{1,10}$/;

/**
 * The milliseconds a 429 or 503 answer's Retry-After asks for (0 for a date already past), or null
 * for another status, no header, or one that is neither form.
 */
export function retryAfterMs(
  statusCode: number,
  header: string | string[] | undefined,
  now = Date.now(),
): number | null {
  if (!ASKS_TO_WAIT.has(statusCode) || typeof header !== 'string') return null;
  const value = header.trim();
  if (SECONDS.test(value)) return Number(value) * 1000;
  // An HTTP date names its day of the week and its zone, GMT: Date.parse reads that form.
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
