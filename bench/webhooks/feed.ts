// The event feed (GET /v1/events, src/webhooks/feed-store.ts) over a large outbox: `events` events
// written straight into `events` with generate_series (one big company, a few small ones, 40 events
// per transaction, created over 29 days), then pages timed at the store, which is where a page's cost
// lies: the first page, pages at random cursors forward and back, a rare type, the types a token
// without export-job scopes reads (every other type, merged), and time windows. Prints each case's
// p50 and p99, and PostgreSQL's plan of one page of each. Not in bench/run: call runFeedBench.
//   node -e "import('./bench/webhooks/feed.ts').then((m) => m.runFeedBench({ databaseUrl: process.env.DATABASE_URL }))"
import { randomBytes } from 'node:crypto';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { EVENT_TYPES } from '../../src/webhooks/event-types.ts';
import { type FeedCursor, type FeedFilters, listFeed } from '../../src/webhooks/feed-store.ts';

export interface FeedBenchSettings {
  /** PostgreSQL; the embedded database when absent. */
  databaseUrl?: string;
  /** Events written (default 1,000,000). */
  events?: number;
  /** Timed pages per case (default 300). */
  samples?: number;
  log?: (line: string) => void;
}

export interface FeedCaseFigures {
  name: string;
  p50Ms: number;
  p99Ms: number;
  /** Events on the last page timed. */
  rows: number;
}

const BIG = '00000000-0000-4000-8000-000000000001';
const SMALL = ['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
const RARE_TYPE = 'v1.contra-account.deleted';
const COMMON_TYPES = EVENT_TYPES.map((d) => d.type).filter(
  (type) => type !== RARE_TYPE && type !== 'v1.subscription.disabled',
);
const NO_EXPORT_JOBS = EVENT_TYPES.filter((d) => d.readScope !== null && d.readScope !== 'export-jobs:read').map(
  (d) => d.type,
);
const DAY_MS = 86_400_000;

/** Writes the events: 80% of them the big company's, one in a thousand of the rare type. */
async function seed(db: Database, events: number): Promise<void> {
  await db.query(
    `INSERT INTO events (event_type, company_id, data, created_at, transaction_id)
     SELECT CASE WHEN i % 1000 = 7 THEN $2 ELSE ($3::text[])[(1 + (i * 7919) % cardinality($3::text[]))::int] END,
       CASE WHEN i % 5 = 0 THEN ($4::uuid[])[(1 + (i / 5) % 2)::int] ELSE $5::uuid END,
       jsonb_build_object('id', gen_random_uuid(), 'name', 'Account ' || i, 'code', i::text,
         'description', repeat('x', 200), 'archived', false),
       now() - interval '29 days' + (i::float8 / $1) * interval '29 days',
       (3 + i / 40)::text::xid8
     FROM generate_series(0::bigint, $1::bigint - 1) i`,
    [events, RARE_TYPE, COMMON_TYPES, SMALL, BIG],
  );
  await db.query('ANALYZE events');
}

async function sampleCursors(db: Database, count: number): Promise<FeedCursor[]> {
  return db.query<FeedCursor>(
    `SELECT transaction_id::text AS "transactionId", sequence::text AS sequence,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt"
     FROM events TABLESAMPLE SYSTEM (1) WHERE company_id = $1 LIMIT $2`,
    [BIG, count],
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

export async function runFeedBench(settings: FeedBenchSettings = {}): Promise<FeedCaseFigures[]> {
  const { events = 1_000_000, samples = 300, log = console.log } = settings;
  const schema = `bench_feed_${randomBytes(4).toString('hex')}`;
  const db = await openDatabase(
    { databaseUrl: settings.databaseUrl, dataDir: settings.databaseUrl ? '' : 'memory' },
    settings.databaseUrl ? { schema } : {},
  );
  try {
    const started = performance.now();
    await seed(db, events);
    log(`seeded ${events.toLocaleString('en')} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return await timeFeedCases(db, samples, log);
  } finally {
    if (settings.databaseUrl) await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.close();
  }
}

/** Times each case's pages over events `seed` wrote. */
export async function timeFeedCases(
  db: Database,
  samples: number,
  log: (line: string) => void,
): Promise<FeedCaseFigures[]> {
  {
    const cursors = await sampleCursors(db, samples);
    const base: FeedFilters = { companyId: BIG, eventTypes: null, createdAfter: null, createdBefore: null };
    const iso = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString();
    const cases: {
      name: string;
      filters: FeedFilters;
      at: (i: number) => { after?: FeedCursor; before?: FeedCursor };
    }[] = [
      { name: 'first page', filters: base, at: () => ({}) },
      { name: 'after a random cursor', filters: base, at: (i) => ({ after: cursors[i % cursors.length] }) },
      { name: 'before a random cursor', filters: base, at: (i) => ({ before: cursors[i % cursors.length] }) },
      { name: `${RARE_TYPE} (0.1%), first page`, filters: { ...base, eventTypes: [RARE_TYPE] }, at: () => ({}) },
      {
        name: `${RARE_TYPE} (0.1%), after a random cursor`,
        filters: { ...base, eventTypes: [RARE_TYPE] },
        at: (i) => ({ after: cursors[i % cursors.length] }),
      },
      {
        name: `every type but export jobs (${NO_EXPORT_JOBS.length} types), after a random cursor`,
        filters: { ...base, eventTypes: NO_EXPORT_JOBS },
        at: (i) => ({ after: cursors[i % cursors.length] }),
      },
      { name: 'created_after 14 days ago, first page', filters: { ...base, createdAfter: iso(14) }, at: () => ({}) },
      { name: 'created_after 1 day ago, first page', filters: { ...base, createdAfter: iso(1) }, at: () => ({}) },
      { name: 'created_before 28 days ago, first page', filters: { ...base, createdBefore: iso(28) }, at: () => ({}) },
    ];
    const figures: FeedCaseFigures[] = [];
    log('| case | p50 ms | p99 ms | rows |\n|---|---|---|---|');
    for (const { name, filters, at } of cases) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < samples + 20; i++) {
        const start = performance.now();
        const page = await listFeed(db, filters, { limit: 100, ...at(i) });
        if (i >= 20) times.push(performance.now() - start);
        rows = page.items.length;
      }
      times.sort((a, b) => a - b);
      const figure = { name, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99), rows };
      figures.push(figure);
      log(`| ${name} | ${figure.p50Ms.toFixed(2)} | ${figure.p99Ms.toFixed(2)} | ${rows} |`);
    }
    return figures;
  }
}
