// Generating, hashing and checking client secrets and API keys. Neither is ever stored or logged in
// the clear: a client secret is kept as an scrypt string (slow, salted: it guards a secret a person
// may paste around), an API key as HMAC-SHA256 under the server's pepper (fast: the key has 256 bits
// of entropy, is checked on every request, and is looked up by its digest).
import { createHmac, type KeyObject, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export const CLIENT_SECRET_PREFIX = 'lhs_';
export const API_KEY_PREFIX = 'lhk_';

// scrypt cost: N=2^15, r=8, p=1 takes about 50 ms and 32 MiB here (OWASP's minimum is N=2^17 with
// p=1 or N=2^15 with more memory per r; the cost is stored with each hash, so it can be raised).
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const SCRYPT_KEY_BYTES = 32;
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

/** A new client secret: `lhs_` and 32 random bytes. */
export function generateClientSecret(): string {
  return `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** A new API key: `lhk_` and 32 random bytes. */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** `scrypt$N$r$p$<salt>$<hash>` (base64url), with a fresh 16-byte salt. */
export async function hashClientSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(secret, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Whether `secret` matches a hashClientSecret string; the digests are compared in constant time. */
export async function verifyClientSecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Checked against when the client does not exist, so that an unknown client_id costs as much time
// as a wrong secret and the answer's timing does not tell which client ids exist.
let dummyHash: Promise<string> | undefined;
export function dummyClientSecretHash(): Promise<string> {
  dummyHash ??= hashClientSecret(generateClientSecret());
  return dummyHash;
}

/**
 * The digest an API key is stored and found under. Checked on every request: pass the pepper as a
 * KeyObject there (about 2 µs; raw bytes make Node build a key for every call, about 11 µs).
 */
export function hashApiKey(key: string, pepper: Buffer | KeyObject): Buffer {
  return createHmac('sha256', pepper).update(key).digest();
}

/** Constant-time comparison of two digests. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a bearer value has the shape of one of our API keys (rather than a JWT). */
export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX) && /^lhk_[A-Za-z0-9_-]{43}$/.test(value);
}

function derive(secret: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, SCRYPT_KEY_BYTES, { ...cost, maxmem: SCRYPT_MAXMEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
