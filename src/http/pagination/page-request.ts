import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { fitsTerms, PAGE_ORDERS, type PageOrder, type SortColumn, type SortKey, toSortTerms } from '../../db/keyset.ts';
import { ApiError, validationError } from '../problem.ts';
import { decodeCursor, fingerprint } from './cursor.ts';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** The paging query parameters every list operation takes (docs/decisions/pagination.md). */
export function pageQueryProperties(sortKeys: readonly string[]) {
  return {
    before: Type.Optional(
      Type.String({ description: 'Cursor: the rows strictly before it. Not with after or offset.' }),
    ),
    after: Type.Optional(
      Type.String({ description: 'Cursor: the rows strictly after it. Not with before or offset.' }),
    ),
    // Past 2^53 - 1 a number is no longer exact in JSON or JavaScript; no result holds that many rows.
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Rows to skip, at most 2^53 - 1. Not with before or after.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Page size' }),
    ),
    sorting_keys: Type.Optional(
      Type.Array(Type.String({ enum: [...sortKeys] }), {
        description: 'Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties.',
      }),
    ),
    sorting_order: Type.Optional(
      Type.Array(Type.String({ enum: [...PAGE_ORDERS] }), { description: 'One order per sorting key; default ASC' }),
    ),
  };
}

export interface PageQuery {
  before?: string;
  after?: string;
  offset?: number;
  limit?: number;
  sorting_keys?: string[];
  sorting_order?: string[];
}

export interface CurrentRequestPagination {
  parameters: Record<string, string[]>;
  after?: string;
  before?: string;
  limit: number;
  offset?: number;
  sortingKeys: string[];
  sortingOrder: PageOrder[];
}

export interface PageRequest {
  limit: number;
  offset?: number;
  after?: string[];
  before?: string[];
  sort: SortKey[];
  /** Binds the cursors of this page to its filters and sort. */
  fingerprint: string;
  echo: CurrentRequestPagination;
}

export interface PageRequestOptions {
  resource: string;
  /** The normalised filters of the query, which its cursors are bound to. */
  filters: unknown;
  defaultSort: SortKey[];
  /**
   * The sortable columns of the resource: a cursor must then hold one value of the right type per
   * sort term, so that a forged cursor is a 400, not a failed query.
   */
  columns?: Record<string, SortColumn>;
  /** How many values a cursor of this sort carries; only counted, not type-checked. Prefer `columns`. */
  termCount?: (sort: SortKey[]) => number;
}

/**
 * Reads the paging parameters of a list request. `filters` are the normalised filters of the
 * query; a cursor made for other filters or sort, or malformed, is refused.
 */
export function parsePageRequest(
  request: FastifyRequest<{ Querystring: PageQuery }>,
  options: PageRequestOptions,
): PageRequest {
  const query = request.query;
  const used = (['before', 'after', 'offset'] as const).filter((name) => query[name] !== undefined);
  if (used.length > 1) {
    throw validationError(
      used.map((name) => ({
        path: `/${name}`,
        message: `cannot be combined with ${used.filter((u) => u !== name).join(' or ')}`,
        in: 'query',
      })),
      'Use one of before, after and offset',
    );
  }
  const sort = parseSort(query, options.defaultSort);
  const print = fingerprint({ resource: options.resource, filters: options.filters, sort });
  const terms = options.columns && toSortTerms(options.columns, sort);
  const length = terms?.length ?? options.termCount?.(sort);
  if (length === undefined) throw new Error('parsePageRequest needs columns or termCount');
  const decode = (cursor: string) => {
    const values = decodeCursor(cursor, print, length);
    if (terms && !fitsTerms(terms, values)) throw new ApiError('INVALID_CURSOR', 'The cursor is malformed');
    return values;
  };
  const limit = query.limit ?? DEFAULT_LIMIT;
  return {
    limit,
    offset: query.offset,
    after: query.after === undefined ? undefined : decode(query.after),
    before: query.before === undefined ? undefined : decode(query.before),
    sort,
    fingerprint: print,
    echo: {
      parameters: rawQueryParameters(request.url),
      ...(query.after !== undefined && { after: query.after }),
      ...(query.before !== undefined && { before: query.before }),
      limit,
      ...(query.offset !== undefined && { offset: query.offset }),
      sortingKeys: sort.map((s) => s.key),
      sortingOrder: sort.map((s) => s.order),
    },
  };
}

function parseSort(query: PageQuery, defaultSort: SortKey[]): SortKey[] {
  const keysGiven = (query.sorting_keys ?? []).length > 0;
  const keys = keysGiven ? (query.sorting_keys as string[]) : defaultSort.map((s) => s.key);
  const ordersGiven = (query.sorting_order ?? []).length > 0;
  const orders = (ordersGiven ? query.sorting_order : keysGiven ? [] : defaultSort.map((s) => s.order)) as PageOrder[];
  if (orders.length > 0 && orders.length !== keys.length) {
    throw validationError(
      [{ path: '/sorting_order', message: `must have one order per sorting key (${keys.length})`, in: 'query' }],
      'sorting_order and sorting_keys differ in length',
    );
  }
  if (new Set(keys).size !== keys.length) {
    throw validationError([{ path: '/sorting_keys', message: 'must not repeat a key', in: 'query' }]);
  }
  return keys.map((key, i) => ({ key, order: orders[i] ?? 'ASC' }));
}

/** The query parameters exactly as sent, each as an array of strings (the reference API's echo). */
function rawQueryParameters(url: string): Record<string, string[]> {
  const search = new URLSearchParams(url.split('?')[1] ?? '');
  // fromEntries defines each name as its own property, `__proto__` too (an assignment would set the
  // object's prototype instead, and the echo would drop it).
  return Object.fromEntries([...new Set(search.keys())].map((name) => [name, search.getAll(name)]));
}

/**
 * A preValidation hook that accepts each named list parameter as `name=a,b` as well as
 * `name=a&name=b`.
 */
export function splitCommaListsOf(names: readonly string[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const query = request.query as Record<string, unknown>;
    for (const name of names) {
      const value = query[name];
      if (value === undefined) continue;
      const list = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
      query[name] = list.map((v) => v.trim()).filter((v) => v !== '');
    }
  };
}

/** The paging lists, `sorting_keys` and `sorting_order`, as comma lists or repeated parameters. */
export const splitCommaLists = splitCommaListsOf(['sorting_keys', 'sorting_order']);
