// The one statement that fetches a page (keyset-page.ts).
//
// A cursor page's scan starts at the cursor's own row, inclusive. While that row exists (it was
// neither deleted nor moved by an update of its sort values), it is the first row fetched, and it
// proves that a row lies on the near side of the page, so the statement needs no second look into
// the index for hasPreviousPage (hasNextPage for `before`); only when the row is gone does it look.
// Every row fetched after it is numbered within the page as it comes, with the bytes of JSON the
// page holds up to it: a page ends at `limit` rows or once it holds PAGE_BYTE_BUDGET bytes,
// whichever comes first (docs/decisions/pagination.md).
import { LRUCache } from 'lru-cache';
import { comparePredicate, orderByClause, type SortTerm } from './keyset.ts';
import type { PageQuerySpec } from './keyset-page.ts';
import type { SqlParams } from './sql-params.ts';

/**
 * The most bytes of row JSON a page takes before it ends, short of its `limit`: a page holds rows
 * while the rows before hold less, so it is at most this plus its last row. A client asking for
 * 1,000 accounts of 64 KiB metadata each gets about 16 per page instead of 64 MB at once; ordinary
 * accounts (about 300 bytes) fill 1,000 rows in a third of it (docs/decisions/pagination.md).
 */
export const PAGE_BYTE_BUDGET = 1024 * 1024;

/** The one row a page statement answers. */
export interface PageFigures {
  /** The JSON of the page's rows, comma-separated, in page order. */
  items: string;
  /** The page's rows, and every row fetched, the cursor's own included. */
  size: number;
  fetched: number;
  /** The sort values (a JSON array of text) of the page's first row, and of its last when the page ended at `limit` or the byte budget. */
  cursor_first: string | null;
  cursor_last: string | null;
  /** The last row's sort values when the rows ran out before the page's end (read from the far end of the index). */
  cursor_end: string | null;
  /** Whether the first row fetched is the cursor's own. */
  found: boolean;
  total: string | number;
  near_side: boolean;
}

export interface PageStatementRequest {
  terms: SortTerm[];
  backwards: boolean;
  cursor?: string[];
  offset: number;
  params: SqlParams;
}

/** The SQL of the page `spec` asks for, its values added to `params`. */
export function pageStatement(spec: PageQuerySpec, request: PageStatementRequest): string {
  const { terms, backwards, cursor, offset, params } = request;
  // The values first, in a fixed order: the text then depends only on the page's shape, so it is
  // written once per shape and kept. Writing it cost more than the rest of a page's JavaScript, and
  // a kept string's hash is kept too, which the statement-name lookup reads
  // (`git show 6d471bc:docs/performance.md`).
  const placeholders: Placeholders = {
    filters: spec.filter(params),
    plan: spec.choosePlan && {
      cap: `${params.add(spec.choosePlan.cap)}::bigint`,
      key: spec.choosePlan.key,
      walkFilters: spec.choosePlan.walkFilter(params),
      countFilters: spec.choosePlan.countFilter(params),
    },
    boundary: cursor && terms.map((term, i) => `${params.add(cursor[i])}::${term.type}`),
    offset: !cursor && offset > 0 ? params.add(offset - 1) : undefined,
    total: spec.totalSql?.(params),
    limit: `${params.add(spec.limit)}::int`,
  };
  const shape = shapeKey(spec, terms, backwards, placeholders);
  let sql = statementsByShape.get(shape);
  if (sql === undefined) {
    sql = writeStatement(spec, terms, backwards, placeholders);
    statementsByShape.set(shape, sql);
  }
  return sql;
}

/** The placeholders of a statement that chooses its plan (`choosePlan`), and the key it reads rows back by. */
interface ChosenPlan {
  cap: string;
  key: string;
  walkFilters: string[];
  countFilters: string[];
}

/** The placeholders of a page statement's values, and the SQL that holds some of them. */
interface Placeholders {
  filters: string[];
  plan: ChosenPlan | undefined;
  boundary: string[] | undefined;
  offset: string | undefined;
  total: string | undefined;
  limit: string;
}

// Shapes are few in practice (resource, filters present, sort, direction), but a client choosing
// sorts freely could make many: the least recently used are dropped.
const statementsByShape = new LRUCache<string, string>({ max: 1000 });

/** Everything the statement's text depends on, and nothing it does not (no values). */
function shapeKey(spec: PageQuerySpec, terms: SortTerm[], backwards: boolean, placeholders: Placeholders): string {
  const { filters, plan, boundary, offset, total, limit } = placeholders;
  const sort = terms.map((term) => `${term.sql} ${term.type} ${term.descending}`).join(',');
  return [
    spec.json,
    spec.from,
    filters.join(' AND '),
    plan ? [plan.cap, plan.key, plan.walkFilters.join(' AND '), plan.countFilters.join(' AND ')].join('\u0002') : '',
    sort,
    backwards,
    boundary?.join(',') ?? '',
    offset ?? '',
    total ?? '',
    limit,
    spec.matchesFirst === true,
    spec.reusePlan === true,
  ].join('\u0001');
}

