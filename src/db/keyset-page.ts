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
 * Fetches one page in sort order. `after`/`before` pages start at their boundary through the index.
 * hasNextPage/hasPreviousPage are exact: one row is fetched beyond the far end of the page, and the
 * near end is probed from the boundary, so the page, the probe and the total run at once.
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

  // The rows on the near side of the page are those at or before the boundary (at or after it for
  // `before`): the page starts right after it, whether or not the boundary row still exists.
  const nearSideExists = async (from: string[]) => {
    const probe = new SqlParams();
    const reversed = !backwards;
    const conditions = [...spec.filter(probe), comparePredicate(terms, from, probe, { reversed, inclusive: true })];
    const found = await db.query(
      `SELECT 1 FROM ${spec.from} WHERE ${conditions.join(' AND ')}
      ORDER BY ${orderByClause(terms, reversed)} LIMIT 1`,
      probe.values,
    );
    return found.length > 0;
  };
  const [fetched, total, nearSide] = await Promise.all([
    db.query<Record<string, unknown>>(sql, params.values),
    countTotal(db, spec),
    boundary ? nearSideExists(boundary) : undefined,
  ]);

  const more = fetched.length > spec.limit;
  const rows = fetched.slice(0, spec.limit);
  if (backwards) rows.reverse();
  const cursors = rows.map((row) => readCursorValues(row, terms));
  // Without a boundary the page is the first one, after `offset` rows.
  const nearSideRows = nearSide ?? ((spec.offset ?? 0) > 0 && total > 0);
  return {
    rows: rows as Row[],
    cursors,
    hasNextPage: backwards ? nearSideRows : more,
    hasPreviousPage: backwards ? more : nearSideRows,
    total,
  };
}

async function countTotal(db: Queryable, spec: PageQuerySpec): Promise<number> {
  return (await spec.countTotal?.()) ?? (await countRows(db, spec));
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
