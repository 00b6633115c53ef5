// Standard Webhooks signing (decisions §6.2): HMAC-SHA256, keyed with the base64-decoded secret
// after `whsec_`, over `<webhook-id>.<webhook-timestamp>.<body>`, sent as `v1,<base64>`.
import { createHmac, randomBytes } from 'node:crypto';

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

function sign({ messageId, timestamp, body }: SignedContent, secret: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
}