function writeStatement(
  spec: PageQuerySpec,
  terms: SortTerm[],
  backwards: boolean,
  placeholders: Placeholders,
): string {
  const { boundary, limit } = placeholders;
  const ctes: string[] = [];
  let from = spec.from;
  let filters = placeholders.filters;
  if (placeholders.plan) return choosingStatement(spec, terms, backwards, placeholders, placeholders.plan);
  if (spec.matchesFirst) {
    ctes.push(`page_matches AS MATERIALIZED (SELECT * FROM ${from} WHERE ${allOf(filters)})`);
    from = 'page_matches';
    filters = [];
  }
  const where = [...filters];
  let nearSide = 'false';
  if (boundary) {
    where.push(comparePredicate(terms, boundary, { reversed: backwards, inclusive: true }));
    nearSide = nearSideProbe(spec, { from, filters, terms, boundary, backwards });
  } else if (placeholders.offset !== undefined) {
    ctes.push(`page_boundary AS MATERIALIZED (
      SELECT ${terms.map((term, i) => `${term.sql} AS b${i}`).join(', ')} FROM ${from}
      WHERE ${allOf(filters)} ORDER BY ${orderByClause(terms)}
      OFFSET ${placeholders.offset}::bigint LIMIT 1)`);
    where.push(
      comparePredicate(
        terms,
        terms.map((_, i) => `(SELECT b${i} FROM page_boundary)`),
      ),
    );
  }
  const total = placeholders.total ?? `SELECT count(*) FROM ${from} WHERE ${allOf(filters)}`;
  const order = orderByClause(terms, backwards);
  // Written only for the rows whose sort values are read, not for every row fetched.
  const rowCursor = jsonOfText(terms.map((_, i) => `page_s${i}`));

  // The scan fetches the rows and their JSON; the window numbers them in the page (the cursor's own
  // row, when found, is number 0) and sums the page's bytes through each; the aggregate joins the
  // page's rows. The outer level runs each subquery only when its CASE needs it.
  const atCursor = boundary ? terms.map((term, i) => `${term.sql} = ${boundary[i]}`).join(' AND ') : 'false';
  const sortValues = terms.map((_, i) => `page_s${i}`);
  const inPage = `page_index BETWEEN 1 AND ${limit} AND (page_index = 1 OR page_bytes - page_length < ${PAGE_BYTE_BUDGET})`;
  const endsPage = `(page_index = ${limit} OR page_bytes >= ${PAGE_BYTE_BUDGET})`;
  return `${ctes.length > 0 ? `WITH ${ctes.join(', ')}` : ''}
    SELECT page.*,
      CASE WHEN cursor_last IS NULL AND size > 0 THEN
        (SELECT ${jsonOfText(terms.map((term) => term.sql))} FROM ${from} WHERE ${allOf(where)}
         ORDER BY ${orderByClause(terms, !backwards)} LIMIT 1)
      END AS cursor_end,
      CASE WHEN found THEN true ELSE ${nearSide} END AS near_side
    FROM (
      SELECT coalesce(string_agg(page_item, ',' ORDER BY ${pageOrder(terms, backwards)})
          FILTER (WHERE ${inPage}), '') AS items,
        (count(*) FILTER (WHERE ${inPage}))::int AS size,
        count(*)::int AS fetched,
        max(${rowCursor}) FILTER (WHERE page_index = 1) AS cursor_first,
        max(${rowCursor}) FILTER (WHERE ${inPage} AND ${endsPage}) AS cursor_last,
        coalesce(bool_or(page_at_cursor), false) AS found,
        (${total}) AS total
      FROM (
        SELECT page_item, octet_length(page_item) AS page_length, ${sortValues.join(', ')}, page_at_cursor,
          row_number() OVER page_w - count(*) FILTER (WHERE page_at_cursor) OVER page_w AS page_index,
          sum(octet_length(page_item)) FILTER (WHERE NOT page_at_cursor) OVER page_w AS page_bytes
        FROM (
          SELECT ${spec.json}::text AS page_item, ${terms.map((term, i) => `${term.sql} AS page_s${i}`).join(', ')}, ${atCursor} AS page_at_cursor
          FROM ${from} WHERE ${allOf(where)}
          ORDER BY ${order} LIMIT ${limit} + ${boundary ? 2 : 1}
        ) page_scan
        WINDOW page_w AS (ORDER BY ${scanOrder(terms, backwards)} ROWS UNBOUNDED PRECEDING)
      ) page_rows
    ) page`;
}

