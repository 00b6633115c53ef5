// Whether our own credentials may still act, asked on every request that presents one. Answers are
// remembered in this process for at most MAX_AGE_MS and dropped at once when a revocation is
// announced (NOTIFY on CREDENTIALS_CHANNEL, sent in the revoking transaction, so every process that
// shares the database hears it, including after `ledgerhook clients revoke` in another process).
// MAX_AGE_MS bounds the staleness while the LISTEN connection is down; once it listens again,
// everything remembered is forgotten too (a revocation may have been missed meanwhile).
import { createSecretKey } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/database.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import { UUID } from '../text-formats.ts';
import { digestsEqual, hashApiKey, looksLikeApiKey } from './secrets.ts';
import { CREDENTIALS_CHANNEL, findActiveApiKey, isClientActive } from './store.ts';

const MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface CredentialStatus {
  /**
   * The principal an API key stands for; undefined when it is unknown or it or its client is revoked.
   * Answered at once when remembered, else with a promise (as isClientActive).
   */
  authenticateApiKey(key: string): MaybePromise<Principal | undefined>;
  /** Whether our client exists and is not revoked. */
  isClientActive(clientId: string): MaybePromise<boolean>;
  /** Stops listening for revocations. */
  close(): Promise<void>;
}

/** `pepper` undefined: API keys are not accepted (no key to hash them with is configured). */
export async function startCredentialStatus(db: Database, pepper: Buffer | undefined): Promise<CredentialStatus> {
  const keys = new LRUCache<string, Principal>({ max: MAX_ENTRIES, ttl: MAX_AGE_MS });
  const clients = new LRUCache<string, boolean>({ max: MAX_ENTRIES, ttl: MAX_AGE_MS });
  const pepperKey = pepper && createSecretKey(pepper);
  // Revocations are rare: forgetting everything keeps this simple and is cheap.
  const unlisten = await db.listen(CREDENTIALS_CHANNEL, () => {
    keys.clear();
    clients.clear();
  });
  async function findApiKey(digest: Buffer, cacheKey: string): Promise<Principal | undefined> {
    const found = await findActiveApiKey(db, digest);
    // Looked up by its digest through an index; compared again in constant time all the same.
    if (!found || !digestsEqual(found.keyHash, digest)) return undefined;
    const principal: Principal = {
      subject: found.clientId,
      clientId: found.clientId,
      scopes: new Set(found.scopes),
      companies: new Set(found.companies.map((c) => c.toLowerCase())),
      accountingSystem: undefined,
      credential: `api-key:${found.id}`,
    };
    keys.set(cacheKey, principal);
    return principal;
  }
  async function findClient(clientId: string): Promise<boolean> {
    const active = await isClientActive(db, clientId);
    clients.set(clientId, active);
    return active;
  }
  return {
    authenticateApiKey(key) {
      if (!pepperKey || !looksLikeApiKey(key)) return undefined;
      const digest = hashApiKey(key, pepperKey);
      const cacheKey = digest.toString('base64url');
      return keys.get(cacheKey) ?? findApiKey(digest, cacheKey);
    },
    isClientActive(clientId) {
      if (!UUID.test(clientId)) return false;
      return clients.get(clientId) ?? findClient(clientId);
    },
    close: unlisten,
  };
}
