// Keyset pagination in SQL. A sort is a list of terms (expression, direction); the page after a
// boundary row is the rows whose terms compare strictly after the boundary's, scanned from an index
// that starts at the boundary, so page 10,000 costs what page 1 does (docs/decisions/pagination.md).

export const PAGE_ORDERS = [
  'ASC',
  'ASC_NULLS_FIRST',
  'ASC_NULLS_LAST',
  'DESC',
  'DESC_NULLS_FIRST',
  'DESC_NULLS_LAST',
] as const;
export type PageOrder = (typeof PAGE_ORDERS)[number];

/** A column a client may sort by. `sql` must match the expression of the index that serves it. */
export interface SortColumn {
  sql: string;
  /** The SQL type of the column, used to read cursor values back. */
  type: 'text' | 'uuid' | 'timestamptz' | 'date' | 'numeric' | 'integer' | 'boolean';
  /** Nullable text columns sort as (null flag, coalesce(value, '')); see the code indexes. */
  nullable?: boolean;
  /** No two rows of a list share its value (a message's attempt number): it orders them alone, without `id`. */
  unique?: boolean;
}

export interface SortKey {
  key: string;
  order: PageOrder;
}

export interface SortTerm {
  sql: string;
  type: SortColumn['type'];
  descending: boolean;
}

/**
 * Expands the requested keys into non-null terms, with `id` ASC as the final tie-breaker so the
 * order is total. Plain ASC/DESC place nulls as PostgreSQL does: last for ASC, first for DESC.
 */
export function toSortTerms(columns: Record<string, SortColumn>, keys: SortKey[]): SortTerm[] {
  const terms: SortTerm[] = [];
  for (const { key, order } of keys) {
    const column = columns[key];
    if (!column) throw new Error(`No sortable column ${key}`);
    const descending = order.startsWith('DESC');
    if (!column.nullable) {
      terms.push({ sql: column.sql, type: column.type, descending });
      continue;
    }
    const nullsFirst = order.endsWith('NULLS_FIRST') || order === 'DESC';
    // The flag is true for the rows that come later (in ascending terms) or earlier (descending).
    const flagIsNull = descending ? nullsFirst : !nullsFirst;
    terms.push({ sql: `(${column.sql} IS ${flagIsNull ? '' : 'NOT '}NULL)`, type: 'boolean', descending });
    terms.push({ sql: `(coalesce(${column.sql}, ''))`, type: 'text', descending });
  }
  if (!keys.some((k) => k.key === 'id' || columns[k.key]?.unique)) {
    terms.push({ sql: columns.id?.sql ?? 'id', type: columns.id?.type ?? 'uuid', descending: false });
  }
  return terms;
}

export function orderByClause(terms: SortTerm[], reversed = false): string {
  return terms.map((t) => `${t.sql} ${t.descending !== reversed ? 'DESC' : 'ASC'}`).join(', ');
}

// What `<term>::text` prints for each type (DateStyle ISO), so that a cursor's values are checked
// before the database casts them back: a value it cannot cast would otherwise fail the query.
const DATE = String.raw`(\d{4})-(\d{2})-(\d{2})`;
// PostgreSQL refuses a zone offset past 15:59:59.
const TIME = String.raw`([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-](0\d|1[0-5])(:[0-5]\d){0,2}`;
const VALUE_FORMATS: Record<SortTerm['type'], RegExp> = {
  // Any text but NUL, which PostgreSQL text cannot hold.
  text: /^[^\0]*$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  boolean: /^(true|false)$/,
  numeric: /^(-?\d+(\.\d+)?|NaN|-?Infinity)$/,
  integer: /^-?\d{1,10}$/,
  date: new RegExp(`^(?:${DATE}|-?infinity)$`),
  timestamptz: new RegExp(`^(?:${DATE} ${TIME}|-?infinity)$`),
};

/** Whether `values` are one value per term, each as its term's type prints it. */
export function fitsTerms(terms: SortTerm[], values: readonly string[]): boolean {
  return values.length === terms.length && terms.every((term, i) => fitsType(term.type, values[i] as string));
}

function fitsType(type: SortTerm['type'], value: string): boolean {
  const match = VALUE_FORMATS[type].exec(value);
  if (!match) return false;
  // PostgreSQL's integer: a value past it would fail the cast.
  if (type === 'integer') return Number(value) >= -(2 ** 31) && Number(value) < 2 ** 31;
  if (match[1] === undefined || (type !== 'date' && type !== 'timestamptz')) return true;
  // The format admits 2026-02-30; the calendar does not.
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return year > 0 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The condition "the row sorts after `boundary`" (or before it when `reversed`), strictly, or
 * inclusive of the boundary row itself when `inclusive`. `boundary` holds one SQL expression per
 * term: a parameter, or a value the statement reads elsewhere.
 *
 * When every term runs in one direction this is one row comparison, which an index scan starts at.
 * Otherwise it is a lexicographic OR of the terms, plus a redundant row bound on the leading run of
 * terms that share a direction, which is what lets the planner start the scan at the boundary.
 */
export function comparePredicate(
  terms: SortTerm[],
  boundary: string[],
  options: { reversed?: boolean; inclusive?: boolean } = {},
): string {
  const { reversed = false, inclusive = false } = options;
  const after = (t: SortTerm) => (t.descending !== reversed ? '<' : '>');
  const first = terms[0];
  if (!first) return 'TRUE';
  let run = 1;
  while (run < terms.length && terms[run]?.descending === first.descending) run++;
  const rowBound = (length: number, op: string) =>
    `ROW(${terms
      .slice(0, length)
      .map((t) => t.sql)
      .join(', ')}) ${op} ROW(${boundary.slice(0, length).join(', ')})`;
  if (run === terms.length) return rowBound(run, after(first) + (inclusive ? '=' : ''));

  const branches = terms.map((term, i) => {
    const equalities = terms.slice(0, i).map((t, j) => `${t.sql} = ${boundary[j]}`);
    const last = i === terms.length - 1;
    const op = after(term) + (last && inclusive ? '=' : '');
    return [...equalities, `${term.sql} ${op} ${boundary[i]}`].join(' AND ');
  });
  return `(${rowBound(run, `${after(first)}=`)} AND (${branches.map((b) => `(${b})`).join(' OR ')}))`;
}
