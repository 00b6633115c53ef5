// SQL for webhook subscriptions and their signing secrets. Every statement that reads or changes a
// subscription is scoped to the caller's reach (its owner, and companies the caller may read), so a
// subscription out of reach is indistinguishable from a missing one.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import { OPERATOR_ACTOR } from './activity-changes.ts';
import { disabledNotice, recordSubscriptionsDisabled, type SubscriptionDisabled } from './disabled-event.ts';
import type { Subscription, SubscriptionStatus, SubscriptionStatusReason } from './schemas.ts';

export const SUBSCRIPTION_SORT_COLUMNS: Record<string, SortColumn> = {
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  id: { sql: 'id', type: 'uuid' },
};

/** How long a replaced secret keeps signing beside its successor (docs/decisions/subscriptions.md). */
export const SECRET_OVERLAP = '24 hours';

/**
 * Old secrets that may still sign at once, besides the current one: each adds a signature to every
 * notification, so rotating in a loop cannot grow the webhook-signature header without bound.
 */
export const MAX_PREVIOUS_SECRETS = 4;

const COLUMNS = `id, status, status_reason AS "statusReason", event_types AS "eventTypes", endpoint_url AS "endpointUrl",
  ${isoTimestamp('created_at')} AS "createdAt", ${isoTimestamp('updated_at')} AS "updatedAt",
  json_build_object('type', auth_type) AS "endpointAuth", custom_headers AS "customHeaders",
  rate_limit AS "rateLimitPerSecond"`;

/**
 * The subscriptions a caller may see and change (docs/decisions/subscriptions.md, "Who reaches a
 * subscription"): those of its owner whose companies are all among the caller's.
 */
export interface SubscriptionReach {
  owner: string;
  companies: readonly string[];
}

/** The SQL condition of `reach`, given the placeholders of its owner and companies. */
export function withinReach(ownerParam: string, companiesParam: string): string {
  return `subscriptions.owner = ${ownerParam} AND subscriptions.companies <@ ${companiesParam}::uuid[]`;
}

/** What a subscription stores besides its owner; the Basic password is kept to send it. */
export interface SubscriptionFields {
  status: SubscriptionStatus;
  eventTypes: string[];
  endpointUrl: string;
  customHeaders: Record<string, string>;
  basic: { username: string; password: string } | null;
  /** Notifications per second at most; null for none; undefined (a PUT without it) keeps the current one. */
  rateLimit: number | null | undefined;
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
    fields.rateLimit !== undefined,
    fields.rateLimit ?? null,
  ];
}

/**
 * How many subscriptions `owner` has for exactly `companies` (sorted, as stored): its tenant's,
 * counted under a lock of that tenant's held until the transaction ends, so that two creates at once
 * cannot both pass the limit. The count comes from a statement after the lock's, which sees what a
 * create that held the lock before committed.
 */
export async function countSubscriptionsOfLocked(
  tx: Queryable,
  owner: string,
  companies: readonly string[],
): Promise<number> {
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('subscriptions of ' || subscription_tenant($1, $2::uuid[]), 0))`,
    [owner, companies],
  );
  const [row] = await tx.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM subscriptions WHERE owner = $1 AND companies = $2::uuid[]',
    [owner, companies],
  );
  return row?.count ?? 0;
}

export async function insertSubscription(
  tx: Queryable,
  owner: string,
  companies: readonly string[],
  fields: SubscriptionFields,
): Promise<Subscription> {
  const [row] = await tx.query<Subscription>(
    `INSERT INTO subscriptions (status, event_types, endpoint_url, custom_headers, auth_type, basic_username,
       basic_password, rate_limit, owner, companies)
     VALUES ($1, $2::text[], $3, $4::jsonb, $5, $6, $7, CASE WHEN $8::boolean THEN $9::integer END, $10, $11::uuid[])
     RETURNING ${COLUMNS}`,
    [...fieldValues(fields), owner, companies],
  );
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  return row;
}

export async function findSubscription(
  db: Queryable,
  id: string,
  reach: SubscriptionReach,
): Promise<Subscription | undefined> {
  const [row] = await db.query<Subscription>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE id = $1 AND ${withinReach('$2', '$3')}`,
    [id, reach.owner, reach.companies],
  );
  return row;
}

/**
 * Replaces every field a request sets; owner and companies stay. Undefined when out of reach, or when
 * it would make ACTIVE a subscription of a revoked client (see stopSubscriptionsOf). The owner's
 * choice of status replaces any other reason the service had stopped it for (ENDPOINT_FAILING).
 */
export async function replaceSubscription(
  db: Queryable,
  id: string,
  reach: SubscriptionReach,
  fields: SubscriptionFields,
): Promise<Subscription | undefined> {
  const [row] = await db.query<Subscription>(
    `UPDATE subscriptions SET status = $1, event_types = $2::text[], endpoint_url = $3, custom_headers = $4::jsonb,
       auth_type = $5, basic_username = $6, basic_password = $7, updated_at = now(),
       rate_limit = CASE WHEN $8::boolean THEN $9::integer ELSE rate_limit END,
       status_reason = NULLIF(status_reason, 'ENDPOINT_FAILING')
     WHERE id = $10 AND ${withinReach('$11', '$12')} AND NOT ($1 = 'ACTIVE' AND status_reason IS NOT DISTINCT FROM 'CLIENT_REVOKED')
     RETURNING ${COLUMNS}`,
    [...fieldValues(fields), id, reach.owner, reach.companies],
  );
  return row;
}

