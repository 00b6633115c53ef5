// What the outbox holds, for tests of the events a change records (docs/decisions/events.md).
import type { Database } from '../../src/db/database.ts';
import {
  EVENT_PAYLOAD_COLUMNS,
  type EventPayload,
  type EventPayloadRow,
  toEventPayload,
} from '../../src/webhooks/event-payload.ts';

/** Every event of `companyId`'s resources, as payloads, in the order they were recorded. */
export async function eventsOfCompany(db: Database, companyId: string): Promise<EventPayload[]> {
  const rows = await db.query<EventPayloadRow>(
    `SELECT ${EVENT_PAYLOAD_COLUMNS} FROM events e WHERE e.company_id = $1 ORDER BY e.sequence`,
    [companyId],
  );
  return rows.map(toEventPayload);
}

/** The events of `companyId` recorded while `change` ran: the change's own, in order. */
export async function eventsDuring(
  db: Database,
  companyId: string,
  change: () => Promise<unknown>,
): Promise<EventPayload[]> {
  const before = (await eventsOfCompany(db, companyId)).length;
  await change();
  return (await eventsOfCompany(db, companyId)).slice(before);
}

/**
 * Resolves once every transaction that started before now has ended, anywhere on the server (other
 * test files share PostgreSQL): then the feed shows every event committed so far.
 */
export async function feedCaughtUp(db: Database): Promise<void> {
  const [{ next }] = (await db.query<{ next: string }>('SELECT pg_current_xact_id()::text AS next')) as [
    { next: string },
  ];
  for (;;) {
    const [row] = await db.query<{ done: boolean }>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot()) > $1::xid8 AS done',
      [next],
    );
    if (row?.done) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
