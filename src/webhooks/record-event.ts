// Writes an event to the outbox (the `events` table, see its migration) inside the caller's
// transaction, so the event exists exactly when the change it describes committed.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { type EventType, findEventType } from './event-types.ts';

/** The channel the delivery worker listens on; the payload is the event id. */
export const EVENTS_CHANNEL = 'ledgerhook_events';

export interface NewEvent {
  eventType: EventType;
  companyId: string;
  /** The resource as the API answers it at this moment. */
  data: unknown;
}

export interface RecordedEvent {
  eventId: string;
  eventType: EventType;
  createdAt: string;
}

/**
 * Inserts the event, fans it out to one message per ACTIVE subscription of its type whose companies
 * include the event's company (docs/decisions/webhook-delivery.md: the messages commit with the change or not at all),
 * and NOTIFYs the workers. NOTIFY is transactional: listeners hear it at commit,
 * and never for a rolled-back event. A missed notification only delays delivery until the worker polls.
 */
export async function recordEvent(tx: Queryable, event: NewEvent): Promise<RecordedEvent> {
  if (!findEventType(event.eventType)) throw new Error(`Unknown event type ${event.eventType}`);
  const [row] = await tx.query<{ eventId: string; createdAt: string }>(
    `INSERT INTO events (event_type, company_id, data) VALUES ($1, $2, $3::jsonb)
     RETURNING id AS "eventId", ${isoTimestamp('created_at')} AS "createdAt"`,
    [event.eventType, event.companyId, JSON.stringify(event.data)],
  );
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  // The webhook-id is drawn per row by new_message_id() (migration 0008).
  await tx.query(
    `INSERT INTO messages (id, subscription_id, event_id)
     SELECT new_message_id(), s.id, $1 FROM subscriptions s
     WHERE s.status = 'ACTIVE' AND s.event_types @> ARRAY[$2::text] AND $3::uuid = ANY(s.companies)`,
    [row.eventId, event.eventType, event.companyId],
  );
  await tx.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, row.eventId]);
  return { eventId: row.eventId, eventType: event.eventType, createdAt: row.createdAt };
}
