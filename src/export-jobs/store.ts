// SQL for export jobs and their items. Statements that read or change a job are scoped to the
// companies the caller may see, so a job of another company is indistinguishable from a missing one.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import type { ExportJob, ExportJobItem, ExportJobItemUpdate, ExportJobStatus } from './schemas.ts';

export const EXPORT_JOB_SORT_COLUMNS: Record<string, SortColumn> = {
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  id: { sql: 'id', type: 'uuid' },
};

// An item is identified by its entry within one job; that is also its tie-breaker.
export const EXPORT_JOB_ITEM_SORT_COLUMNS: Record<string, SortColumn> = {
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  accountingEntryId: { sql: 'accounting_entry_id', type: 'uuid' },
  id: { sql: 'accounting_entry_id', type: 'uuid' },
};

/**
 * The columns of a job. expiresIn is computed by the database from its own clock, so every read in
 * one transaction agrees; `ttlSeconds` is a configured integer, inlined so list queries can use it.
 */
function jobColumns(ttlSeconds: number): string {
  if (!Number.isSafeInteger(ttlSeconds)) throw new Error(`ttlSeconds must be an integer, not ${ttlSeconds}`);
  return `id, company_id AS "companyId", ${isoTimestamp('created_at')} AS "createdAt", created_by AS "createdBy",
  GREATEST(0, floor(extract(epoch FROM last_updated_at + make_interval(secs => ${ttlSeconds}) - now())))::int
    AS "expiresIn",
  number_of_items AS "numberOfItems", status, is_interactive AS "isInteractive",
  vendor_based_bookkeeping AS "vendorBasedBookkeeping", failure_reason AS "failureReason",
  failure_reason_type AS "failureReasonType", ${isoTimestamp('last_updated_at')} AS "lastUpdatedAt",
  ${isoTimestamp('started_at')} AS "startedAt", ${isoTimestamp('completed_at')} AS "completedAt", ${isoTimestamp('expired_at')} AS "expiredAt"`;
}

const ITEM_COLUMNS = `job_id AS "exportJobId", accounting_entry_id AS "accountingEntryId", status,
  ${isoTimestamp('exported_at')} AS "exportedAt", external_id AS "externalId", external_url AS "externalUrl",
  failure_reason AS "failureReason", failure_reason_type AS "failureReasonType"`;

export interface NewExportJob {
  companyId: string;
  createdBy: string;
  isInteractive: boolean;
  vendorBasedBookkeeping: boolean;
}

/** Inserts a pending job; 23505 when the company already has an open one. */
export async function insertExportJob(tx: Queryable, job: NewExportJob): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO export_jobs (company_id, created_by, is_interactive, vendor_based_bookkeeping)
     VALUES ($1, $2, $3, $4) RETURNING id`,
    [job.companyId, job.createdBy, job.isInteractive, job.vendorBasedBookkeeping],
  );
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  return row.id;
}

/**
 * Adds one item per selected entry of the company: `entryIds`, or by default every entry not yet in
 * any export job item. Returns the entry ids added (ids of other companies are not).
 */
export async function insertExportJobItems(
  tx: Queryable,
  jobId: string,
  companyId: string,
  entryIds: readonly string[] | null,
): Promise<string[]> {
  const selection = entryIds
    ? 'e.id = ANY($3::uuid[])'
    : 'NOT EXISTS (SELECT 1 FROM export_job_items i WHERE i.accounting_entry_id = e.id)';
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO export_job_items (job_id, accounting_entry_id)
     SELECT $1, e.id FROM accounting_entries e WHERE e.company_id = $2 AND ${selection}
     RETURNING accounting_entry_id AS id`,
    entryIds ? [jobId, companyId, entryIds] : [jobId, companyId],
  );
  return rows.map((row) => row.id);
}

export async function setNumberOfItems(tx: Queryable, jobId: string, count: number): Promise<void> {
  await tx.query('UPDATE export_jobs SET number_of_items = $2 WHERE id = $1', [jobId, count]);
}

/** The job as GET answers it; with `lock`, its row is also locked until the transaction ends. */
export async function findExportJob(
  db: Queryable,
  id: string,
  companies: readonly string[],
  ttlSeconds: number,
  options: { lock?: boolean } = {},
): Promise<ExportJob | undefined> {
  const [row] = await db.query<ExportJob>(
    `SELECT ${jobColumns(ttlSeconds)} FROM export_jobs WHERE id = $1 AND company_id = ANY($2::uuid[])${options.lock ? ' FOR UPDATE' : ''}`,
    [id, companies],
  );
  return row;
}

/** The jobs of `ids` as GET answers them, whatever their companies (for the expiry sweep), in no order. */
export async function findExportJobsById(
  db: Queryable,
  ids: readonly string[],
  ttlSeconds: number,
): Promise<ExportJob[]> {
  return db.query<ExportJob>(`SELECT ${jobColumns(ttlSeconds)} FROM export_jobs WHERE id = ANY($1::uuid[])`, [ids]);
}

/**
 * Up to `batchSize` open jobs unchanged for `ttlSeconds`, oldest first, as GET answers them and locked
 * until the transaction ends. SKIP LOCKED: several sweeps at once claim each job once, and none waits
 * for a job another transaction is changing.
 */
