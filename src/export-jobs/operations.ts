// What the export jobs API does, one function per operation
// (docs/decisions/export-jobs-and-events.md). Routes parse and shape; these decide.
import type { Principal } from '../auth/principal.ts';
import { type Database, isPgError, PG_UNIQUE_VIOLATION, type Queryable } from '../db/database.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { ApiError } from '../http/problem.ts';
import { changeOf } from '../webhooks/event-payload.ts';
import type { EventType } from '../webhooks/event-types.ts';
import { type NewEvent, recordEvent } from '../webhooks/record-event.ts';
import type {
  ExportJob,
  ExportJobCreate,
  ExportJobEventCreate,
  ExportJobItem,
  ExportJobItemUpdate,
  ExportJobStatus,
} from './schemas.ts';
import * as store from './store.ts';

export interface ExportJobSettings {
  /** Lifetime of a job since its last change (EXPORT_JOB_TTL). */
  ttlSeconds: number;
}

/**
 * 201 with the new pending job and its `v1.export-job.created` event, in one transaction: both exist
 * or neither does. 409 EXPORT_ALREADY_IN_PROGRESS, with the open job's existingJobId, while the
 * company has one.
 */
export async function createExportJob(
  db: Database,
  principal: Principal,
  input: ExportJobCreate,
  settings: ExportJobSettings,
): Promise<ExportJob> {
  assertCompanyAccess(principal, input.companyId);
  try {
    return await db.transaction((tx) => createExportJobIn(tx, principal, input, settings));
  } catch (error) {
    // The partial unique index export_jobs_one_open_per_company_idx: another open job won.
    if (!isPgError(error, PG_UNIQUE_VIOLATION)) throw error;
    // Absent only when that job closed in the moment between: a retry then succeeds.
    const existingJobId = await store.findOpenExportJobId(db, input.companyId.toLowerCase());
    throw new ApiError(
      'EXPORT_ALREADY_IN_PROGRESS',
      `Company ${input.companyId} already has an open export job${existingJobId ? ` (${existingJobId})` : ''}`,
      existingJobId ? { existingJobId } : {},
    );
  }
}

/** The work of createExportJob inside the caller's transaction `tx`; every write goes through it. */
export async function createExportJobIn(
  tx: Queryable,
  principal: Principal,
  input: ExportJobCreate,
  settings: ExportJobSettings,
): Promise<ExportJob> {
  const companyId = input.companyId.toLowerCase();
  const listed = input.accountingEntryIds?.map((id) => id.toLowerCase()) ?? null;
  const requested = listed ? [...new Set(listed)] : null;
  const jobId = await store.insertExportJob(tx, {
    companyId,
    // The reference's employeeId names the user who started it; an integration acting for a user
    // passes it, and without it the job is the token subject's.
    createdBy: input.employeeId?.toLowerCase() ?? principal.subject,
    isInteractive: input.isInteractive ?? true,
    vendorBasedBookkeeping: input.options?.vendorBasedBookkeeping ?? false,
  });
  const added = await store.insertExportJobItems(tx, jobId, companyId, requested);
  if (listed && requested && added.length < requested.length) throw unknownEntries(companyId, listed, added);
  await store.setNumberOfItems(tx, jobId, added.length);
  // One object is both the event's data and the response: they cannot drift apart.
  const job = await store.findExportJob(tx, jobId, [companyId], settings.ttlSeconds);
  if (!job) throw new Error(`Export job ${jobId} vanished inside its own transaction`);
  await recordEvent(tx, { eventType: 'v1.export-job.created', companyId, data: job });
  return job;
}

export async function getExportJob(
  db: Database,
  principal: Principal,
  id: string,
  settings: ExportJobSettings,
): Promise<ExportJob> {
  const job = await store.findExportJob(db, id, [...principal.companies], settings.ttlSeconds);
  if (!job) throw exportNotFound(id);
  return job;
}

export async function listExportJobs(
  db: Database,
  principal: Principal,
  filters: store.ExportJobFilters,
  position: PagePosition,
  settings: ExportJobSettings,
) {
  for (const company of filters.companies) assertCompanyAccess(principal, company);
  const page = await store.listExportJobs(db, filters, position, settings.ttlSeconds);
  return page;
}

/**
 * The filters of a list query: company_id (else every company of the token), and the jobs in any of
 * `statuses` and the deprecated single `status` together (docs/decisions/export-jobs-and-events.md).
 */
export function toExportJobFilters(
  principal: Principal,
  query: { company_id?: string; status?: ExportJobStatus; statuses?: ExportJobStatus[] },
): store.ExportJobFilters {
  const statuses = [...(query.statuses ?? []), ...(query.status ? [query.status] : [])];
  return {
    companies: query.company_id ? [query.company_id.toLowerCase()] : [...principal.companies].sort(),
    statuses: statuses.length ? [...new Set(statuses)].sort() : null,
  };
}

/**
 * Which statuses each event moves a job from, and to, and the event type it records: the transition
 * table of docs/decisions/export-jobs-and-events.md. A job may fail before it starts (an integration
 * that cannot reach the accounting system, or a user who cancels, never reports started).
 */
const TRANSITIONS: Record<
  ExportJobEventCreate['event'],
  { from: ExportJobStatus[]; to: ExportJobStatus; eventType: EventType }
