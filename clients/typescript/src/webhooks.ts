// Standard Webhooks verification with Web Crypto alone, so it runs wherever fetch does: the
// signature is HMAC-SHA256, keyed with the base64 secret after `whsec_`, of
// `<webhook-id>.<webhook-timestamp>.<raw body>`, sent as space-separated `v1,<base64>` entries
// (one per secret the service signs with, two during a rotation).
import type { WebhookPayload } from './types.ts';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A Fetch API Headers, or a plain object such as Node's request.headers. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far webhook-timestamp may be from now, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The time to check the timestamp against; the clock by default. */
  now?: Date;
}

const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

/**
 * Verifies the notification's signature and timestamp, then answers its `payload`: a union over
 * every event type, narrowed by `switch (payload.eventType)`. `rawBody` must be the exact bytes
 * received (not JSON parsed and written again). Pass the current and the previous secret during a
 * rotation: any one of them verifying is enough. Throws WebhookVerificationError when the
 * notification cannot be trusted.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secretOrSecrets: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookPayload> {
  await verifyWebhookSignature(rawBody, headers, secretOrSecrets, options);
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('The body is not JSON');
  }
  const payload = (body as { payload?: { eventType?: unknown } } | null)?.payload;
  if (typeof payload !== 'object' || payload === null || typeof payload.eventType !== 'string') {
    throw new WebhookVerificationError('The body is not a ledgerhook notification: no payload with an eventType');
  }
  return payload as WebhookPayload;
}

/** The signature and timestamp check alone, for any Standard Webhooks body. */
export async function verifyWebhookSignature(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secretOrSecrets: string | readonly string[],
  { toleranceSeconds = 300, now = new Date() }: VerifyOptions = {},
): Promise<void> {
  const secrets = typeof secretOrSecrets === 'string' ? [secretOrSecrets] : secretOrSecrets;
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs at least one secret');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (skew > toleranceSeconds) throw new WebhookVerificationError('webhook-timestamp is too far from now');

  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);

  const candidates = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => base64Bytes(entry.slice(3)))
    .filter((bytes) => bytes !== undefined);
  for (const secret of secrets) {
    const key = await crypto.subtle.importKey('raw', secretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    for (const candidate of candidates) {
      // HMAC verify compares in constant time.
      if (await crypto.subtle.verify('HMAC', key, candidate, signed)) return;
    }
  }
  throw new WebhookVerificationError('No signature matches');
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!bytes || bytes.length === 0) throw new TypeError('A webhook secret is `whsec_` and base64');
  return bytes;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}
