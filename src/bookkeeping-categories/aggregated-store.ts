// SQL for the aggregated view: pages of category groups, each with its categories and their
// accounts written into the group's JSON by the page statement (docs/decisions/bookkeeping.md).
import type { Queryable } from '../db/database.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import { GROUP_SORT_COLUMNS, GROUPS, type GroupFilters, groupConditions } from './group-store.ts';

export interface AggregatedFilters extends GroupFilters {
  /** Only categories with this archived flag; null: all. */
  categoryArchived: boolean | null;
}

/**
 * The most categories a group shows in the aggregated view, by name then id. A group may hold any
 * number of categories; with this bound a group is about 25 KB with ordinary names and under 800 KB
 * at the very worst, so the page budget bounds the answer and no group alone outgrows it
 * (docs/decisions/bounded-answers.md). The rest are the category search's.
 */
export const CATEGORIES_PER_GROUP = 100;

/**
 * The most groups a page of the aggregated view holds, whatever its `limit`: each group's categories
 * are written into its JSON per request, for every group the page statement fetches, so a page of
 * 1,000 groups built 100,000 categories to send the 40 that fit the byte budget.
 */
export const GROUPS_PER_PAGE = 100;

export async function searchAggregatedGroups(
  db: Queryable,
  filters: AggregatedFilters,
  position: PagePosition,
): Promise<Page> {
  const categories = categoriesOfGroup(filters.categoryArchived);
  return fetchPage(db, {
    json: rowToJson(
      `${GROUPS.columns}, ${categories.firstOnes} AS categories, ${categories.more} AS "hasMoreCategories"`,
    ),
    from: GROUPS.table,
    filter: (params) => groupConditions(filters, params),
    columns: GROUP_SORT_COLUMNS,
    // A page builds at most 101 groups' categories (10,100), not 1,001 groups' (100,100).
    maxRows: GROUPS_PER_PAGE,
    ...position,
  });
}

/**
 * The JSON array of the current group's first CATEGORIES_PER_GROUP categories, by name then id, each
 * with its account, and whether it has more. Both walk the group's (group_id, name, id) index; the
 * flag is written into the text (it has three values), so that each keeps its own statement.
 */
function categoriesOfGroup(archived: boolean | null): { firstOnes: string; more: string } {
  const ofGroup = `c.group_id = ${GROUPS.table}.id${archived === null ? '' : ` AND c.archived = ${archived}`}`;
  return {
    firstOnes: `(SELECT coalesce(json_agg(category ORDER BY category.name, category.id), '[]') FROM (
      SELECT c.id, c.external_id AS "externalId", c.name, c.archived, c.tax_code_external_id AS "taxCodeExternalId",
        (SELECT row_to_json(account) FROM (SELECT a.id, a.code, a.name, a.archived) account) AS account
      FROM bookkeeping_categories c JOIN accounts a ON a.id = c.account_id
      WHERE ${ofGroup} ORDER BY c.name, c.id LIMIT ${CATEGORIES_PER_GROUP}) category)`,
    more: `(SELECT count(*) FROM (SELECT FROM bookkeeping_categories c WHERE ${ofGroup}
      LIMIT ${CATEGORIES_PER_GROUP + 1}) category) > ${CATEGORIES_PER_GROUP}`,
  };
}