/** Deletes the subscription; its secrets and messages (pending ones included) go with it (ON DELETE CASCADE). */
export async function deleteSubscription(db: Queryable, id: string, reach: SubscriptionReach): Promise<boolean> {
  const rows = await db.query(`DELETE FROM subscriptions WHERE id = $1 AND ${withinReach('$2', '$3')} RETURNING id`, [
    id,
    reach.owner,
    reach.companies,
  ]);
  return rows.length > 0;
}

const STOP_DESCRIPTIONS: Record<'CLIENT_REVOKED', string> = {
  CLIENT_REVOKED: 'Disabled: its client was revoked; pending messages failed unsent',
};

/**
 * Makes every subscription of `owner` INACTIVE for `reason`, records a DISABLE activity for each,
 * and fails their pending messages unsent, leases or not, so nothing more is sent to them. One
 * statement, then one v1.subscription.disabled per subscription it made INACTIVE (one that was
 * ACTIVE); answers how many subscriptions and messages it stopped.
 */
export async function stopSubscriptionsOf(
  tx: Queryable,
  owner: string,
  reason: 'CLIENT_REVOKED',
): Promise<{ subscriptions: number; messages: number }> {
  const [row] = await tx.query<{ subscriptions: number; messages: number; notices: SubscriptionDisabled[] }>(
    `WITH previous AS (
       SELECT id, status FROM subscriptions WHERE owner = $1 FOR UPDATE
     ), stopped AS (
       UPDATE subscriptions s SET status = 'INACTIVE', status_reason = $2, updated_at = now()
       FROM previous WHERE s.id = previous.id
       RETURNING s.id, s.owner, s.companies, previous.status AS previous_status, ${disabledNotice('s')} AS notice
     ), trail AS (
       INSERT INTO subscription_activities (subscription_id, owner, companies, operation_type, actor_urn, description, changes)
       SELECT id, owner, companies, 'DISABLE', $3, $4,
         jsonb_build_array(jsonb_build_object('field', 'status', 'before', previous_status, 'after', 'INACTIVE'))
       FROM stopped
     ), cancelled AS (
       UPDATE messages m SET status = 'failed', leased_until = NULL, leased_by = NULL, updated_at = now()
       FROM stopped WHERE m.subscription_id = stopped.id AND m.status = 'pending'
       RETURNING m.id
     )
     SELECT (SELECT count(*) FROM stopped)::int AS subscriptions, (SELECT count(*) FROM cancelled)::int AS messages,
       (SELECT COALESCE(jsonb_agg(notice ORDER BY id), '[]') FROM stopped WHERE previous_status = 'ACTIVE') AS notices`,
    [owner, reason, OPERATOR_ACTOR, STOP_DESCRIPTIONS[reason]],
  );
  if (!row) throw new Error('SELECT answered no row');
  const { notices, ...stopped } = row;
  await recordSubscriptionsDisabled(
    tx,
    notices.map((notice) => ({ owner, notice })),
  );
  return stopped;
}

/** What the operations on a reached subscription decide by: who may act (its types), and whether it is stopped. */
export interface ReachedSubscription {
  eventTypes: string[];
  status: SubscriptionStatus;
  /** Why the service stopped it, or null. */
  statusReason: SubscriptionStatusReason | null;
}

/**
 * The subscription's event types and status reason; undefined when it is out of reach. With `lock`,
 * also locks it for the rest of the transaction: FOR UPDATE against another writer, FOR SHARE
 * against a change of its status (events may still record messages for it meanwhile).
 */
export async function subscriptionInReach(
  db: Queryable,
  id: string,
  reach: SubscriptionReach,
  options: { lock?: 'FOR UPDATE' | 'FOR SHARE' } = {},
): Promise<ReachedSubscription | undefined> {
  const [row] = await db.query<ReachedSubscription>(
    `SELECT event_types AS "eventTypes", status, status_reason AS "statusReason" FROM subscriptions
     WHERE id = $1 AND ${withinReach('$2', '$3')}${options.lock ? ` ${options.lock}` : ''}`,
    [id, reach.owner, reach.companies],
  );
  return row;
}

export interface SubscriptionFilters {
  reach: SubscriptionReach;
  status: SubscriptionStatus | null;
  /** Any of these; null for every type. */
  eventTypes: string[] | null;
  /** Types the caller may not read: a subscription to any of them is left out. */
  unreadableEventTypes: string[];
}

export async function listSubscriptions(
  db: Queryable,
  filters: SubscriptionFilters,
  position: PagePosition,
): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(COLUMNS),
    from: 'subscriptions',
    filter: (params) => {
      const conditions = [withinReach(params.add(filters.reach.owner), params.add(filters.reach.companies))];
      if (filters.status) conditions.push(`status = ${params.add(filters.status)}`);
      if (filters.eventTypes) conditions.push(`event_types && ${params.add(filters.eventTypes)}::text[]`);
      if (filters.unreadableEventTypes.length > 0) {
        conditions.push(`NOT (event_types && ${params.add(filters.unreadableEventTypes)}::text[])`);
      }
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

/** The current secret of the subscription and its event types; undefined when it is out of reach. */
export async function findCurrentSecret(
  db: Queryable,
  subscriptionId: string,
  reach: SubscriptionReach,
): Promise<{ secret: string; eventTypes: string[] } | undefined> {
  const [row] = await db.query<{ secret: string; eventTypes: string[] }>(
    `SELECT s.secret, subscriptions.event_types AS "eventTypes"
     FROM subscription_secrets s JOIN subscriptions ON subscriptions.id = s.subscription_id
     WHERE s.subscription_id = $1 AND ${withinReach('$2', '$3')} AND s.expires_at IS NULL`,
    [subscriptionId, reach.owner, reach.companies],
  );
  return row;
}

/**
 * The secrets a notification of the subscription is signed with (docs/decisions/webhook-delivery.md): the current one,
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
