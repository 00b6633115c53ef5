// Writes events to the outbox (the `events` table, see migrations 0006 and 0029) inside the caller's
// transaction, so an event exists exactly when the change it describes committed, and fans each out
// to its subscribers' messages in the same statement (docs/decisions/events.md).
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { sampledTraceparent } from '../telemetry/trace-context.ts';
import { type EventType, findEventType } from './event-types.ts';

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
// traceparent, position), in the order of position (so their sequence follows it), and one message per ACTIVE
// subscription of each event's type that reaches it: one whose companies include the event's company,
// or, for an operational event, one of its owner's.
const RECORD_GIVEN = `recorded AS (
    INSERT INTO events (event_type, company_id, owner, data, previous_attributes, traceparent)
    SELECT event_type, company_id, owner, data, previous_attributes, traceparent FROM given ORDER BY position
    RETURNING id, event_type, company_id, owner, sequence, created_at
  ), fanned_out AS (
    INSERT INTO messages (id, subscription_id, event_id)
    SELECT new_message_id(), s.id, r.id
    FROM recorded r JOIN subscriptions s ON s.status = 'ACTIVE' AND s.event_types @> ARRAY[r.event_type]
      AND CASE WHEN r.owner IS NULL THEN r.company_id = ANY(s.companies) ELSE s.owner = r.owner END
    RETURNING event_id
  )`;

/** The first event of the statement's `fanned_out` that made a message, or null when none did. */
export const FIRST_SENT_EVENT = '(SELECT min(event_id::text) FROM fanned_out)';

// One statement for any number of events, given as a JSON array of NewEvent, all recorded under the
// trace context $2 (the traceparent of the span that records them, when it is sampled).
const RECORD_EVENTS = `WITH given AS (
    SELECT item->>'eventType' AS event_type, (item->>'companyId')::uuid AS company_id, item->>'owner' AS owner,
      item->'data' AS data, item->'previousAttributes' AS previous_attributes, $2::text AS traceparent, position
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS given(item, position)
  ), ${RECORD_GIVEN}
  SELECT id AS "eventId", event_type AS "eventType", sequence::float8 AS sequence,
    ${isoTimestamp('created_at')} AS "createdAt",
    ${FIRST_SENT_EVENT} AS "firstSentEventId"
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
 * Wakes the delivery workers once the work that queued messages commits, when `queued` names what it
 * queued (an event or a message id, for the logs; a FIRST_SENT_EVENT is null when nothing was).
 * Never for rolled-back work. A wake-up lost to a crash only delays delivery until the workers poll.
 */
export function wakeWorkers(db: Queryable, queued: string | null | undefined): void {
  if (queued) db.notifyAfterCommit(EVENTS_CHANNEL, queued);
}

/**
 * Inserts the events and their messages in one statement and, when any message was made, wakes the
 * workers once the transaction commits.
 */
export async function recordEvents(tx: Queryable, events: readonly NewEvent[]): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  for (const event of events) {
    if (!findEventType(event.eventType)) throw new Error(`Unknown event type ${event.eventType}`);
  }
  const rows = await tx.query<RecordedEvent & { firstSentEventId: string | null }>(RECORD_EVENTS, [
    JSON.stringify(events),
    sampledTraceparent(),
  ]);
  wakeWorkers(tx, rows[0]?.firstSentEventId);
  return rows.map(({ firstSentEventId: _, ...recorded }) => recorded);
}

/** Records one event: see recordEvents. */
export async function recordEvent(tx: Queryable, event: NewEvent): Promise<RecordedEvent> {
  const [recorded] = await recordEvents(tx, [event]);
  if (!recorded) throw new Error('recordEvents answered no event');
  return recorded;
}
