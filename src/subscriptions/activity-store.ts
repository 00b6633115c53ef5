// SQL of the subscription audit trail (migration 0021's comments).
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import type { AuditedFields, Change } from './activity-changes.ts';
import { type SubscriptionReach, withinReach } from './store.ts';

export const OPERATION_TYPES = ['CREATE', 'UPDATE', 'DELETE', 'DISABLE'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

export const ACTIVITY_SORT_COLUMNS: Record<string, SortColumn> = {
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  id: { sql: 'id', type: 'uuid' },
};

export interface NewActivity {
  subscriptionId: string;
  operationType: OperationType;
  actorUrn: string;
  description: string;
  changes: Change[];
}

/** Records an activity; the owner and companies are the subscription's, read in the same statement. */
export async function insertActivity(tx: Queryable, activity: NewActivity): Promise<void> {
  await tx.query(
    `INSERT INTO subscription_activities (subscription_id, owner, companies, operation_type, actor_urn, description, changes)
     SELECT id, owner, companies, $2, $3, $4, $5::jsonb FROM subscriptions WHERE id = $1`,
    [
      activity.subscriptionId,
      activity.operationType,
      activity.actorUrn,
      activity.description,
      JSON.stringify(activity.changes),
    ],
  );
}

/**
 * The event types the subscription's trail tells of, when the caller may read it: the subscription
 * is within its reach, or, once deleted, the trail's owner and companies are. Undefined otherwise.
 * The types are the subscription's own and every one its trail names (created with, changed from or
 * to), so the trail of a deleted subscription is read under the same scopes as a live one's.
 */
export async function trailInReach(
  db: Queryable,
  subscriptionId: string,
  reach: SubscriptionReach,
): Promise<string[] | undefined> {
  const [row] = await db.query<{ eventTypes: string[] }>(
    `SELECT ARRAY(
       SELECT unnest(event_types) FROM subscriptions WHERE id = $1
       UNION
       SELECT jsonb_array_elements_text(change -> side)
       FROM subscription_activities a, jsonb_array_elements(a.changes) change, unnest(ARRAY['before', 'after']) side
       WHERE a.subscription_id = $1 AND change ->> 'field' = 'eventTypes' AND jsonb_typeof(change -> side) = 'array'
     ) AS "eventTypes"
     WHERE EXISTS (SELECT 1 FROM subscriptions WHERE id = $1 AND ${withinReach('$2', '$3')})
        OR EXISTS (SELECT 1 FROM subscription_activities a
                   WHERE a.subscription_id = $1 AND a.operation_type = 'DELETE' AND a.owner = $2 AND a.companies <@ $3::uuid[])`,
    [subscriptionId, reach.owner, reach.companies],
  );
  return row?.eventTypes;
}

const ACTIVITY_COLUMNS = `id, subscription_id AS "subscriptionId", operation_type AS "operationType",
  actor_urn AS "actorUrn", description, changes, ${isoTimestamp('created_at')} AS "createdAt"`;

export async function listActivities(
  db: Queryable,
  subscriptionId: string,
  operationTypes: OperationType[] | null,
  position: PagePosition,
): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(ACTIVITY_COLUMNS),
    from: 'subscription_activities',
    filter: (params) => {
      const conditions = [`subscription_id = ${params.add(subscriptionId)}`];
      if (operationTypes) conditions.push(`operation_type = ANY(${params.add(operationTypes)}::text[])`);
      return conditions;
    },
    columns: ACTIVITY_SORT_COLUMNS,
    ...position,
  });
}

/**
 * Deletes up to `batchSize` activities of subscriptions deleted more than `retentionMs` ago (their
 * trail has been readable for the retention); a live subscription's trail is kept. Answers their ids.
 */
export async function deleteExpiredTrails(db: Queryable, retentionMs: number, batchSize: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM subscription_activities WHERE id IN (
       SELECT a.id FROM subscription_activities a
       WHERE a.subscription_id IN (
         SELECT subscription_id FROM subscription_activities
         WHERE operation_type = 'DELETE' AND created_at < now() - $1 * interval '1 millisecond')
       -- The DELETE row last: it is how the next batch finds the rest of a trail a batch split.
       ORDER BY a.operation_type = 'DELETE', a.created_at
       LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [retentionMs, batchSize],
  );
  return rows.map((row) => row.id);
}

/**
 * The audited fields of a subscription within reach, locked for the rest of the transaction. FOR NO
 * KEY UPDATE: events recording messages for it (a key-share lock) need not wait for a PUT.
 */
export async function lockAuditedFields(
  tx: Queryable,
  id: string,
  reach: SubscriptionReach,
): Promise<AuditedFields | undefined> {
  const [row] = await tx.query<AuditedFields>(
    `SELECT status, event_types AS "eventTypes", endpoint_url AS "endpointUrl", custom_headers AS "customHeaders",
       auth_type AS "authType", basic_username AS "basicUsername", basic_password AS "basicPassword",
       rate_limit AS "rateLimit"
     FROM subscriptions WHERE id = $1 AND ${withinReach('$2', '$3')} FOR NO KEY UPDATE`,
    [id, reach.owner, reach.companies],
  );
  return row;
}
