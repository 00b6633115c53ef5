// The created, updated and deleted events of a company's resource (docs/decisions/events.md), for the
// operation that made the change to call in its own transaction, after the change's write.
import type { Queryable } from '../db/database.ts';
import { changeOf } from './event-payload.ts';
import type { EventType } from './event-types.ts';
import { recordEvent, recordEvents } from './record-event.ts';

/** A resource as its GET answers it; every one belongs to a company. */
type CompanyResource = { companyId: string } & Record<string, unknown>;

/** Records `created`: data is the new resource. */
export async function recordCreation(tx: Queryable, eventType: EventType, created: CompanyResource): Promise<void> {
  await recordEvent(tx, { eventType, companyId: created.companyId, data: created });
}

/**
 * Records `updated` with the fields that changed and their values in `before`; nothing when only
 * the write timestamps moved (a repeated PUT).
 */
export async function recordUpdate(
  tx: Queryable,
  eventType: EventType,
  before: CompanyResource,
  after: CompanyResource,
): Promise<void> {
  const previousAttributes = changeOf(before, after);
  if (previousAttributes === null) return;
  await recordEvent(tx, { eventType, companyId: after.companyId, data: after, previousAttributes });
}

/** Records one `deleted` per resource, each with its last state, in one statement. */
export async function recordDeletions(
  tx: Queryable,
  eventType: EventType,
  deleted: readonly CompanyResource[],
): Promise<void> {
  await recordEvents(
    tx,
    deleted.map((resource) => ({ eventType, companyId: resource.companyId, data: resource })),
  );
}
