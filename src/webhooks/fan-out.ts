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
 * Whether ACTIVE subscription `s` takes event `r`: its types include the event's, and its companies
 * the event's company, or, for an operational event, it is one of the event's owner's.
 */
export const SUBSCRIPTION_TAKES_EVENT = `s.status = 'ACTIVE' AND s.event_types @> ARRAY[r.event_type]
      AND CASE WHEN r.owner IS NULL THEN r.company_id = ANY(s.companies) ELSE s.owner = r.owner END`;

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
    SELECT r.id, r.event_type, r.company_id, r.owner FROM taken t JOIN events r ON r.id = ANY(t.event_ids)
  ), made AS (
    INSERT INTO messages (id, subscription_id, event_id)
    SELECT new_message_id(), s.id, r.id
    FROM recorded r JOIN subscriptions s ON ${SUBSCRIPTION_TAKES_EVENT}
    RETURNING event_id
  )
  SELECT (SELECT id::text FROM taken) AS "fanOutId", (SELECT count(*)::int FROM made) AS messages`;

export interface FanOutDone {
  fanOutId: string;
  /** The messages it made. */
  messages: number;
}

/** Runs the oldest waiting fan-out no one else runs; undefined when there is none. */
export async function fanOutNext(db: Queryable): Promise<FanOutDone | undefined> {
  const [row] = await db.query<{ fanOutId: string | null; messages: number }>(FAN_OUT_NEXT);
  return row?.fanOutId ? { fanOutId: row.fanOutId, messages: row.messages } : undefined;
}
