// The delivery queue's SQL (docs/decisions/webhook-delivery.md, migration 0007's comments). Work is
// claimed with FOR UPDATE SKIP LOCKED and a lease, and an attempt is recorded only by its lease
// holder, guarded by the attempt count it started from, so a worker that lost its lease records
// nothing.
import type { Queryable } from '../db/database.ts';
import { HEALTH_CTES } from './delivery-health-sql.ts';
import { EVENT_PAYLOAD_COLUMNS, type EventPayloadRow, toEventPayload } from './event-payload.ts';
import type { Notification } from './send-notification.ts';

export interface ClaimedMessage extends Notification {
  subscriptionId: string;
  /** The subscription's tenant, whose attempts in flight share one cap: its owner and its companies. */
  tenant: string;
  /** Attempts made before this one; the guard of its record. */
  attempts: number;
  /** How long to wait before sending: until the rate slot the claim reserved (0 without a rate). */
  waitMs: number;
  /** How long ago the message was created, on the database's clock, when it was claimed. */
  ageMs: number;
  /** Its subscription's updated_at when claimed: after a wait, whether it still holds (stillToSend). */
  subscriptionUpdatedAt: string;
  /** The trace context its event was recorded in (a sampled span's), which its attempts continue. */
  eventTraceparent: string | null;
}

/**
 * Reserves, for each rated subscription the claim took messages of, as many consecutive slots as it
 * took, 1/rate apart from its next free one (or now when that has passed), and moves the next free
 * one past them (docs/decisions/webhook-delivery.md, "A rate per endpoint"). The rate is the one
 * due_messages_in_fair_shares took them by, which it answers with each message: the function's query
 * has a snapshot of its own, later than this statement's, so subscriptions.rate_limit read here again
 * could be an older rate than the one that decided how many were taken (migration 0038). "Now" is
 * clock_timestamp(), the moment of the reservation rather than the start of the statement, so that
 * a slow claim does not reserve slots already past, sent at once and closer together than the rate.
 * INSERT … ON CONFLICT DO UPDATE waits for a concurrent claim's reservation of the same subscription
 * and adds to what it left, so two workers never reserve one slot twice; the rows are written in
 * subscription order, so two claims never deadlock on them. Answers each one's new next free slot:
 * the reserved slots are the `taken` ones before it.
 */
const RESERVE_RATE_SLOTS = `reservations AS (
       SELECT subscription_id, max(taken) * rate_slot_interval(max(rate_limit)) AS length FROM picked
       WHERE rate_limit IS NOT NULL GROUP BY subscription_id
     ),
     reserved AS (
       INSERT INTO subscription_rate_slots AS r (subscription_id, next_slot_at)
       SELECT subscription_id, clock_timestamp() + length FROM reservations ORDER BY subscription_id
       ON CONFLICT (subscription_id) DO UPDATE
         SET next_slot_at = greatest(r.next_slot_at, clock_timestamp())
           + (SELECT length FROM reservations WHERE reservations.subscription_id = excluded.subscription_id)
       RETURNING r.subscription_id, r.next_slot_at
     )`;

export interface ClaimOptions {
  workerId: string;
  leaseMs: number;
  limit: number;
  /** Attempts in flight at once to one subscription in this worker: no claim takes more. */
  perSubscription: number;
  /** Attempts this worker has in flight, per subscription id. */
  busy: ReadonlyMap<string, number>;
  /** Attempts in flight at once to all the subscriptions of one tenant in this worker. */
  perTenant: number;
  /** Attempts this worker has in flight, per tenant. */
  busyTenants: ReadonlyMap<string, number>;
}

interface ClaimedRow extends EventPayloadRow {
  messageId: string;
  subscriptionId: string;
  tenant: string;
  attempts: number;
  waitMs: number;
  ageMs: number;
  subscriptionUpdatedAt: string;
  endpointUrl: string;
  secrets: string[];
  basicUsername: string | null;
  basicPassword: string | null;
  customHeaders: Record<string, string> | null;
  eventTraceparent: string | null;
}

