// SQL for bookkeeping categories (docs/decisions/bookkeeping.md).
import type { Queryable } from '../db/database.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import type { SqlParams } from '../db/sql-params.ts';
import { type RecordTable, recordColumns } from './record-store.ts';

export const CATEGORIES: RecordTable = {
  table: 'bookkeeping_categories',
  columns: recordColumns(`name, group_id AS "groupId", account_id AS "accountId",
    tax_code_external_id AS "taxCodeExternalId", archived`),
};

export const CATEGORY_SORT_COLUMNS: Record<string, SortColumn> = {
  name: { sql: 'name', type: 'text' },
  id: { sql: 'id', type: 'uuid' },
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  updatedAt: { sql: 'updated_at', type: 'timestamptz' },
};

/**
 * Whether the company has a group with this id and an account with that one. Each one found is
 * locked FOR KEY SHARE until the transaction ends, so neither can be deleted before the category
 * that references it is written: a delete waits, then meets the reference (409); one that committed
 * first leaves nothing to find here (400).
 */
export async function lockReferences(
  db: Queryable,
  companyId: string,
  groupId: string,
  accountId: string,
): Promise<{ group: boolean; account: boolean }> {
  const lock = async (table: string, id: string) =>
    (await db.query(`SELECT 1 FROM ${table} WHERE id = $1 AND company_id = $2 FOR KEY SHARE`, [id, companyId])).length >
    0;
  return {
    group: await lock('bookkeeping_category_groups', groupId),
    account: await lock('accounts', accountId),
  };
}

export interface CategoryFilters {
  companyId: string;
  ids: string[] | null;
  groupIds: string[] | null;
  accountIds: string[] | null;
  externalId: string | null;
  archived: boolean | null;
}

export async function searchCategories(db: Queryable, filters: CategoryFilters, position: PagePosition): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(CATEGORIES.columns),
    from: CATEGORIES.table,
    filter: (params) => categoryConditions(filters, params),
    columns: CATEGORY_SORT_COLUMNS,
    ...position,
  });
}

function categoryConditions(filters: CategoryFilters, params: SqlParams): string[] {
  const conditions = [`company_id = ${params.add(filters.companyId)}`];
  if (filters.ids) conditions.push(`id = ANY(${params.add(filters.ids)}::uuid[])`);
  if (filters.groupIds) conditions.push(`group_id = ANY(${params.add(filters.groupIds)}::uuid[])`);
  if (filters.accountIds) conditions.push(`account_id = ANY(${params.add(filters.accountIds)}::uuid[])`);
  if (filters.externalId !== null) conditions.push(`external_id = ${params.add(filters.externalId)}`);
  if (filters.archived !== null) conditions.push(`archived = ${params.add(filters.archived)}`);
  return conditions;
}
