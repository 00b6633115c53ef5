// SQL for webhook subscriptions and their signing secrets. Every statement that reads or changes a
// subscription is scoped to its owner, so another client's subscription is indistinguishable from a
// missing one.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PageQuerySpec, rowToJson } from '../db/keyset-page.ts';
import type { Subscription, SubscriptionStatus } from './schemas.ts';

export const SUBSCRIPTION_SORT_COLUMNS: Record<string, SortColumn> = {
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  id: { sql: 'id', type: 'uuid' },
};

/** How long a replaced secret keeps signing beside its successor (decisions §6.1). */
export const SECRET_OVERLAP = '24 hours';

/**
 * Old secrets that may still sign at once, besides the current one: each adds a signature to every
 * notification, so rotating in a loop cannot grow the webhook-signature header without bound.
 */
export const MAX_PREVIOUS_SECRETS = 4;

const COLUMNS = `id, status, event_types AS "eventTypes", endpoint_url AS "endpointUrl",
  ${isoTimestamp('created_at')} AS "createdAt", ${isoTimestamp('updated_at')} AS "updatedAt",
  json_build_object('type', auth_type) AS "endpointAuth", custom_headers AS "customHeaders"`;

/** What a subscription stores besides its owner; the Basic password is kept to send it. */
export interface SubscriptionFields {
  status: SubscriptionStatus;
  eventTypes: string[];
  endpointUrl: string;
  customHeaders: Record<string, string>;
  basic: { username: string; password: string } | null;
}

function fieldValues(fields: SubscriptionFields): unknown[] {
  return [
    fields.status,
    fields.eventTypes,
    fields.endpointUrl,
    JSON.stringify(fields.customHeaders),
    fields.basic ? 'BASIC' : 'NONE',
    fields.basic?.username ?? null,
    fields.basic?.password ?? null,
  ];
}

export async function insertSubscription(
  tx: Queryable,
  owner: string,
  companies: readonly string[],
  fields: SubscriptionFields,
): Promise<Subscription> {
  const [row] = await tx.query<Subscription>(
    `INSERT INTO subscriptions (status, event_types, endpoint_url, custom_headers, auth_type, basic_username,
       basic_password, owner, companies)
     VALUES ($1, $2::text[], $3, $4::jsonb, $5, $6, $7, $8, $9::uuid[])
     RETURNING ${COLUMNS}`,
    [...fieldValues(fields), owner, companies],
  );
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  return row;
}

export async function findSubscription(db: Queryable, id: string, owner: string): Promise<Subscription | undefined> {
  const [row] = await db.query<Subscription>(`SELECT ${COLUMNS} FROM subscriptions WHERE id = $1 AND owner = $2`, [
    id,
    owner,
  ]);
  return row;
}

/** Replaces every field a request sets; owner and companies stay. Undefined when not the owner's. */
export async function replaceSubscription(
  db: Queryable,
  id: string,
  owner: string,
  fields: SubscriptionFields,
): Promise<Subscription | undefined> {
  const [row] = await db.query<Subscription>(
    `UPDATE subscriptions SET status = $1, event_types = $2::text[], endpoint_url = $3, custom_headers = $4::jsonb,
       auth_type = $5, basic_username = $6, basic_password = $7, updated_at = now()
     WHERE id = $8 AND owner = $9
     RETURNING ${COLUMNS}`,
    [...fieldValues(fields), id, owner],
  );
  return row;
}

/** Deletes the subscription; its secrets and messages (pending ones included) go with it (ON DELETE CASCADE). */
export async function deleteSubscription(db: Queryable, id: string, owner: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM subscriptions WHERE id = $1 AND owner = $2 RETURNING id', [id, owner]);
  return rows.length > 0;
}

/** Locks the owner's subscription for the rest of the transaction; false when there is none. */
export async function lockSubscription(tx: Queryable, id: string, owner: string): Promise<boolean> {
  const rows = await tx.query('SELECT id FROM subscriptions WHERE id = $1 AND owner = $2 FOR UPDATE', [id, owner]);
  return rows.length > 0;
}

export interface SubscriptionFilters {
  owner: string;
  status: SubscriptionStatus | null;
  /** Any of these; null for every type. */
  eventTypes: string[] | null;
}

export type PagePosition = Pick<PageQuerySpec, 'sort' | 'limit' | 'offset' | 'after' | 'before'>;

export async function listSubscriptions(
  db: Queryable,
  filters: SubscriptionFilters,
  position: PagePosition,
): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(COLUMNS),
    from: 'subscriptions',
    filter: (params) => {
      const conditions = [`owner = ${params.add(filters.owner)}`];
      if (filters.status) conditions.push(`status = ${params.add(filters.status)}`);
      if (filters.eventTypes) conditions.push(`event_types && ${params.add(filters.eventTypes)}::text[]`);
      return conditions;
    },
    columns: SUBSCRIPTION_SORT_COLUMNS,
    ...position,
  });
}

/**
 * Makes `secret` the subscription's current one. A previous current secret keeps signing for
 * SECRET_OVERLAP; beyond the newest MAX_PREVIOUS_SECRETS old ones, older secrets stop at once.
 * The caller holds the subscription's lock (or has just created it), so rotations are serialized
 * and clock_timestamp() orders them even when their transactions began in another order.
 */
export async function insertCurrentSecret(tx: Queryable, subscriptionId: string, secret: string): Promise<void> {
  await tx.query(
    `UPDATE subscription_secrets SET expires_at = clock_timestamp() + interval '${SECRET_OVERLAP}'
     WHERE subscription_id = $1 AND expires_at IS NULL`,
    [subscriptionId],
  );
  await tx.query(
    `UPDATE subscription_secrets SET expires_at = clock_timestamp()
     WHERE subscription_id = $1 AND expires_at > clock_timestamp() AND id NOT IN (
       SELECT id FROM subscription_secrets WHERE subscription_id = $1 AND expires_at > clock_timestamp()
       ORDER BY created_at DESC, id DESC LIMIT ${MAX_PREVIOUS_SECRETS})`,
    [subscriptionId],
  );
  await tx.query(
    'INSERT INTO subscription_secrets (subscription_id, secret, created_at) VALUES ($1, $2, clock_timestamp())',
    [subscriptionId, secret],
  );
}

/** The current secret of the owner's subscription; undefined when the subscription is not theirs. */
export async function findCurrentSecret(
  db: Queryable,
  subscriptionId: string,
  owner: string,
): Promise<string | undefined> {
  const [row] = await db.query<{ secret: string }>(
    `SELECT s.secret FROM subscription_secrets s JOIN subscriptions sub ON sub.id = s.subscription_id
     WHERE s.subscription_id = $1 AND sub.owner = $2 AND s.expires_at IS NULL`,
    [subscriptionId, owner],
  );
  return row?.secret;
}

/**
 * The secrets a notification of the subscription is signed with (decisions §6.2): the current one,
 * then the replaced ones that have not expired, newest first. For the delivery worker.
 */
export async function activeSecrets(db: Queryable, subscriptionId: string): Promise<string[]> {
  const rows = await db.query<{ secret: string }>(
    `SELECT secret FROM subscription_secrets
     WHERE subscription_id = $1 AND (expires_at IS NULL OR expires_at > now())
     ORDER BY expires_at IS NULL DESC, created_at DESC, id DESC`,
    [subscriptionId],
  );
  return rows.map((row) => row.secret);
}
