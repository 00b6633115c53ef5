// What every notification and every feed item carries about its event (docs/decisions/events.md):
// the interface's `data`, `eventId` and `eventType`, then what lets a receiver apply it safely:
// the fields it changed and their values before, and the number that orders one resource's events.
import { isDeepStrictEqual } from 'node:util';
import Type, { type TSchema } from 'typebox';
import { Uuid } from '../http/schemas.ts';

export interface EventPayload {
  /** The resource exactly as its GET answers it after the change; for a deletion, its last state. */
  data: unknown;
  eventId: string;
  eventType: string;
  /** On an event that changed an existing resource: each changed top-level field's value before. */
  previousAttributes?: Record<string, unknown>;
  /** Larger for a later event of the same resource; not consecutive, and not comparable across resources. */
  sequence: number;
}

/** The columns of an event row (alias `e`) that `toEventPayload` reads. */
export const EVENT_PAYLOAD_COLUMNS = `e.data, e.id AS "eventId", e.event_type AS "eventType",
  e.previous_attributes AS "previousAttributes", e.sequence::float8 AS sequence`;

export interface EventPayloadRow {
  data: unknown;
  eventId: string;
  eventType: string;
  previousAttributes: Record<string, unknown> | null;
  sequence: number;
}

/** The payload in the order it is sent: the interface's three members first. */
export function toEventPayload(row: EventPayloadRow): EventPayload {
  return {
    data: row.data,
    eventId: row.eventId,
    eventType: row.eventType,
    ...(row.previousAttributes !== null && { previousAttributes: row.previousAttributes }),
    sequence: row.sequence,
  };
}

/**
 * Each top-level field of `after` (or of `before`) whose value differs, with its value in `before`
 * (null where it had none): Stripe's `previous_attributes`.
 */
export function previousAttributes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!isDeepStrictEqual(before[key], after[key])) changed[key] = before[key] ?? null;
  }
  return changed;
}

/** The schema of a payload whose `data` is `dataSchema`, and whose type is `eventType` when given. */
export function eventPayloadSchema(dataSchema: TSchema, eventType?: string) {
  return Type.Object(
    {
      data: dataSchema,
      eventId: Uuid('The event: the same for every subscription, and in the feed'),
      eventType: eventType === undefined ? Type.String({ examples: ['v1.account.updated'] }) : Type.Literal(eventType),
      previousAttributes: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description:
            'Only on an event that changed an existing resource: each changed field of data with its value before the change',
        }),
      ),
      sequence: Type.Number({
        description:
          'Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources',
      }),
    },
    { description: 'What the event says: the `payload` of every notification of it, and a feed item' },
  );
}

// Moved by every write; a write that moved nothing else changed nothing a receiver keeps.
const WRITE_TIMESTAMPS = new Set(['updatedAt', 'lastUpdatedAt']);

/**
 * What an update changed (previousAttributes), or null when it changed nothing but its write
 * timestamps: such an update (a repeated PUT) records no event.
 */
export function changeOf(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> | null {
  const changed = previousAttributes(before, after);
  return Object.keys(changed).some((key) => !WRITE_TIMESTAMPS.has(key)) ? changed : null;
}
