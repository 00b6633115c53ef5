import type { Queryable } from './database.ts';
import {
  comparePredicate,
  cursorColumns,
  orderByClause,
  readCursorValues,
  type SortColumn,
  type SortKey,
  type SortTerm,
  toSortTerms,
} from './keyset.ts';
import { SqlParams } from './sql-params.ts';

/** One list query: which rows, how they sort, and which page of them. */
export interface PageQuerySpec {
  /** Columns of a row, e.g. `id, name`. */
  select: string;
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
   * A scalar query cheaper than count(*) over the filters that answers the exact total, where the
   * store has one (accounts keep counters per company).
   */
  totalSql?: (params: SqlParams) => string;
}

export interface Page<Row> {
  rows: Row[];
  /** The sort values of each row, for its cursor. */
  cursors: string[][];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  total: number;
}

// Extra columns of the page statement; removed from the rows handed back.
const TOTAL = '__total';
const NEAR_SIDE = '__near_side';

/**
 * Fetches one page in sort order, in one statement: the rows (one beyond the page, to know whether
 * more follow), the total and whether rows lie on the near side of the cursor are computed together
 * (the last two as subqueries PostgreSQL runs once), so a cursor page costs one round trip like the
 * first page. `after`/`before` pages start at their boundary through the index.
 */
export async function fetchPage<Row>(db: Queryable, spec: PageQuerySpec): Promise<Page<Row>> {
  const terms = toSortTerms(spec.columns, spec.sort);
  const backwards = spec.before !== undefined;
  const boundary = spec.before ?? spec.after;

  const params = new SqlParams();
  const where = spec.filter(params);
  if (boundary) where.push(comparePredicate(terms, boundary, params, { reversed: backwards }));
  const total = totalQuery(spec, params);
  const nearSide = boundary ? nearSideQuery(spec, terms, boundary, backwards, params) : 'NULL';
  const fetched = await db.query<Record<string, unknown>>(
    `SELECT ${spec.select}, ${cursorColumns(terms)}, (${total}) AS ${TOTAL}, (${nearSide}) AS ${NEAR_SIDE}
     FROM ${spec.from} WHERE ${where.join(' AND ') || 'TRUE'}
     ORDER BY ${orderByClause(terms, backwards)}
     LIMIT ${spec.limit + 1}${spec.offset ? ` OFFSET ${spec.offset}` : ''}`,
    params.values,
  );
  // An empty page has no row to carry the two figures: ask for them alone.
  if (fetched.length === 0) {
    const alone = new SqlParams();
    const figures = `(${totalQuery(spec, alone)}) AS ${TOTAL}, (${boundary ? nearSideQuery(spec, terms, boundary, backwards, alone) : 'NULL'}) AS ${NEAR_SIDE}`;
    const [row] = await db.query<Record<string, unknown>>(`SELECT ${figures}`, alone.values);
    return toPage([], row ?? {}, spec, terms, backwards);
  }
  return toPage(fetched, fetched[0] as Record<string, unknown>, spec, terms, backwards);
}

function toPage<Row>(
  fetched: Record<string, unknown>[],
  figures: Record<string, unknown>,
  spec: PageQuerySpec,
  terms: SortTerm[],
  backwards: boolean,
): Page<Row> {
  const more = fetched.length > spec.limit;
  const rows = fetched.slice(0, spec.limit);
  if (backwards) rows.reverse();
  const total = Number(figures[TOTAL] ?? 0);
  // Without a boundary the page is the first one, after `offset` rows.
  const nearSide = (figures[NEAR_SIDE] as boolean | null) ?? ((spec.offset ?? 0) > 0 && total > 0);
  const cursors = rows.map((row) => readCursorValues(row, terms));
  for (const row of rows) {
    for (let i = 0; i < terms.length; i++) delete row[`k${i}`];
    delete row[TOTAL];
    delete row[NEAR_SIDE];
  }
  return {
    rows: rows as Row[],
    cursors,
    hasNextPage: backwards ? nearSide : more,
    hasPreviousPage: backwards ? more : nearSide,
    total,
  };
}

function totalQuery(spec: PageQuerySpec, params: SqlParams): string {
  if (spec.totalSql) return spec.totalSql(params);
  return `SELECT count(*) FROM ${spec.from} WHERE ${spec.filter(params).join(' AND ') || 'TRUE'}`;
}

// The rows on the near side of the page are those at or before the boundary (at or after it for
// `before`): the page starts right after it, whether or not the boundary row still exists.
function nearSideQuery(
  spec: PageQuerySpec,
  terms: SortTerm[],
  boundary: string[],
  backwards: boolean,
  params: SqlParams,
): string {
  const reversed = !backwards;
  const conditions = [...spec.filter(params), comparePredicate(terms, boundary, params, { reversed, inclusive: true })];
  return `SELECT EXISTS (SELECT 1 FROM ${spec.from} WHERE ${conditions.join(' AND ')}
    ORDER BY ${orderByClause(terms, reversed)} LIMIT 1)`;
}
