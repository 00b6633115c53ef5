// What the operator does at integration set-up (through the CLI), and what POST /oauth/token does.

import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { OAuthSigningKey } from '../auth/oauth-signing-key.ts';
import { SCOPES } from '../auth/principal.ts';
import { accessTokenLength, tokenLengthError } from '../auth/token-size.ts';
import type { Database } from '../db/database.ts';
import { stopSubscriptionsOf } from '../subscriptions/store.ts';
import { UUID } from '../text-formats.ts';
import {
  dummyClientSecretHash,
  generateApiKey,
  generateClientSecret,
  hashApiKey,
  hashClientSecret,
  verifyClientSecret,
} from './secrets.ts';
import {
  type ApiKey,
  type Client,
  findClient,
  insertApiKey,
  insertClient,
  revokeApiKey,
  revokeClient,
} from './store.ts';

const KEY_PREFIX_SHOWN = 12;

/** A request the operator got wrong (unknown scope, malformed company id, unknown client). */
export class CredentialInputError extends Error {}

export interface CreatedClient {
  client: Client;
  /** Shown once, never stored. */
  clientSecret: string;
  apiKey: ApiKey;
  /** Shown once, never stored. */
  apiKeyValue: string;
}

/** Registers a third-party application with its companies and scopes, a client secret and one API key. */
export async function createClient(
  db: Database,
  pepper: Buffer,
  input: { name: string; companies: string[]; scope: string },
): Promise<CreatedClient> {
  const scopes = parseScopes(input.scope);
  if (!input.name.trim()) throw new CredentialInputError('--name must not be empty');
  const companies = input.companies.map((company) => {
    if (!UUID.test(company)) throw new CredentialInputError(`--company ${company} is not a uuid`);
    return company.toLowerCase();
  });
  if (companies.length === 0) throw new CredentialInputError('at least one --company is needed');
  const tooLong = tokenLengthError(accessTokenLength(companies, scopes.join(' ')), companies.length);
  if (tooLong) throw new CredentialInputError(`the client's ${tooLong}`);
  const clientSecret = generateClientSecret();
  const secretHash = await hashClientSecret(clientSecret);
  return db.transaction(async (tx) => {
    const client = await insertClient(tx, { name: input.name, companies, scopes, secretHash });
    const { apiKey, apiKeyValue } = await addApiKey(tx, pepper, client.id);
    return { client, clientSecret, apiKey, apiKeyValue };
  });
}

/** Another API key for an active client. */
export async function createApiKey(
  db: Database,
  pepper: Buffer,
  clientId: string,
): Promise<{ apiKey: ApiKey; apiKeyValue: string }> {
  const client = UUID.test(clientId) ? await findClient(db, clientId) : undefined;
  if (!client || client.revokedAt) throw new CredentialInputError(`no active client ${clientId}`);
  return db.transaction((tx) => addApiKey(tx, pepper, client.id));
}

async function addApiKey(tx: Parameters<typeof insertApiKey>[0], pepper: Buffer, clientId: string) {
  const apiKeyValue = generateApiKey();
  const apiKey = await insertApiKey(tx, {
    clientId,
    keyHash: hashApiKey(apiKeyValue, pepper),
    keyPrefix: apiKeyValue.slice(0, KEY_PREFIX_SHOWN),
  });
  return { apiKey, apiKeyValue };
}

export interface RevokedClient {
  /** Its subscriptions, all INACTIVE now. */
  subscriptions: number;
  /** Their pending messages, failed unsent. */
  messages: number;
}

/**
 * Revokes a client: its tokens and keys stop working at once, and its subscriptions stop in the same
 * transaction (INACTIVE for CLIENT_REVOKED, pending messages failed), so no more of its companies'
 * data is sent. Undefined when no such client is active.
 */
export async function revokeClientById(db: Database, id: string): Promise<RevokedClient | undefined> {
  if (!UUID.test(id)) return undefined;
  return db.transaction(async (tx) => {
    if (!(await revokeClient(tx, id))) return undefined;
    return stopSubscriptionsOf(tx, id.toLowerCase(), 'CLIENT_REVOKED');
  });
}

/** Revokes one API key; false when none is active. */
export function revokeApiKeyById(db: Database, id: string): Promise<boolean> {
  if (!UUID.test(id)) return Promise.resolve(false);
  return db.transaction((tx) => revokeApiKey(tx, id));
}

/** Space-separated known scopes, without repeats, in the order given. */
export function parseScopes(scope: string): string[] {
  const scopes = [...new Set(scope.split(' ').filter(Boolean))];
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new CredentialInputError(`unknown scope ${unknown.join(', ')}`);
  return scopes;
}

/** The active client whose secret this is; undefined for an unknown or revoked client or a wrong secret. */
export async function authenticateClient(
  db: Database,
  clientId: string,
  clientSecret: string,
): Promise<Client | undefined> {
  const client = UUID.test(clientId) ? await findClient(db, clientId) : undefined;
  // The same slow hash runs whether or not the client exists, so timing does not tell.
  const matches = await verifyClientSecret(clientSecret, client?.secretHash ?? (await dummyClientSecretHash()));
  if (!client || !matches || client.revokedAt) return undefined;
  const { secretHash: _, ...rest } = client;
  return rest;
}

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  scope: string;
}

export interface TokenIssuer {
  key: OAuthSigningKey;
  /** PUBLIC_BASE_URL. */
  issuer: string;
  /** `ledgerhook-<ENVIRONMENT>`. */
  audience: string;
  ttlSeconds: number;
}

/** An ES256 JWT for `client` (its id as `sub` and `client_id`, its companies), with `scopes` (checked to narrow). */
export async function issueToken(issuer: TokenIssuer, client: Client, scopes: string[]): Promise<IssuedToken> {
  const scope = scopes.join(' ');
  const accessToken = await new SignJWT({ scope, companies: client.companies, client_id: client.id })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: issuer.key.publicJwk.kid })
    .setSubject(client.id)
    .setIssuer(issuer.issuer)
    .setAudience(issuer.audience)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${issuer.ttlSeconds}s`)
    .sign(issuer.key.privateKey);
  return { accessToken, expiresIn: issuer.ttlSeconds, scope };
}

/** The audience of the tokens a deployment issues and accepts from its own key. */
export function ownAudience(environment: string): string {
  return `ledgerhook-${environment}`;
}