/**
 * Leases up to `limit` due messages with what sending them needs: of each subscription at most its
 * free slots (`perSubscription` less `busy`), of each tenant at most its free slots (`perTenant` less
 * `busyTenants`), tenants in turns and each one's earliest first, so that neither a backlogged
 * endpoint nor a tenant's many hanging ones stand in front of another's messages. A message is due when
 * pending, its time has come and no live lease holds it; due_messages_in_fair_shares (migrations
 * 0027, 0035, 0038) finds them. A subscription with a rate limit has at most the slots of its next
 * second free, and each message taken gets its slot at the rate the function read (RESERVE_RATE_SLOTS):
 * its `waitMs`, which its lease covers.
 *
 * A due message of a subscription the service stopped (status_reason, e.g. its client was revoked)
 * is failed unsent instead of leased. Revoking fails the pending messages itself; this catches those
 * an event recorded alongside the revocation added after it.
 *
 * One statement, committed without waiting for its WAL flush: set_config(…, true) turns
 * synchronous_commit off for this statement's own transaction. Under load a flush or three more
 * round trips took longer than the claim itself. It is safe because a claim is only a lease: were a
 * server crash to lose it, the messages would be pending and unleased again, and sent again with the
 * same webhook-id, which at-least-once delivery allows. Attempts are recorded with a full commit.
 */
export async function claimDueMessages(db: Queryable, options: ClaimOptions): Promise<ClaimedMessage[]> {
  const rows = await db.query<ClaimedRow>(
    `WITH relaxed AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true)),
     due AS (
       SELECT fair.id, fair.rate_limit
       FROM due_messages_in_fair_shares($3, $4, $5::uuid[], $6::int[], $7, $8::text[], $9::int[]) AS fair, relaxed
     ),
     picked AS MATERIALIZED (
       SELECT m.id, m.subscription_id, sub.status_reason,
         CASE WHEN sub.status_reason IS NULL THEN due.rate_limit END AS rate_limit,
         row_number() OVER (PARTITION BY m.subscription_id ORDER BY m.next_attempt_at, m.id) AS place,
         count(*) OVER (PARTITION BY m.subscription_id) AS taken
       FROM due JOIN messages m ON m.id = due.id JOIN subscriptions sub ON sub.id = m.subscription_id
     ),
     ${RESERVE_RATE_SLOTS},
     claimed AS (
       UPDATE messages m SET
         leased_until = CASE WHEN p.status_reason IS NULL
                             THEN greatest(now(), slot.at) + $2 * interval '1 millisecond' END,
         leased_by = CASE WHEN p.status_reason IS NULL THEN $1 END,
         status = CASE WHEN p.status_reason IS NULL THEN m.status ELSE 'failed' END,
         updated_at = CASE WHEN p.status_reason IS NULL THEN m.updated_at ELSE now() END
       FROM picked p
       LEFT JOIN reserved r ON r.subscription_id = p.subscription_id
       CROSS JOIN LATERAL (
         SELECT r.next_slot_at - (p.taken - p.place + 1) * rate_slot_interval(p.rate_limit) AS at
       ) AS slot
       WHERE m.id = p.id
       RETURNING m.id, m.subscription_id, m.event_id, m.attempts, m.status,
         greatest(0, extract(epoch FROM slot.at - clock_timestamp()) * 1000)::float8 AS wait_ms,
         (extract(epoch FROM clock_timestamp() - m.created_at) * 1000)::float8 AS age_ms
     )
     SELECT c.id AS "messageId", c.subscription_id AS "subscriptionId",
       subscription_tenant(s.owner, s.companies) AS tenant, c.attempts,
       COALESCE(c.wait_ms, 0) AS "waitMs", c.age_ms AS "ageMs", s.updated_at::text AS "subscriptionUpdatedAt",
       s.endpoint_url AS "endpointUrl", s.custom_headers AS "customHeaders",
       s.basic_username AS "basicUsername", s.basic_password AS "basicPassword",
       ${EVENT_PAYLOAD_COLUMNS}, e.traceparent AS "eventTraceparent",
       ARRAY(SELECT k.secret FROM subscription_secrets k
             WHERE k.subscription_id = s.id AND (k.expires_at IS NULL OR k.expires_at > now())
             ORDER BY k.created_at DESC) AS secrets
     FROM claimed c JOIN events e ON e.id = c.event_id JOIN subscriptions s ON s.id = c.subscription_id
     WHERE c.status = 'pending'`,
    [
      options.workerId,
      options.leaseMs,
      options.limit,
      options.perSubscription,
      [...options.busy.keys()],
      [...options.busy.values()],
      options.perTenant,
      [...options.busyTenants.keys()],
      [...options.busyTenants.values()],
    ],
    // One plan for every call: the rows come from the function, whose own query keeps its plan, so
    // the values change nothing of this statement's. Planning it was about 1 ms per claim on
    // PostgreSQL, most of a claim's database time when one message is due.
    { reusePlan: true },
  );
  return rows.map((row) => ({
    messageId: row.messageId,
    subscriptionId: row.subscriptionId,
    tenant: row.tenant,
    attempts: row.attempts,
    waitMs: row.waitMs,
    ageMs: row.ageMs,
    subscriptionUpdatedAt: row.subscriptionUpdatedAt,
    eventTraceparent: row.eventTraceparent,
    endpointUrl: row.endpointUrl,
    payload: toEventPayload(row),
    secrets: row.secrets,
    customHeaders: row.customHeaders ?? {},
    ...(row.basicUsername !== null &&
      row.basicPassword !== null && { basicAuth: { username: row.basicUsername, password: row.basicPassword } }),
  }));
}

