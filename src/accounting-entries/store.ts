// SQL for accounting entries. Every statement is scoped to the companies the caller may see, so a
// row of another company is indistinguishable from a missing one.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import type { SqlParams } from '../db/sql-params.ts';
import type { AccountingEntry } from './schemas.ts';

// date and amount are qualified: a bare name in ORDER BY would mean the text output column of the
// same name, which sorts "-5" after "10".
export const ACCOUNTING_ENTRY_SORT_COLUMNS: Record<string, SortColumn> = {
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  date: { sql: 'accounting_entries.date', type: 'date' },
  amount: { sql: 'accounting_entries.amount', type: 'numeric' },
  id: { sql: 'id', type: 'uuid' },
};

// amount and date are read as text: the drivers would turn them into floats and local-time Dates.
const COLUMNS = `id, company_id AS "companyId", account_id AS "accountId", amount::text AS amount, currency,
  to_char(date, 'YYYY-MM-DD') AS date, description,
  ${isoTimestamp('created_at')} AS "createdAt"`;

export interface NewAccountingEntry {
  companyId: string;
  accountId: string;
  amount: string;
  currency: string;
  date: string;
  description: string | null;
}

/**
 * Inserts the entry when its account belongs to its company; undefined otherwise. An account
 * deleted meanwhile makes the foreign key fail instead.
 */
export async function insertAccountingEntry(
  db: Queryable,
  entry: NewAccountingEntry,
): Promise<AccountingEntry | undefined> {
  const [row] = await db.query<AccountingEntry>(
    `INSERT INTO accounting_entries (company_id, account_id, amount, currency, date, description)
     SELECT company_id, id, $3::numeric, $4, $5::date, $6 FROM accounts WHERE id = $2 AND company_id = $1
     RETURNING ${COLUMNS}`,
    [entry.companyId, entry.accountId, entry.amount, entry.currency, entry.date, entry.description],
  );
  return row;
}

export async function findAccountingEntry(
  db: Queryable,
  id: string,
  companies: readonly string[],
): Promise<AccountingEntry | undefined> {
  const [row] = await db.query<AccountingEntry>(
    `SELECT ${COLUMNS} FROM accounting_entries WHERE id = $1 AND company_id = ANY($2::uuid[])`,
    [id, companies],
  );
  return row;
}

/** Deletes the entry and answers its last state; undefined when there is none the caller may see. */
export async function deleteAccountingEntry(
  db: Queryable,
  id: string,
  companies: readonly string[],
): Promise<AccountingEntry | undefined> {
  const [row] = await db.query<AccountingEntry>(
    `DELETE FROM accounting_entries WHERE id = $1 AND company_id = ANY($2::uuid[]) RETURNING ${COLUMNS}`,
    [id, companies],
  );
  return row;
}

export interface AccountingEntryFilters {
  companyId: string;
  ids: string[] | null;
  accountIds: string[] | null;
  dateFrom: string | null;
  dateTo: string | null;
}

export async function searchAccountingEntries(
  db: Queryable,
  filters: AccountingEntryFilters,
  position: PagePosition,
): Promise<Page> {
  const onlyCompany = !filters.ids && !filters.accountIds && filters.dateFrom === null && filters.dateTo === null;
  return fetchPage(db, {
    json: rowToJson(COLUMNS),
    from: 'accounting_entries',
    filter: (params) => entryConditions(filters, params),
    columns: ACCOUNTING_ENTRY_SORT_COLUMNS,
    // A company's entries are counted by migration 0015's trigger; a filtered set is counted here.
    totalSql: onlyCompany
      ? (params) =>
          `SELECT coalesce(sum(n), 0) FROM accounting_entry_counts WHERE company_id = ${params.add(filters.companyId)}`
      : undefined,
    ...position,
  });
}

function entryConditions(filters: AccountingEntryFilters, params: SqlParams): string[] {
  const conditions = [`company_id = ${params.add(filters.companyId)}`];
  if (filters.ids) conditions.push(`id = ANY(${params.add(filters.ids)}::uuid[])`);
  if (filters.accountIds) conditions.push(`account_id = ANY(${params.add(filters.accountIds)}::uuid[])`);
  if (filters.dateFrom !== null) conditions.push(`date >= ${params.add(filters.dateFrom)}::date`);
  if (filters.dateTo !== null) conditions.push(`date <= ${params.add(filters.dateTo)}::date`);
  return conditions;
}
