// Standard Webhooks signing (docs/decisions/webhook-delivery.md): HMAC-SHA256, keyed with the
// base64-decoded secret after `whsec_`, over `<webhook-id>.<webhook-timestamp>.<body>`, sent as
// `v1,<base64>`.
import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as svix issues them. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export interface SignedContent {
  /** The webhook-id header. */
  messageId: string;
  /** The webhook-timestamp header: Unix seconds when this attempt was signed. */
  timestamp: number;
  /** The exact body bytes that are sent. */
  body: string;
}

/** The webhook-signature header: one `v1,<base64>` per secret, space-separated. */
export function signatureHeader(content: SignedContent, secrets: readonly string[]): string {
  return secrets.map((secret) => `v1,${sign(content, secret)}`).join(' ');
}

/**
 * Whether a webhook-signature header holds a `v1,` signature of `content` made with `secret`, the
 * receiver's check. Each signature is compared in constant time.
 */
export function signatureMatches(content: SignedContent, header: string, secret: string): boolean {
  const expected = Buffer.from(sign(content, secret), 'base64');
  return header
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .some((part) => {
      const actual = Buffer.from(part.slice(3), 'base64');
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    });
}

// HMAC keyed with a KeyObject costs about 2 µs; keyed with raw bytes, Node builds a key object for
// every call, about 19 µs. Each subscription's secrets are signed with again and again.
const keys = new LRUCache<string, KeyObject>({ max: 10_000 });

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
    key = createSecretKey(Buffer.from(encoded, 'base64'));
    keys.set(secret, key);
  }
  return key;
}

function sign({ messageId, timestamp, body }: SignedContent, secret: string): string {
  return createHmac('sha256', keyOf(secret)).update(`${messageId}.${timestamp}.${body}`).digest('base64');
}