/**
 * What to do with a claimed message after its wait for a rate slot (docs/decisions/webhook-delivery.md,
 * "A rate per endpoint"): `send` it as claimed; `stopped` when it is no longer pending under this
 * worker's lease (its subscription disabled or deleted meanwhile); `changed` when its subscription
 * was changed meanwhile (a PUT: a new URL, headers or credentials), and then its lease is given back
 * in the same statement, so that a claim takes it again with the subscription as it is now.
 */
export async function stillToSend(
  db: Queryable,
  workerId: string,
  message: Pick<ClaimedMessage, 'messageId' | 'subscriptionUpdatedAt'>,
): Promise<'send' | 'stopped' | 'changed'> {
  const [row] = await db.query<{ unchanged: boolean }>(
    `WITH held AS (
       SELECT m.id, s.updated_at = $3::timestamptz AS unchanged
       FROM messages m JOIN subscriptions s ON s.id = m.subscription_id
       WHERE m.id = $1 AND m.leased_by = $2 AND m.status = 'pending'
     ), released AS (
       UPDATE messages m SET leased_until = NULL, leased_by = NULL
       FROM held WHERE m.id = held.id AND NOT held.unchanged
     )
     SELECT unchanged FROM held`,
    [message.messageId, workerId, message.subscriptionUpdatedAt],
  );
  if (!row) return 'stopped';
  return row.unchanged ? 'send' : 'changed';
}

/** Gives claimed messages back at once (claimed while the worker began to stop). */
export async function releaseMessages(db: Queryable, workerId: string, messageIds: readonly string[]): Promise<void> {
  await db.query(
    `UPDATE messages SET leased_until = NULL, leased_by = NULL
     WHERE id = ANY($1::text[]) AND leased_by = $2 AND status = 'pending'`,
    [messageIds, workerId],
  );
}

/**
 * Gives back every message this worker holds a lease on except `inFlight`: leases whose claim
 * committed while its answer was lost, or whose attempt could not be recorded, when the database
 * went away. Without it they would wait for their leases to run out.
 */
export async function releaseLeasesExcept(db: Queryable, workerId: string, inFlight: readonly string[]): Promise<void> {
  await db.query(
    `UPDATE messages SET leased_until = NULL, leased_by = NULL
     WHERE leased_by = $1 AND status = 'pending' AND id <> ALL($2::text[])`,
    [workerId, inFlight],
  );
}

export interface AttemptRecord {
  messageId: string;
  /** The message's attempts when it was claimed. */
  expectedAttempts: number;
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** The wait the receiver asked for with Retry-After; the next attempt comes no sooner. */
  retryAfterMs: number | null;
  startedAt: Date;
  durationMs: number;
}

export interface RecordedAttempt {
  attempt: number;
  status: 'pending' | 'delivered' | 'failed';
}

/**
 * Stores attempts and moves their messages on, in one statement (so one transaction, one commit):
 * delivered on success; else failed after 1 + schedule length attempts in this round (a resend
 * starts a round, see schedule_base), else pending again at now() + the round's next wait, or the
 * receiver's Retry-After when longer, up to the schedule's longest wait (retry-after.ts). The
 * subscriptions' health figures move in the same statement (delivery-health-sql.ts).
 * `scheduleMs` is WEBHOOK_RETRY_SCHEDULE in milliseconds. Answers, for each record in order, what
 * was stored, or undefined where the lease was lost (another worker holds the message or recorded
 * it): nothing is stored for that one.
 */
