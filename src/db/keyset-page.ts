import type { Queryable } from './database.ts';
import {
  comparePredicate,
  cursorColumns,
  orderByClause,
  readCursorValues,
  type SortColumn,
  type SortKey,
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
  /** A cheaper exact count than count(*) over the filters, where the store has one. */
  countTotal?: () => Promise<number | undefined>;
}

export interface Page<Row> {
  rows: Row[];
  /** The sort values of each row, for its cursor. */
  cursors: string[][];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  total: number;
}

export function sortTermCount(columns: Record<string, SortColumn>, sort: SortKey[]): number {
  return toSortTerms(columns, sort).length;
}

/**
 * Fetches one page in sort order. `after`/`before` pages start at their boundary through the index;
 * hasNextPage/hasPreviousPage are answered exactly by probing one row beyond each end.
 */
export async function fetchPage<Row>(db: Queryable, spec: PageQuerySpec): Promise<Page<Row>> {
  const terms = toSortTerms(spec.columns, spec.sort);
  const backwards = spec.before !== undefined;
  const boundary = spec.before ?? spec.after;

  const params = new SqlParams();
  const where = spec.filter(params);
  if (boundary) where.push(comparePredicate(terms, boundary, params, { reversed: backwards }));
  const sql = `SELECT ${spec.select}, ${cursorColumns(terms)} FROM ${spec.from}
    WHERE ${where.join(' AND ') || 'TRUE'}
    ORDER BY ${orderByClause(terms, backwards)}
    LIMIT ${spec.limit + 1}${spec.offset ? ` OFFSET ${spec.offset}` : ''}`;
  const fetched = await db.query<Record<string, unknown>>(sql, params.values);

  const more = fetched.length > spec.limit;
  const rows = fetched.slice(0, spec.limit);
  if (backwards) rows.reverse();
  const cursors = rows.map((row) => readCursorValues(row, terms));

  // Whether any row lies beyond an end of this page: past its first/last row, or, for an empty
  // page, on the other side of (or at) the cursor it was asked from.
  const exists = async (from: string[], reversed: boolean, inclusive: boolean) => {
    const probe = new SqlParams();
    const conditions = [...spec.filter(probe), comparePredicate(terms, from, probe, { reversed, inclusive })];
    const found = await db.query(
      `SELECT 1 FROM ${spec.from} WHERE ${conditions.join(' AND ')}
      ORDER BY ${orderByClause(terms, reversed)} LIMIT 1`,
      probe.values,
    );
    return found.length > 0;
  };
  const first = cursors[0];
  const last = cursors[cursors.length - 1];

  const total = (await spec.countTotal?.()) ?? (await countRows(db, spec));
  let hasNextPage: boolean;
  let hasPreviousPage: boolean;
  if (backwards) {
    hasPreviousPage = more;
    hasNextPage = last ? await exists(last, false, false) : await exists(boundary as string[], false, true);
  } else {
    hasNextPage = more;
    if (first) hasPreviousPage = await exists(first, true, false);
    else if (boundary) hasPreviousPage = await exists(boundary, true, true);
    else hasPreviousPage = (spec.offset ?? 0) > 0 && total > 0;
  }
  return { rows: rows as Row[], cursors, hasNextPage, hasPreviousPage, total };
}

async function countRows(db: Queryable, spec: PageQuerySpec): Promise<number> {
  const params = new SqlParams();
  const where = spec.filter(params);
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${spec.from} WHERE ${where.join(' AND ') || 'TRUE'}`,
    params.values,
  );
  return row?.n ?? 0;
}
