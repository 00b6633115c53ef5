// Writes events to the outbox (the `events` table, see migrations 0006 and 0029) inside the caller's
// transaction, so an event exists exactly when the change it describes committed, and fans each out
// to its subscribers' messages in the same statement, or, for a change of more than
// INLINE_FAN_OUT_MAX_EVENTS events, leaves that to the workers (fan-out.ts; docs/decisions/events.md).
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { sampledTraceparent } from '../telemetry/trace-context.ts';
import { type EventType, findEventType } from './event-types.ts';
import { defersFanOut, FAN_OUTS_CHANNEL, messagesOfRecorded } from './fan-out.ts';

/** The channel the delivery worker listens on; the payload is an event id. */
export const EVENTS_CHANNEL = 'ledgerhook_events';

export interface NewEvent {
  eventType: EventType;
  /** The company whose resource changed; null for an operational event (see `owner`). */
  companyId: string | null;
  /** The resource as its GET answers it after the change; for a deletion, its last state. */
  data: unknown;
  /** On a change of an existing resource: each changed field's value before (event-payload.ts). */
  previousAttributes?: Record<string, unknown>;
  /**
   * An operational event about one of this owner's subscriptions: sent to the owner's subscriptions
   * of its type whatever their companies, and in no company's feed.
   */
  owner?: string;
}

export interface RecordedEvent {
  eventId: string;
  eventType: EventType;
  sequence: number;
  createdAt: string;
}

// The events a CTE `given` lists (event_type, company_id, owner, data, previous_attributes,
// traceparent, position), in the order of position (so their sequence follows it).
const RECORD_ONLY = `recorded AS (
    INSERT INTO events (event_type, company_id, owner, data, previous_attributes, traceparent)
    SELECT event_type, company_id, owner, data, previous_attributes, traceparent FROM given ORDER BY position
    RETURNING id, event_type, company_id, owner, sequence, created_at
  )`;

// Those events, and one message per ACTIVE subscription of each event's type that reaches it.
const RECORD_GIVEN = `${RECORD_ONLY}, ${messagesOfRecorded('fanned_out')}`;

/** The first event of the statement's `fanned_out` that made a message, or null when none did. */
export const FIRST_SENT_EVENT = '(SELECT min(event_id::text) FROM fanned_out)';

// Those events, and their fan-out left to the workers: one row naming them all, none when there are none.
const RECORD_GIVEN_DEFERRED = `${RECORD_ONLY}, deferred AS (
    INSERT INTO event_fan_outs (event_ids) SELECT array_agg(id) FROM recorded HAVING count(*) > 0 RETURNING id
  )`;

/** The deferred fan-out of a statement's RECORD_GIVEN_DEFERRED, or null when it recorded no event. */
export const DEFERRED_FAN_OUT = '(SELECT id::text FROM deferred)';

// One statement for any number of events, given as a JSON array of NewEvent, all recorded under the
// trace context $2 (the traceparent of the span that records them, when it is sampled). `queued`
// names what the workers are woken for: the first event that made a message, or the deferred fan-out.
const GIVEN_EVENTS = `given AS (
    SELECT item->>'eventType' AS event_type, (item->>'companyId')::uuid AS company_id, item->>'owner' AS owner,
      item->'data' AS data, item->'previousAttributes' AS previous_attributes, $2::text AS traceparent, position
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS given(item, position)
  )`;
const RECORDED_COLUMNS = `id AS "eventId", event_type AS "eventType", sequence::float8 AS sequence,
    ${isoTimestamp('created_at')} AS "createdAt"`;
const RECORD_EVENTS = `WITH ${GIVEN_EVENTS}, ${RECORD_GIVEN}
  SELECT ${RECORDED_COLUMNS}, ${FIRST_SENT_EVENT} AS queued
  FROM recorded ORDER BY sequence`;
const RECORD_EVENTS_DEFERRED = `WITH ${GIVEN_EVENTS}, ${RECORD_GIVEN_DEFERRED}
  SELECT ${RECORDED_COLUMNS}, ${DEFERRED_FAN_OUT} AS queued
  FROM recorded ORDER BY sequence`;

/**
 * For a change written in one statement with its events, where a round trip counts (an account's
 * create): the CTEs that record the events a CTE `given` of the caller lists, as recordEvents does
 * (`given`'s columns: event_type, company_id, owner, data, previous_attributes, traceparent (a
 * parameter the caller sets to sampledTraceparent()), position). The
 * statement's select list then takes FIRST_SENT_EVENT, and its caller hands that to wakeWorkers.
 * One statement is atomic without a transaction.
 */
export function recordingEventsOf(given: string): string {
  return `given AS (${given}), ${RECORD_GIVEN}`;
}

/**
 * As recordingEventsOf, for a change that may record more than INLINE_FAN_OUT_MAX_EVENTS events (a
 * large batch): the events, and their fan-out left to the workers. The statement's select list then
 * takes DEFERRED_FAN_OUT, and its caller hands that to wakeFanOutWorkers.
 */
export function recordingEventsDeferredOf(given: string): string {
  return `given AS (${given}), ${RECORD_GIVEN_DEFERRED}`;
}

/**
 * Wakes the delivery workers once the work that queued messages commits, when `queued` names what it
 * queued (an event or a message id, for the logs; a FIRST_SENT_EVENT is null when nothing was).
 * Never for rolled-back work. A wake-up lost to a crash only delays delivery until the workers poll.
 */
export function wakeWorkers(db: Queryable, queued: string | null | undefined): void {
  if (queued) db.notifyAfterCommit(EVENTS_CHANNEL, queued);
}

/** Wakes a worker to run the deferred fan-out `fanOutId` once it commits; none when it is null. */
export function wakeFanOutWorkers(db: Queryable, fanOutId: string | null | undefined): void {
  if (fanOutId) db.notifyAfterCommit(FAN_OUTS_CHANNEL, fanOutId);
}

/**
 * Inserts the events and their messages in one statement and, when any message was made, wakes the
 * workers once the transaction commits. More than INLINE_FAN_OUT_MAX_EVENTS events are inserted with
 * a fan-out for the workers to run instead, and they are woken for it.
 */
export async function recordEvents(tx: Queryable, events: readonly NewEvent[]): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  for (const event of events) {
    if (!findEventType(event.eventType)) throw new Error(`Unknown event type ${event.eventType}`);
  }
  const deferred = defersFanOut(events.length);
  const rows = await tx.query<RecordedEvent & { queued: string | null }>(
    deferred ? RECORD_EVENTS_DEFERRED : RECORD_EVENTS,
    [JSON.stringify(events), sampledTraceparent()],
  );
  const queued = rows[0]?.queued;
  if (deferred) wakeFanOutWorkers(tx, queued);
  else wakeWorkers(tx, queued);
  return rows.map(({ queued: _, ...recorded }) => recorded);
}

/** Records one event: see recordEvents. */
export async function recordEvent(tx: Queryable, event: NewEvent): Promise<RecordedEvent> {
  const [recorded] = await recordEvents(tx, [event]);
  if (!recorded) throw new Error('recordEvents answered no event');
  return recorded;
}