/**
 * The statement of a spec with `choosePlan`: up to `cap` matches found and kept, and two page
 * statements, one walking the sort index and one sorting the matches kept, of which only the one
 * chosen runs (its condition is a one-time filter, and each has its own LIMIT, so neither is
 * planned for the other's rows).
 */
function choosingStatement(
  spec: PageQuerySpec,
  terms: SortTerm[],
  backwards: boolean,
  placeholders: Placeholders,
  { cap, key, walkFilters, countFilters }: ChosenPlan,
): string {
  const plain = { ...spec, choosePlan: undefined, matchesFirst: false };
  // The walk tests each row it passes in the sort index alone, where the index holds what the walk
  // filters test, and reads the table only for the rows it keeps.
  const walkJson = `(SELECT ${spec.json} FROM ${spec.from} page_row WHERE page_row.${key} = ${spec.from}.${key})`;
  const walk = writeStatement({ ...plain, json: walkJson }, terms, backwards, {
    ...placeholders,
    plan: undefined,
    filters: walkFilters,
    total: `SELECT count(*) FROM ${spec.from} WHERE ${allOf(countFilters)}`,
  });
  // The matches kept are the columns they sort by and where each row is: 10,000 whole accounts
  // outgrew work_mem and went to disk, and keeping every sortable column took 53–60 ms where these
  // take 45–50 (10,000 matches of 1,000,000 accounts). A page's rows are read back by their ctid
  // once sorted (the JSON, an expensive expression, is computed after the sort and LIMIT).
  const sorted = writeStatement(
    { ...plain, from: 'page_found', json: `(SELECT ${spec.json} FROM ${spec.from} WHERE ctid = page_found.page_ctid)` },
    terms,
    backwards,
    { ...placeholders, plan: undefined, filters: [], total: 'SELECT found FROM page_plan' },
  );
  const sortedBy = new Set([
    ...spec.sort.map((sortKey) => spec.columns[sortKey.key]?.sql),
    spec.columns.id?.sql ?? 'id',
  ]);
  const kept = ['ctid AS page_ctid', ...sortedBy].join(', ');
  return `WITH page_found AS MATERIALIZED (SELECT ${kept} FROM ${spec.from} WHERE ${allOf(placeholders.filters)} LIMIT ${cap}),
    page_plan AS MATERIALIZED (SELECT count(*) >= ${cap} AS walk, count(*) AS found FROM page_found)
    SELECT * FROM (${walk}) page_walk WHERE (SELECT walk FROM page_plan)
    UNION ALL SELECT * FROM (${sorted}) page_sorted WHERE NOT (SELECT walk FROM page_plan)`;
}

/** The scan's order, written as the columns that hold its sort values. */
function scanOrder(terms: SortTerm[], backwards: boolean): string {
  return terms.map((term, i) => `page_s${i} ${term.descending !== backwards ? 'DESC' : 'ASC'}`).join(', ');
}

/**
 * Whether a row lies at or before the cursor (at or after it for `before`), asked only when the
 * cursor's row is gone. A plan made for the values chooses how to find one such row. A kept plan
 * cannot know whether the cursor is near the start, so it walks the index back from the cursor:
 * the first row it meets is the answer, since without value filters every row of the company counts.
 */
function nearSideProbe(
  spec: PageQuerySpec,
  {
    from,
    filters,
    terms,
    boundary,
    backwards,
  }: { from: string; filters: string[]; terms: SortTerm[]; boundary: string[]; backwards: boolean },
): string {
  const nearSideWhere = allOf([
    ...filters,
    comparePredicate(terms, boundary, { reversed: !backwards, inclusive: true }),
  ]);
  return spec.reusePlan
    ? `(SELECT true FROM ${from} WHERE ${nearSideWhere} ORDER BY ${orderByClause(terms, !backwards)} LIMIT 1) IS NOT NULL`
    : `EXISTS (SELECT 1 FROM ${from} WHERE ${nearSideWhere})`;
}

/**
 * The order of the page's rows in its JSON. After a cursor (and on first and offset pages) it is
 * the scan's own order, written as the sort values the scan is ordered by, so that the planner sees
 * the rows arrive sorted and does not sort them again (PostgreSQL 16 and later; ordered by the row
 * numbers, every page paid a sort of its rows). Before a cursor the scan runs backwards, so the
 * rows are sorted back by their numbers.
 */
function pageOrder(terms: SortTerm[], backwards: boolean): string {
  if (backwards) return 'page_index DESC';
  return terms.map((term, i) => `page_s${i} ${term.descending ? 'DESC' : 'ASC'}`).join(', ');
}

/** A JSON array of the values as text: what a cursor holds. */
function jsonOfText(values: string[]): string {
  return `json_build_array(${values.map((value) => `${value}::text`).join(', ')})::text`;
}

/** The conditions ANDed, or TRUE when there are none. */
function allOf(conditions: string[]): string {
  return conditions.join(' AND ') || 'TRUE';
}
