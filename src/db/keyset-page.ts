import type { Queryable } from './database.ts';
import {
  comparePredicate,
  orderByClause,
  type SortColumn,
  type SortKey,
  type SortTerm,
  toSortTerms,
} from './keyset.ts';
import { SqlParams } from './sql-params.ts';

/** One list query: which rows, how they look, how they sort, and which page of them. */
export interface PageQuerySpec {
  /** The JSON object of one row as the API shows it: an SQL expression over `from`, see `rowToJson`. */
  json: string;
  from: string;
  /** Adds the filter values to `params` and returns the WHERE conditions (ANDed). */
  filter: (params: SqlParams) => string[];
  columns: Record<string, SortColumn>;
  sort: SortKey[];
  limit: number;
  offset?: number;
  after?: string[];
  before?: string[];
  /**
   * The filters are the same kind of set whatever their values (a whole company), so one plan
   * serves every page: PostgreSQL keeps it instead of planning each call (QueryOptions.reusePlan).
   * Leave it unset when a filter's selectivity depends on its value, such as a name substring.
   */
  reusePlan?: boolean;
  /**
   * A filter picks its rows through an index of its own, and how many it picks depends on its value
   * in a way the planner cannot know (a name substring through the trigram index). The matching rows
   * are then found first, counted, and sorted, so a page costs what finding the matches costs;
   * otherwise the planner may walk a sort index testing every row, and read the whole company when
   * its guess of the matches' share is too high (bench: 1,000,000 accounts, 2.7 s instead of 8 ms).
   */
  matchesFirst?: boolean;
  /**
   * A scalar query cheaper than count(*) over the filters that answers the exact total, where the
   * store has one (accounts keep counters per company).
   */
  totalSql?: (params: SqlParams) => string;
}

