// The fan-out of a change's events to its subscribers' messages: the one statement's condition for
// which subscription an event reaches, and the deferred fan-out of a large change, which the delivery
// workers run after it commits (docs/decisions/events.md, "Large changes are fanned out by the
// workers").
import type { Queryable } from '../db/database.ts';

/** Changes with more events than this leave their fan-out to the workers. */
export const INLINE_FAN_OUT_MAX_EVENTS = 100;

/** The channel a change with a deferred fan-out notifies once it commits; the payload is the row's id. */
export const FAN_OUTS_CHANNEL = 'ledgerhook_fan_outs';

/**
 * The messages of the events in CTE `recorded` (id, event_type, company_id, owner, created_at),
 * each dated by its event, so that its age counts from the change's commit: one per ACTIVE
 * subscription of the event's type whose companies include the event's company, or, for an
 * operational event, one of its owner's. Written as two joins rather than one with a CASE, so that
 * the events of one company and type share one lookup of their subscriptions (PostgreSQL's Memoize):
 * with 2,000 other companies' subscriptions to the type, 21,000 events of one company matched in
 * 20 ms against 6.5 s, every event testing every subscription. An event's message made already is
 * left as it is: running a fan-out again makes nothing twice.
 */
export const MESSAGES_OF_RECORDED = `INSERT INTO messages (id, subscription_id, event_id, created_at)
    SELECT new_message_id(), s.id, r.id, r.created_at
    FROM recorded r JOIN subscriptions s ON s.status = 'ACTIVE' AND s.companies @> ARRAY[r.company_id]
      AND s.event_types @> ARRAY[r.event_type]
    WHERE r.owner IS NULL
    UNION ALL
    SELECT new_message_id(), s.id, r.id, r.created_at
    FROM recorded r JOIN subscriptions s ON s.status = 'ACTIVE' AND s.owner = r.owner
      AND s.event_types @> ARRAY[r.event_type]
    WHERE r.owner IS NOT NULL
    ON CONFLICT (event_id, subscription_id) DO NOTHING
    RETURNING event_id`;

// The oldest waiting fan-out that no other worker is running, deleted in the statement that makes its
// messages: both happen or neither, so a crash leaves it waiting for the next worker. The
// subscriptions are those of the moment it runs, milliseconds after the change committed. Its events
// are read once (MATERIALIZED): joined directly, PostgreSQL read all of them again for each
// subscription (550 ms for 1,000 events and 312 subscriptions, against 195 ms).
const FAN_OUT_NEXT = `WITH taken AS (
    DELETE FROM event_fan_outs
    WHERE id = (SELECT id FROM event_fan_outs ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, event_ids
  ), recorded AS MATERIALIZED (
    SELECT r.id, r.event_type, r.company_id, r.owner, r.created_at
    FROM taken t JOIN events r ON r.id = ANY(t.event_ids)
  ), made AS (
    ${MESSAGES_OF_RECORDED}
  )
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
