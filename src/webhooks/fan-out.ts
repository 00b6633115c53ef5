// The fan-out of a change's events to its subscribers' messages: the CTEs that make them, inline in
// the change's statement or in the deferred fan-out of a large change, which the delivery workers
// run after it commits (docs/decisions/events.md, "Large changes are fanned out by the workers").
import type { Queryable } from '../db/database.ts';

/** Changes with more events than this leave their fan-out to the workers. */
export const INLINE_FAN_OUT_MAX_EVENTS = 100;

/** Whether a change of `events` events leaves its fan-out to the workers. */
export const defersFanOut = (events: number): boolean => events > INLINE_FAN_OUT_MAX_EVENTS;

/** The channel a change with a deferred fan-out notifies once it commits; the payload is the row's id. */
export const FAN_OUTS_CHANNEL = 'ledgerhook_fan_outs';

/**
 * Two CTEs making the messages of the events in CTE `recorded` (id, event_type, company_id, owner,
 * created_at), the second named `name` (answering each message's event_id): one message per ACTIVE
 * subscription of the event's type whose companies include the event's company, or, for an
 * operational event, one of its owner's. The subscriptions are looked up once per distinct company
 * (or owner) and type, not once per event: with 300 other companies' subscriptions to the type,
 * testing each against each of a batch's 1,000 events took 100 ms of a 170 ms fan-out. They are found
 * by the company's index (migration 0041), the type tested on those few only (`= ANY`, which no index
 * serves, so that the planner does not read every subscription to the type instead). Each message
 * is dated by its event, so its age counts from the change's commit; a message already made for an
 * event is left as it is, so running a fan-out again makes nothing twice.
 */
export function messagesOfRecorded(name: string): string {
  return `event_keys AS MATERIALIZED (
    SELECT DISTINCT company_id, owner, event_type FROM recorded
  ), targets AS MATERIALIZED (
    SELECT k.company_id, k.owner, k.event_type, s.id AS subscription_id
    FROM event_keys k JOIN subscriptions s ON s.status = 'ACTIVE' AND s.companies @> ARRAY[k.company_id]
      AND k.event_type = ANY(s.event_types)
    WHERE k.owner IS NULL
    UNION ALL
    SELECT k.company_id, k.owner, k.event_type, s.id
    FROM event_keys k JOIN subscriptions s ON s.status = 'ACTIVE' AND s.owner = k.owner AND k.event_type = ANY(s.event_types)
    WHERE k.owner IS NOT NULL
  ), ${name} AS (
    INSERT INTO messages (id, subscription_id, event_id, created_at)
    SELECT new_message_id(), t.subscription_id, r.id, r.created_at
    FROM recorded r JOIN targets t ON t.event_type = r.event_type
      AND t.company_id IS NOT DISTINCT FROM r.company_id AND t.owner IS NOT DISTINCT FROM r.owner
    ON CONFLICT (event_id, subscription_id) DO NOTHING
    RETURNING event_id
  )`;
}

// The oldest waiting fan-out that no other worker is running, deleted in the statement that makes its
// messages: both happen or neither, so a crash leaves it waiting for the next worker. The
// subscriptions are those of the moment it runs, milliseconds after the change committed. Its events
// are read from the table once (MATERIALIZED), whatever the plan of the joins that use them.
const FAN_OUT_NEXT = `WITH taken AS (
    DELETE FROM event_fan_outs
    WHERE id = (SELECT id FROM event_fan_outs ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, event_ids
  ), recorded AS MATERIALIZED (
    SELECT r.id, r.event_type, r.company_id, r.owner, r.created_at
    FROM taken t JOIN events r ON r.id = ANY(t.event_ids)
  ), ${messagesOfRecorded('made')}
  SELECT (SELECT id::text FROM taken) AS "fanOutId", (SELECT count(*)::int FROM made) AS messages,
    (SELECT min(event_id::text) FROM made) AS "firstEventId"`;

export interface FanOutDone {
  fanOutId: string;
  /** The messages it made. */
  messages: number;
  /** The first event that made a message (the events channel's payload), null when none did. */
  firstEventId: string | null;
}

/** Runs the oldest waiting fan-out no one else runs; undefined when there is none. */
export async function fanOutNext(db: Queryable): Promise<FanOutDone | undefined> {
  const [row] = await db.query<FanOutDone | { fanOutId: null }>(FAN_OUT_NEXT);
  return row?.fanOutId ? row : undefined;
}
