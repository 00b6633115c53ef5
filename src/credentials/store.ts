// SQL for clients and their API keys. Secrets and keys arrive here already hashed.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';

/** NOTIFY channel: the payload is the id of a client or API key that was just revoked. */
export const CREDENTIALS_CHANNEL = 'ledgerhook_credentials';

export interface Client {
  id: string;
  name: string;
  companies: string[];
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface ApiKey {
  id: string;
  clientId: string;
  /** The key's first characters, to tell keys apart. */
  keyPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** An API key that may be used, with what its client grants. */
export interface ActiveApiKey {
  id: string;
  clientId: string;
  keyHash: Buffer;
  companies: string[];
  scopes: string[];
}

const CLIENT_COLUMNS = `id, name, companies::text[] AS companies, scopes, ${isoTimestamp('created_at')} AS "createdAt",
  ${isoTimestamp('revoked_at')} AS "revokedAt"`;
const KEY_COLUMNS = `id, client_id AS "clientId", key_prefix AS "keyPrefix", ${isoTimestamp('created_at')} AS "createdAt",
  ${isoTimestamp('revoked_at')} AS "revokedAt"`;

export async function insertClient(
  tx: Queryable,
  fields: { name: string; companies: string[]; scopes: string[]; secretHash: string },
): Promise<Client> {
  const [row] = await tx.query<Client>(
    `INSERT INTO clients (name, companies, scopes, secret_hash) VALUES ($1, $2::uuid[], $3::text[], $4)
     RETURNING ${CLIENT_COLUMNS}`,
    [fields.name, fields.companies, fields.scopes, fields.secretHash],
  );
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  return row;
}

export async function insertApiKey(
  tx: Queryable,
  fields: { clientId: string; keyHash: Buffer; keyPrefix: string },
): Promise<ApiKey> {
  const [row] = await tx.query<ApiKey>(
    `INSERT INTO api_keys (client_id, key_hash, key_prefix) VALUES ($1, $2, $3) RETURNING ${KEY_COLUMNS}`,
    [fields.clientId, fields.keyHash, fields.keyPrefix],
  );
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  return row;
}

export function listClients(db: Queryable): Promise<Client[]> {
  return db.query<Client>(`SELECT ${CLIENT_COLUMNS} FROM clients ORDER BY created_at, id`);
}

export function listApiKeys(db: Queryable): Promise<ApiKey[]> {
  return db.query<ApiKey>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
}

export async function findClient(db: Queryable, id: string): Promise<(Client & { secretHash: string }) | undefined> {
  const [row] = await db.query<Client & { secretHash: string }>(
    `SELECT ${CLIENT_COLUMNS}, secret_hash AS "secretHash" FROM clients WHERE id = $1`,
    [id],
  );
  return row;
}

/** Whether the client exists and is not revoked. */
export async function isClientActive(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM clients WHERE id = $1 AND revoked_at IS NULL', [id]);
  return rows.length > 0;
}

/**
 * Whether `id` names a client of ours that was revoked (false for a client another issuer keeps).
 * Locks the client row FOR SHARE until the transaction ends, so a revocation running at the same
 * time either comes first (and this answers true) or waits and then stops what the caller created.
 */
export async function isClientRevoked(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM clients WHERE id::text = $1 AND revoked_at IS NOT NULL FOR SHARE', [id]);
  return rows.length > 0;
}

/** The key stored under `keyHash`, when neither it nor its client is revoked. */
export async function findActiveApiKey(db: Queryable, keyHash: Buffer): Promise<ActiveApiKey | undefined> {
  const [row] = await db.query<ActiveApiKey>(
    `SELECT k.id, k.client_id AS "clientId", k.key_hash AS "keyHash", c.companies::text[] AS companies, c.scopes
     FROM api_keys k JOIN clients c ON c.id = k.client_id
     WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND c.revoked_at IS NULL`,
    [keyHash],
  );
  return row && { ...row, keyHash: Buffer.from(row.keyHash) };
}

/** Marks the client revoked and tells every process; false when there is no such active client. */
export async function revokeClient(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE clients SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
    [id],
  );
  if (rows.length > 0) await notifyRevoked(tx, id);
  return rows.length > 0;
}

/** Marks the key revoked and tells every process; false when there is no such active key. */
export async function revokeApiKey(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
    [id],
  );
  if (rows.length > 0) await notifyRevoked(tx, id);
  return rows.length > 0;
}

// Delivered at commit, to every process listening (credential-status.ts drops what it remembered).
async function notifyRevoked(tx: Queryable, id: string): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [CREDENTIALS_CHANNEL, id]);
}
