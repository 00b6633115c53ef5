// SQL of the event feed, GET /v1/events (docs/decisions/events.md; migrations 0029 and 0031).
//
// A company's events in the order (transaction_id, sequence), and only those of transactions older
// than every transaction still running (pg_snapshot_xmin): a transaction that commits late has the
// smaller id, so it would otherwise land behind a cursor a reader already passed. Once no older
// transaction runs, its events become visible where they sort, before the reader gets there.
import type { Database, Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { PAGE_BYTE_BUDGET } from '../db/page-statement.ts';
import { SqlParams } from '../db/sql-params.ts';
import { EVENT_PAYLOAD_COLUMNS, type EventPayload, type EventPayloadRow, toEventPayload } from './event-payload.ts';
import { firstTransactionIdSince } from './transaction-watermarks.ts';

export interface FeedFilters {
  companyId: string;
  /** Only these types (each read through its own index range, merged); null for every type. */
  eventTypes: readonly string[] | null;
  /** created_at at or after this; null for no bound. */
  createdAfter: string | null;
  /** created_at before this; null for no bound. */
  createdBefore: string | null;
}

/** Where a page starts: an event's place in the order, and when it was recorded (for the retention check). */
export interface FeedCursor {
  transactionId: string;
  sequence: string;
  createdAt: string;
}

export interface FeedPosition {
  limit: number;
  after?: FeedCursor;
  before?: FeedCursor;
}

export interface FeedItem {
  payload: EventPayload;
  createdAt: string;
}

export interface FeedPage {
  items: FeedItem[];
  first?: FeedCursor;
  last?: FeedCursor;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

type FeedRow = EventPayloadRow & { transactionId: string; sequenceText: string; createdAt: string };

interface Scan {
  /** The smallest transaction id the window's events can have (a watermark), or null. */
  firstTransactionId: string | null;
  /** Events after the bound (before it when `backwards`); inclusive of the bound's own event when asked. */
  bound?: { cursor: FeedCursor; backwards: boolean; inclusive: boolean };
  backwards: boolean;
  limit: number;
}

const FEED_COLUMNS = `${EVENT_PAYLOAD_COLUMNS}, e.transaction_id::text AS "transactionId",
  e.sequence::text AS "sequenceText", ${isoTimestamp('e.created_at')} AS "createdAt"`;

/**
 * One scan of the feed in its order: a range of events_feed_idx, or with types, of
 * events_feed_type_idx per type. PostgreSQL 15 does not merge such ranges in order (a UNION ALL of
 * them was sorted whole: 440 ms for three common types at 1,000,000 events), so each type's range
 * gives its first `limit` keys, read from the index alone, and the page is the first `limit` of
 * those: a rare type is found without reading the company's other events, and a page costs at most
 * `limit` index entries per type.
 */
/**
 * For the rest of the transaction, no bitmap scans: the planner cannot know how many events lie past
 * a cursor (the snapshot bound and the window multiply its guesses), and when it guessed few it
 * fetched them all through a bitmap to sort them (a next page: 65 ms for 19,527 events). Without
 * bitmaps the scan walks the feed's index in order and stops at the page's end (0.2 ms for 101).
 */
const NO_BITMAP_SCANS = "SELECT set_config('enable_bitmapscan', 'off', true)";

function scanStatement(filters: FeedFilters, scan: Scan, params: SqlParams): string {
  const common = [
    `e.company_id = ${params.add(filters.companyId)}::uuid`,
    'e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())',
  ];
  if (filters.createdAfter !== null) common.push(`e.created_at >= ${params.add(filters.createdAfter)}::timestamptz`);
  // Where the window's events can start in the order, so the scan skips the history before it. A
  // value, not a subquery: the planner then knows how many events lie after it, and walks the index
  // in order instead of fetching all of them to sort (a next page took 70 ms that way).
  if (scan.firstTransactionId !== null) common.push(`e.transaction_id >= ${params.add(scan.firstTransactionId)}::xid8`);
  if (filters.createdBefore !== null) common.push(`e.created_at < ${params.add(filters.createdBefore)}::timestamptz`);
  if (scan.bound) {
    const { cursor, backwards, inclusive } = scan.bound;
    const op = (backwards ? '<' : '>') + (inclusive ? '=' : '');
    common.push(
      `(e.transaction_id, e.sequence) ${op} (${params.add(cursor.transactionId)}::xid8, ${params.add(cursor.sequence)}::bigint)`,
    );
  }
  const direction = scan.backwards ? 'DESC' : 'ASC';
  const order = (alias: string) => `${alias}.transaction_id ${direction}, ${alias}.sequence ${direction}`;
  const limit = `${params.add(scan.limit)}::int`;
  if (filters.eventTypes === null) {
    return `SELECT ${FEED_COLUMNS} FROM events e WHERE ${common.join(' AND ')} ORDER BY ${order('e')} LIMIT ${limit}`;
  }
  const types = params.add(filters.eventTypes);
  return `SELECT ${FEED_COLUMNS}
    FROM (SELECT k.* FROM unnest(${types}::text[]) AS asked(event_type)
          CROSS JOIN LATERAL (
            SELECT e.id, e.transaction_id, e.sequence FROM events e
            WHERE ${[...common, 'e.event_type = asked.event_type'].join(' AND ')}
            ORDER BY ${order('e')} LIMIT ${limit}) k
          ORDER BY ${order('k')} LIMIT ${limit}) page
    JOIN events e ON e.id = page.id
    ORDER BY ${order('page')}`;
}

async function scanFeed(db: Queryable, filters: FeedFilters, scan: Scan): Promise<FeedRow[]> {
  const params = new SqlParams();
  const sql = scanStatement(filters, scan, params);
  return db.query<FeedRow>(sql, params.values);
}

/**
 * The rows, nearest the cursor first, up to the one that brings the page to PAGE_BYTE_BUDGET bytes
 * of data: a page of large resources ends sooner, as every list's does (docs/decisions/pagination.md).
 */
function withinByteBudget(rows: FeedRow[]): FeedRow[] {
  let bytes = 0;
  const kept: FeedRow[] = [];
  for (const row of rows) {
    if (bytes >= PAGE_BYTE_BUDGET) break;
    kept.push(row);
    bytes += JSON.stringify(row.data).length;
  }
  return kept;
}

function cursorOf(row: FeedRow | undefined): FeedCursor | undefined {
  return row && { transactionId: row.transactionId, sequence: row.sequenceText, createdAt: row.createdAt };
}

/**
 * A page of the feed: up to `limit` events after `after` (before `before`, or from the start),
 * and whether events lie beyond it on either side. No total: counting a company's million events
 * would cost every page.
 */
export async function listFeed(db: Database, filters: FeedFilters, position: FeedPosition): Promise<FeedPage> {
  return db.transaction((tx) => readFeed(tx, filters, position));
}

/** listFeed within the caller's transaction, whose scans it confines to the feed's order. */
export async function readFeed(tx: Queryable, filters: FeedFilters, position: FeedPosition): Promise<FeedPage> {
  const cursor = position.before ?? position.after;
  const backwards = position.before !== undefined;
  await tx.query(NO_BITMAP_SCANS);
  const firstTransactionId =
    filters.createdAfter === null ? null : await firstTransactionIdSince(tx, filters.createdAfter);
  const rows = await scanFeed(tx, filters, {
    firstTransactionId,
    bound: cursor && { cursor, backwards, inclusive: false },
    backwards,
    limit: position.limit + 1,
  });
  // An event at or behind the cursor (its own, unless retention deleted it) means a page lies there.
  const nearSide = cursor
    ? await scanFeed(tx, filters, {
        firstTransactionId,
        bound: { cursor, backwards: !backwards, inclusive: true },
        backwards: !backwards,
        limit: 1,
      })
    : [];
  const page = withinByteBudget(rows.slice(0, position.limit));
  const more = rows.length > page.length;
  const items = page.map((row) => ({ payload: toEventPayload(row), createdAt: row.createdAt }));
  if (backwards) {
    page.reverse();
    items.reverse();
  }
  return {
    items,
    first: cursorOf(page[0]),
    last: cursorOf(page.at(-1)),
    hasNextPage: backwards ? nearSide.length > 0 : more,
    hasPreviousPage: backwards ? more : nearSide.length > 0,
  };
}
