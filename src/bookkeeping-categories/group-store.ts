// SQL for bookkeeping category groups (docs/decisions/bookkeeping.md).
import type { Queryable } from '../db/database.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import type { SqlParams } from '../db/sql-params.ts';
import { type RecordTable, recordColumns } from './record-store.ts';

export const GROUPS: RecordTable = {
  table: 'bookkeeping_category_groups',
  columns: recordColumns('name, type, archived'),
};

export const GROUP_SORT_COLUMNS: Record<string, SortColumn> = {
  name: { sql: 'name', type: 'text' },
  type: { sql: 'type', type: 'text' },
  id: { sql: 'id', type: 'uuid' },
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  updatedAt: { sql: 'updated_at', type: 'timestamptz' },
};

export interface GroupFilters {
  companyId: string;
  ids: string[] | null;
  types: string[] | null;
  externalId: string | null;
  archived: boolean | null;
}

export async function searchGroups(db: Queryable, filters: GroupFilters, position: PagePosition): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(GROUPS.columns),
    from: GROUPS.table,
    filter: (params) => groupConditions(filters, params),
    columns: GROUP_SORT_COLUMNS,
    ...position,
  });
}

/** The WHERE conditions of a group search; the aggregated view's too. */
export function groupConditions(filters: GroupFilters, params: SqlParams): string[] {
  const conditions = [`company_id = ${params.add(filters.companyId)}`];
  if (filters.ids) conditions.push(`id = ANY(${params.add(filters.ids)}::uuid[])`);
  if (filters.types) conditions.push(`type = ANY(${params.add(filters.types)}::text[])`);
  if (filters.externalId !== null) conditions.push(`external_id = ${params.add(filters.externalId)}`);
  if (filters.archived !== null) conditions.push(`archived = ${params.add(filters.archived)}`);
  return conditions;
}

/** Up to `limit` ids of the group's categories, for the problem that refuses its delete. */
export async function findGroupCategoryIds(db: Queryable, groupId: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM bookkeeping_categories WHERE group_id = $1 ORDER BY name, id LIMIT $2',
    [groupId, limit],
  );
  return rows.map((row) => row.id);
}
