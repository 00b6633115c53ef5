import type { Queryable } from './database.ts';
import { type SortColumn, type SortKey, toSortTerms } from './keyset.ts';
import { type PageFigures, pageStatement } from './page-statement.ts';
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
   * A filter that may match most of the rows or few of them (a name substring). The statement finds
   * up to `cap` matches of `filter` (√(limit·rows) for rows the other filters leave): fewer, and they
   * are all of them, counted and sorted for the page; that many, and it walks the sort index instead,
   * testing each row with `walkFilter`, and finds a page after about limit·rows/m of m matches, while
   * `total` counts them with `filter`. `walkFilter` must match what `filter` matches, in terms no index
   * but the sort index serves, so that the walk is what the planner chooses. The `columns` must be
   * plain columns of `from`: the matches are kept as those of the sort. The walk reads a row of `from` only for
   * the JSON of a row it keeps, found again by `key`, so that an index holding the sort values and
   * what `walkFilter` tests serves the walk alone (an index-only scan).
   */
  choosePlan?: {
    cap: number;
    /** A unique column of `from` that the walk's index holds: the page's rows are read back by it. */
    key: string;
    walkFilter: (params: SqlParams) => string[];
    /** What the walk's total counts: the matches of `filter`, in the terms that count them cheapest. */
    countFilter: (params: SqlParams) => string[];
  };
  /**
   * A scalar query cheaper than count(*) over the filters that answers the exact total, where the
   * store has one (accounts keep counters per company).
   */
  totalSql?: (params: SqlParams) => string;
  /**
   * The most rows a page holds, whatever its `limit`, for rows whose JSON is built per request and
   * may be large (a group with its categories, an attempt with its response body). The statement
   * builds the JSON of every row it fetches before the byte budget picks the page's, so this bounds
   * that work as the budget bounds the answer (docs/decisions/bounded-answers.md).
   */
  maxRows?: number;
}

/** Which page of a search a store fetches: the spec's sort and paging, which the route parsed. */
export type PagePosition = Pick<PageQuerySpec, 'sort' | 'limit' | 'offset' | 'after' | 'before'>;

export interface Page {
  /** The rows of the page in sort order: the text of a JSON array, written by the database. */
  json: string;
  /** The sort values of the page's first and last rows, for their cursors; absent when it is empty. */
  first?: string[];
  last?: string[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** Rows matching the filters; absent where counting them would cost every page too much (the event feed). */
  total?: number;
}

/** The JSON object of the current row's `columns` (`id, company_id AS "companyId"`), named by their aliases. */
export function rowToJson(columns: string): string {
  return `(SELECT row_to_json(page_row) FROM (SELECT ${columns}) page_row)`;
}

/**
 * Fetches one page in one statement that answers one row (page-statement.ts): the page's rows as
 * JSON (the database writes it, so the service neither parses nor serialises rows), the sort values
 * of its first and last rows, whether more rows follow, the total, and whether rows lie on the near
 * side of the cursor. A cursor page starts at its boundary through the index; an offset page first
 * finds the row at `offset` reading only the sort keys, then starts after it the same way. With
 * `matchesFirst` all of this reads the matching rows, found once, instead of the table.
 */
export async function fetchPage(db: Queryable, asked: PageQuerySpec): Promise<Page> {
  // A page holds at most maxRows rows: the shorter page is a page like any other (hasNextPage exact).
  const spec = { ...asked, limit: Math.min(asked.limit, asked.maxRows ?? asked.limit) };
  const terms = toSortTerms(spec.columns, spec.sort);
  const backwards = spec.before !== undefined;
  const cursor = spec.before ?? spec.after;
  const offset = spec.offset ?? 0;
  const params = new SqlParams();
  const sql = pageStatement(spec, { terms, backwards, cursor, offset, params });
  const [figures] = await db.query<PageFigures>(sql, params.values, { reusePlan: spec.reusePlan });
  if (!figures) throw new Error('a page statement answered no row');
  return toPage(figures, { backwards, limit: spec.limit, offset, cursor: cursor !== undefined });
}

function toPage(
  figures: PageFigures,
  request: { backwards: boolean; limit: number; offset: number; cursor: boolean },
): Page {
  const total = Number(figures.total);
  // The rows fetched after the cursor's own row, or from the start of a first or offset page: one
  // more than the page holds says that more follow.
  const rows = Number(figures.fetched) - (figures.found ? 1 : 0);
  const more = rows > Number(figures.size);
  // Without a cursor the page is the first one, after `offset` rows.
  const nearSide = request.cursor ? figures.near_side : request.offset > 0 && total > 0;
  // Nearest the cursor first: the page's first row, or its last before a `before` cursor.
  const near = cursorOf(figures.cursor_first);
  const far = cursorOf(figures.cursor_last ?? figures.cursor_end);
  return {
    json: `[${figures.items}]`,
    first: request.backwards ? far : near,
    last: request.backwards ? near : far,
    hasNextPage: request.backwards ? nearSide : more,
    hasPreviousPage: request.backwards ? more : nearSide,
    total,
  };
}

/** A row's sort values from the JSON array the page statement wrote. */
function cursorOf(json: string | null): string[] | undefined {
  return json === null ? undefined : (JSON.parse(json) as string[]);
}