export interface Page {
  /** The rows of the page in sort order: the text of a JSON array, written by the database. */
  json: string;
  /** The sort values of the page's first and last rows, for their cursors; absent when it is empty. */
  first?: string[];
  last?: string[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  total: number;
}

/** The JSON object of the current row's `columns` (`id, company_id AS "companyId"`), named by their aliases. */
export function rowToJson(columns: string): string {
  return `(SELECT row_to_json(page_row) FROM (SELECT ${columns}) page_row)`;
}

interface PageFigures {
  items: string;
  fetched: number;
  near_cursor: string | null;
  far_cursor: string | null;
  total: string | number;
  near_side: boolean;
}

/**
 * Fetches one page in one statement that answers one row: the page's rows as JSON (the database
 * writes it, so the service neither parses nor serialises rows), the sort values of its first and
 * last rows, whether one more row follows, the total, and whether rows lie on the near side of the
 * cursor. A cursor page starts at its boundary through the index; an offset page first finds the
 * row at `offset` reading only the sort keys, then starts after it the same way. With `matchesFirst`
 * all of this reads the matching rows, found once, instead of the table.
 */
export async function fetchPage(db: Queryable, spec: PageQuerySpec): Promise<Page> {
  const terms = toSortTerms(spec.columns, spec.sort);
  const backwards = spec.before !== undefined;
  const cursor = spec.before ?? spec.after;
  const offset = spec.offset ?? 0;

  const params = new SqlParams();
  const ctes: string[] = [];
  let from = spec.from;
  let filters = spec.filter(params);
  if (spec.matchesFirst) {
    ctes.push(`page_matches AS MATERIALIZED (SELECT * FROM ${from} WHERE ${allOf(filters)})`);
    from = 'page_matches';
    filters = [];
  }
  const where = [...filters];
  let nearSide = 'false';
  if (cursor) {
    const boundary = terms.map((term, i) => `${params.add(cursor[i])}::${term.type}`);
    where.push(comparePredicate(terms, boundary, { reversed: backwards }));
    // The rows at or before the cursor (at or after it for `before`), whether or not its row still exists.
    const nearSideWhere = allOf([
      ...filters,
      comparePredicate(terms, boundary, { reversed: !backwards, inclusive: true }),
    ]);
    // A plan made for the values chooses how to find one such row. A kept plan cannot know whether
    // the cursor is near the start, so it walks the index back from the cursor: the first row it
    // meets is the answer, since without value filters every row of the company counts.
    nearSide = spec.reusePlan
      ? `(SELECT true FROM ${from} WHERE ${nearSideWhere} ORDER BY ${orderByClause(terms, !backwards)} LIMIT 1) IS NOT NULL`
      : `EXISTS (SELECT 1 FROM ${from} WHERE ${nearSideWhere})`;
  } else if (offset > 0) {
    ctes.push(`page_boundary AS MATERIALIZED (
      SELECT ${terms.map((term, i) => `${term.sql} AS b${i}`).join(', ')} FROM ${from}
      WHERE ${allOf(filters)} ORDER BY ${orderByClause(terms)}
      OFFSET ${params.add(offset - 1)}::bigint LIMIT 1)`);
    where.push(
      comparePredicate(
        terms,
        terms.map((_, i) => `(SELECT b${i} FROM page_boundary)`),
      ),
    );
  }
  const total = spec.totalSql ? spec.totalSql(params) : `SELECT count(*) FROM ${from} WHERE ${allOf(filters)}`;
  const limit = `${params.add(spec.limit)}::int`;
  const order = orderByClause(terms, backwards);
  const cursorJson = `json_build_array(${terms.map((_, i) => `page_k${i}`).join(', ')})::text`;

  const [figures] = await db.query<PageFigures>(
    `${ctes.length > 0 ? `WITH ${ctes.join(', ')}` : ''}
     SELECT coalesce(string_agg(page_item, ',' ORDER BY page_position ${backwards ? 'DESC' : 'ASC'})
         FILTER (WHERE page_position <= ${limit}), '') AS items,
       count(*)::int AS fetched,
       max(${cursorJson}) FILTER (WHERE page_position = 1) AS near_cursor,
       max(${cursorJson}) FILTER (WHERE page_position = least(${limit}, page_fetched)) AS far_cursor,
       (${total}) AS total,
       ${nearSide} AS near_side
     FROM (
       SELECT *, count(*) OVER () AS page_fetched FROM (
         SELECT ${spec.json}::text AS page_item, ${cursorValues(terms)},
           row_number() OVER (ORDER BY ${order}) AS page_position
         FROM ${from} WHERE ${allOf(where)}
         ORDER BY ${order} LIMIT ${limit} + 1
       ) page_fetched_rows
     ) page_rows`,
    params.values,
    { reusePlan: spec.reusePlan },
  );
  if (!figures) throw new Error('a page statement answered no row');
  return toPage(figures, { backwards, limit: spec.limit, offset, cursor: cursor !== undefined });
}

/** The conditions ANDed, or TRUE when there are none. */
function allOf(conditions: string[]): string {
  return conditions.join(' AND ') || 'TRUE';
}

/** The row's sort terms as text, `page_k0, page_k1, …`: what its cursor holds. */
function cursorValues(terms: SortTerm[]): string {
  return terms.map((term, i) => `${term.sql}::text AS page_k${i}`).join(', ');
}

function toPage(
  figures: PageFigures,
  request: { backwards: boolean; limit: number; offset: number; cursor: boolean },
): Page {
  const total = Number(figures.total);
  const more = Number(figures.fetched) > request.limit;
  // Without a cursor the page is the first one, after `offset` rows.
  const nearSide = request.cursor ? figures.near_side : request.offset > 0 && total > 0;
  const near = cursorOf(figures.near_cursor);
  const far = cursorOf(figures.far_cursor);
  return {
    json: `[${figures.items}]`,
    first: request.backwards ? far : near,
    last: request.backwards ? near : far,
    hasNextPage: request.backwards ? nearSide : more,
    hasPreviousPage: request.backwards ? more : nearSide,
    total,
  };
}

/** A row's sort values from the JSON array the page statement wrote; none for an empty page. */
function cursorOf(json: string | null): string[] | undefined {
  return json === null ? undefined : (JSON.parse(json) as string[]);
}
