// SQL for the aggregated view: pages of category groups, each with its categories and their
// accounts written into the group's JSON by the page statement (docs/decisions/bookkeeping.md).
import type { Queryable } from '../db/database.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import { GROUP_SORT_COLUMNS, GROUPS, type GroupFilters, groupConditions } from './group-store.ts';

export interface AggregatedFilters extends GroupFilters {
  /** Only categories with this archived flag; null: all. */
  categoryArchived: boolean | null;
}

export async function searchAggregatedGroups(
  db: Queryable,
  filters: AggregatedFilters,
  position: PagePosition,
): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(`${GROUPS.columns}, ${categoriesOfGroup(filters.categoryArchived)} AS categories`),
    from: GROUPS.table,
    filter: (params) => groupConditions(filters, params),
    columns: GROUP_SORT_COLUMNS,
    ...position,
  });
}

/**
 * The JSON array of the current group's categories, by name then id, each with its account. The
 * flag is written into the text (it has three values), so that each keeps its own statement.
 */
function categoriesOfGroup(archived: boolean | null): string {
  const onlyArchived = archived === null ? '' : ` AND c.archived = ${archived ? 'true' : 'false'}`;
  return `(SELECT coalesce(json_agg(category ORDER BY c.name, c.id), '[]')
    FROM bookkeeping_categories c JOIN accounts a ON a.id = c.account_id,
      LATERAL (SELECT c.id, c.external_id AS "externalId", c.name, c.archived,
        c.tax_code_external_id AS "taxCodeExternalId",
        (SELECT row_to_json(account) FROM (SELECT a.id, a.code, a.name, a.archived) account) AS account) category
    WHERE c.group_id = ${GROUPS.table}.id${onlyArchived})`;
}