export async function claimOverdueExportJobs(
  tx: Queryable,
  ttlSeconds: number,
  batchSize: number,
): Promise<ExportJob[]> {
  return tx.query<ExportJob>(
    `SELECT ${jobColumns(ttlSeconds)} FROM export_jobs
     WHERE status IN ('pending', 'in_progress') AND last_updated_at < now() - make_interval(secs => $1)
     ORDER BY last_updated_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [ttlSeconds, batchSize],
  );
}

/** The job's status, its row locked until the transaction ends; undefined when the caller cannot see it. */
export async function lockExportJobStatus(
  tx: Queryable,
  id: string,
  companies: readonly string[],
): Promise<ExportJobStatus | undefined> {
  const [row] = await tx.query<{ status: ExportJobStatus }>(
    'SELECT status FROM export_jobs WHERE id = $1 AND company_id = ANY($2::uuid[]) FOR UPDATE',
    [id, companies],
  );
  return row?.status;
}

/** The company's pending or in_progress job, if any (for a conflict's existingJobId). */
export async function findOpenExportJobId(db: Queryable, companyId: string): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>(
    "SELECT id FROM export_jobs WHERE company_id = $1 AND status IN ('pending', 'in_progress')",
    [companyId],
  );
  return row?.id;
}

export interface StatusChange {
  /** Any of these. */
  from: readonly ExportJobStatus[];
  to: ExportJobStatus;
  failureReason: string | null;
  failureReasonType: string | null;
}

/**
 * Moves the job from any of `from` to `to`, stamping started_at or completed_at. Guarded by the
 * statuses it expects, so of two racing changes only one applies; false when the job is not (or no
 * longer) in `from`.
 */
export async function changeExportJobStatus(
  db: Queryable,
  id: string,
  companies: readonly string[],
  change: StatusChange,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE export_jobs SET status = $4, last_updated_at = now(),
       started_at = CASE WHEN $4 = 'in_progress' THEN now() ELSE started_at END,
       completed_at = CASE WHEN $4 <> 'in_progress' THEN now() ELSE completed_at END,
       failure_reason = $5, failure_reason_type = $6
     WHERE id = $1 AND company_id = ANY($2::uuid[]) AND status = ANY($3::text[]) RETURNING id`,
    [id, companies, change.from, change.to, change.failureReason, change.failureReasonType],
  );
  return rows.length > 0;
}

export interface ExportJobFilters {
  companies: string[];
  statuses: ExportJobStatus[] | null;
}

export async function listExportJobs(
  db: Queryable,
  filters: ExportJobFilters,
  position: PagePosition,
  ttlSeconds: number,
): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(jobColumns(ttlSeconds)),
    from: 'export_jobs',
    filter: (params) => {
      const conditions = [`company_id = ANY(${params.add(filters.companies)}::uuid[])`];
      if (filters.statuses) conditions.push(`status = ANY(${params.add(filters.statuses)}::text[])`);
      return conditions;
    },
    columns: EXPORT_JOB_SORT_COLUMNS,
    ...position,
  });
}

export async function listExportJobItems(
  db: Queryable,
  jobId: string,
  status: string | null,
  position: PagePosition,
): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(ITEM_COLUMNS),
    from: 'export_job_items',
    filter: (params) => {
      const conditions = [`job_id = ${params.add(jobId)}`];
      if (status !== null) conditions.push(`status = ${params.add(status)}`);
      return conditions;
    },
    columns: EXPORT_JOB_ITEM_SORT_COLUMNS,
    ...position,
  });
}

/**
 * Applies the updates to the items of the job in one statement and counts it as an action on the
 * job (its expiry restarts). Returns the items updated; entries that are not in the job are left out.
 */
export async function updateExportJobItems(
  tx: Queryable,
  jobId: string,
  updates: readonly ExportJobItemUpdate[],
): Promise<ExportJobItem[]> {
  // The recordset's columns are named apart from the item's, so RETURNING reads the item unqualified.
  const rows = await tx.query<ExportJobItem>(
    `UPDATE export_job_items i SET status = u.new_status, exported_at = u.new_exported_at,
       external_id = u.new_external_id, external_url = u.new_external_url,
       failure_reason = u.new_failure_reason, failure_reason_type = u.new_failure_reason_type, updated_at = now()
     FROM jsonb_to_recordset($2::jsonb) AS u(entry_id uuid, new_status text, new_exported_at timestamptz,
       new_external_id text, new_external_url text, new_failure_reason text, new_failure_reason_type text)
     WHERE i.job_id = $1 AND i.accounting_entry_id = u.entry_id
     RETURNING ${ITEM_COLUMNS}`,
    [
      jobId,
      JSON.stringify(
        updates.map((u) => ({
          entry_id: u.accountingEntryId,
          new_status: u.status,
          new_exported_at: u.exportedAt ?? null,
          new_external_id: u.externalId ?? null,
          new_external_url: u.externalUrl ?? null,
          new_failure_reason: u.failureReason ?? null,
          new_failure_reason_type: u.failureReasonType ?? null,
        })),
      ),
    ],
  );
  await tx.query('UPDATE export_jobs SET last_updated_at = now() WHERE id = $1', [jobId]);
  return rows;
}