> = {
  started: { from: ['pending'], to: 'in_progress', eventType: 'v1.export-job.started' },
  completed: { from: ['in_progress'], to: 'completed', eventType: 'v1.export-job.completed' },
  completed_with_errors: {
    from: ['in_progress'],
    to: 'completed_with_errors',
    eventType: 'v1.export-job.completed-with-errors',
  },
  failed: { from: ['pending', 'in_progress'], to: 'failed', eventType: 'v1.export-job.failed' },
};

/** The statuses in which a job is over: its items no longer change. */
const FINISHED: ReadonlySet<string> = new Set<ExportJobStatus>(['completed', 'completed_with_errors', 'failed']);

/**
 * 202, the change and its event (v1.export-job.started, …) in one transaction; 404 for a job the
 * caller cannot see; 422 INVALID_EXPORT_JOB_STATUS_CHANGE, with nothing changed or recorded, otherwise.
 */
export async function recordExportJobEvent(
  db: Database,
  principal: Principal,
  input: ExportJobEventCreate,
  settings: ExportJobSettings,
): Promise<void> {
  const companies = [...principal.companies];
  const { eventType, ...transition } = TRANSITIONS[input.event];
  const failed = input.event === 'failed';
  await db.transaction(async (tx) => {
    // Locked before it is read, so `before` is the state the change replaces.
    const before = await store.findExportJob(tx, input.jobId, companies, settings.ttlSeconds, { lock: true });
    if (!before) throw exportNotFound(input.jobId);
    const changed = await store.changeExportJobStatus(tx, input.jobId, companies, {
      ...transition,
      // A failure reason belongs to a failed job only; other events clear nothing they did not set.
      failureReason: failed ? (input.failureReason ?? null) : null,
      failureReasonType: failed ? (input.failureReasonType ?? null) : null,
    });
    if (!changed) {
      throw new ApiError(
        'INVALID_EXPORT_JOB_STATUS_CHANGE',
        `Export job ${input.jobId} is ${before.status}; ${input.event} needs it ${transition.from.join(' or ')}`,
      );
    }
    const after = await store.findExportJob(tx, input.jobId, companies, settings.ttlSeconds);
    await recordEvent(tx, statusChangeEvent(eventType, before, after));
  });
}

/**
 * The event of a job's change of status: data the job as GET answers it after the change,
 * previousAttributes the fields the change moved (status, its timestamps, a failure reason…).
 */
export function statusChangeEvent(eventType: EventType, before: ExportJob, after: ExportJob | undefined): NewEvent {
  if (!after) throw new Error(`Export job ${before.id} vanished inside its own transaction`);
  const changed = changeOf(before, after);
  // Its status moved, so something changed; null would mean `before` was read after the change.
  if (!changed) throw new Error(`Export job ${before.id} changed status without a change`);
  return { eventType, companyId: after.companyId, data: after, previousAttributes: changed };
}

export async function listExportJobItems(
  db: Database,
  principal: Principal,
  jobId: string,
  status: string | null,
  position: PagePosition,
) {
  await getExportJob(db, principal, jobId, { ttlSeconds: 0 });
  const page = await store.listExportJobItems(db, jobId, status, position);
  return page;
}

export interface ItemUpdateResult {
  data: ExportJobItem[];
  errors: { accountingEntryId: string; message: string; type: 'ACCOUNTING_ENTRY_DOES_NOT_EXIST' }[];
}

/**
 * Updates up to MAX_ITEM_UPDATES items of one job; entries not in the job are reported, not fatal.
 * A finished job's items are its result: 422 EXPORT_JOB_STATUS_UNPROCESSABLE, nothing changed.
 * Records no event: items are no part of the job's data, of which only lastUpdatedAt (a write
 * timestamp) and so expiresIn move.
 */
export async function updateExportJobItems(
  db: Database,
  principal: Principal,
  jobId: string,
  updates: readonly ExportJobItemUpdate[],
): Promise<ItemUpdateResult> {
  // The last update of an entry wins, as if they were applied in order.
  const byEntry = new Map(updates.map((u) => [u.accountingEntryId.toLowerCase(), { ...u }]));
  return db.transaction(async (tx) => {
    const status = await store.lockExportJobStatus(tx, jobId, [...principal.companies]);
    if (!status) throw exportNotFound(jobId);
    if (FINISHED.has(status)) {
      throw new ApiError('EXPORT_JOB_STATUS_UNPROCESSABLE', `Export job ${jobId} is finished (${status})`);
    }
    const updated = await store.updateExportJobItems(
      tx,
      jobId,
      [...byEntry].map(([accountingEntryId, u]) => ({ ...u, accountingEntryId })),
    );
    const found = new Set(updated.map((item) => item.accountingEntryId));
    return {
      data: updated,
      errors: [...byEntry.keys()]
        .filter((id) => !found.has(id))
        .map((id) => ({
          accountingEntryId: id,
          message: `Export job ${jobId} has no item for accounting entry ${id}`,
          type: 'ACCOUNTING_ENTRY_DOES_NOT_EXIST' as const,
        })),
    };
  });
}

/** The 400 naming every index, as sent, of an id that is not an entry of the company. */
function unknownEntries(companyId: string, listed: string[], added: string[]): ApiError {
  const known = new Set(added);
  return new ApiError('UNKNOWN_ACCOUNTING_ENTRY', `Company ${companyId} has no such accounting entries`, {
    errors: listed.flatMap((id, index) =>
      known.has(id)
        ? []
        : [{ path: `/accountingEntryIds/${index}`, message: 'must be an accounting entry of the company', in: 'body' }],
    ),
  });
}

function exportNotFound(id: string): ApiError {
  return new ApiError('EXPORT_NOT_FOUND', `No export job ${id}`);
}