export async function recordAttempts(
  db: Queryable,
  workerId: string,
  records: readonly AttemptRecord[],
  scheduleMs: readonly number[],
): Promise<(RecordedAttempt | undefined)[]> {
  const rows = await db.query<RecordedAttempt & { messageId: string }>(
    RECORD_ATTEMPTS,
    recordAttemptsParams(workerId, records, scheduleMs),
  );
  const byMessage = new Map(rows.map((row) => [row.messageId, { attempt: row.attempt, status: row.status }]));
  return records.map((record) => byMessage.get(record.messageId));
}

/** recordAttempts' one statement (its plan is tested: test/webhooks/delivery/claim-plan.test.ts). */
export const RECORD_ATTEMPTS = `WITH input AS (
       SELECT * FROM unnest($3::text[], $4::int[], $5::boolean[], $6::timestamptz[], $7::int[], $8::int[],
                            $9::text[], $10::text[], $11::int[])
         AS t(message_id, expected_attempts, succeeded, started_at, duration_ms, status_code, error, response_body,
              retry_after_ms)
     ), updated AS (
       UPDATE messages m SET
         attempts = m.attempts + 1,
         status = CASE WHEN i.succeeded THEN 'delivered'
                       WHEN m.attempts + 1 - m.schedule_base >= cardinality($2::int[]) + 1 THEN 'failed'
                       ELSE 'pending' END,
         delivered_at = CASE WHEN i.succeeded THEN now() ELSE m.delivered_at END,
         next_attempt_at = CASE WHEN i.succeeded OR m.attempts + 1 - m.schedule_base >= cardinality($2::int[]) + 1
                                THEN m.next_attempt_at
                                ELSE now() + greatest(($2::int[])[m.attempts + 1 - m.schedule_base],
                                                      coalesce(i.retry_after_ms, 0)) * interval '1 millisecond' END,
         leased_until = NULL, leased_by = NULL, updated_at = now()
       FROM input i
       -- Still pending, written so that no partial index of pending messages matches: statistics
       -- taken while none was pending (before a recovery, say) made the planner read every pending
       -- message through one to find these few, instead of looking each up by id.
       WHERE m.id = i.message_id AND m.leased_by = $1 AND m.attempts = i.expected_attempts
         AND m.status <> 'delivered' AND m.status <> 'failed'
       RETURNING m.id, m.attempts, m.status, m.subscription_id
     ), inserted AS (
       INSERT INTO message_attempts
         (message_id, attempt, started_at, duration_ms, status_code, error, response_body, succeeded, retry_after_ms)
       SELECT u.id, u.attempts, i.started_at, i.duration_ms, i.status_code, i.error, i.response_body, i.succeeded,
         i.retry_after_ms
       FROM updated u JOIN input i ON i.message_id = u.id
     ), ${HEALTH_CTES}
     SELECT id AS "messageId", attempts AS attempt, status FROM updated`;

export function recordAttemptsParams(
  workerId: string,
  records: readonly AttemptRecord[],
  scheduleMs: readonly number[],
): unknown[] {
  return [
    workerId,
    scheduleMs,
    records.map((r) => r.messageId),
    records.map((r) => r.expectedAttempts),
    records.map((r) => r.succeeded),
    records.map((r) => r.startedAt.toISOString()),
    records.map((r) => r.durationMs),
    records.map((r) => r.statusCode),
    records.map((r) => r.error),
    records.map((r) => r.responseBody),
    // Capped at the schedule's longest wait: a receiver cannot park a message beyond it.
    records.map((r) => (r.retryAfterMs === null ? null : Math.min(r.retryAfterMs, Math.max(0, ...scheduleMs)))),
  ];
}

/**
 * Milliseconds until the earliest pending message that is not yet due falls due, or undefined when
 * there is none: the retry timer. Due messages need no timer: a claim pass takes those it has slots
 * for, and an attempt that ends frees a slot and wakes the worker. One step into messages_due_idx.
 */
export async function millisUntilNextDue(db: Queryable): Promise<number | undefined> {
  const [row] = await db.query<{ ms: number }>(
    `SELECT ceil(extract(epoch FROM next_attempt_at - now()) * 1000)::float8 AS ms
     FROM messages
     WHERE status = 'pending' AND next_attempt_at > now()
     ORDER BY next_attempt_at LIMIT 1`,
  );
  return row?.ms;
}
