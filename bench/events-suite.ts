// BENCH_SUITE=events: what recording every change as an event costs, each figure beside its
// baseline in the same run (docs/decisions/events.md, docs/performance.md "Events").
// 1. Single account creates into a company no one listens to, and into one with a subscription to
//    v1.account.created, in interleaved rounds: what the fan-out adds to a write.
// 2. Into a company with three such subscriptions: 1,000 accounts created one request each, beside
//    batches of 1,000 (POST /v1/chart-of-accounts/batch) timed one at a time.
// 3. The feed (GET /v1/events) over `feedEvents` events: first pages of a window starting at a random
//    time, the page after each, and the same for one rare type.
// The service runs as `--role api`: messages are made but not sent, so the figures are the writes'
// and the reads' own (the webhooks suite measures delivery).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { mintToken } from '../src/auth/mint-token.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { postgresTicks, TICK_US, ticksOf } from './cpu.ts';
import { type DatabaseKind, prepare } from './databases.ts';
import { median } from './median.ts';
import { type Child, startService } from './processes.ts';
import { type Latency, percentiles } from './webhooks/backlog.ts';

export interface EventsSuiteSettings {
  databases: DatabaseKind[];
  adminUrl: string;
  secret: string;
  /** Single creates per company per round, and rounds (companies alternate within each). */
  singles: number;
  rounds: number;
  clients: number;
  /** Batches of 1,000 timed one at a time. */
  batches: number;
  /** Events in the feed's table, over `feedCompanies` companies; pages timed per kind of page. */
  feedEvents: number;
  feedCompanies: number;
  feedPages: number;
}

export interface EventsFigures {
  db: DatabaseKind;
  /** Median per-request latency and requests per second of the single creates, per company. */
  quiet: CreateRun;
  heard: CreateRun;
  /**
   * 1,000 single creates with three listeners, seconds (the median of up to three rounds); one batch
   * of 1,000, milliseconds.
   */
  threeListenersSingleSeconds: number;
  batch: Latency;
  feed: { firstPage: Latency; nextPage: Latency; rareTypePage: Latency; events: number };
}

interface CreateRun {
  rps: number;
  latency: Latency;
  /** Median CPU per create, microseconds: the service's, and on PostgreSQL the server's processes'. */
  cpuUs: number;
}

const ACCOUNT_SCOPES = 'accounts:write';
// One integration subscribes and writes in every company, as an ERP connector would.
const INTEGRATION = randomUUID();
const RARE_TYPE = 'v1.contra-account.deleted';
const NO_LATENCY = percentiles([]);
const NO_FEED = { firstPage: NO_LATENCY, nextPage: NO_LATENCY, rareTypePage: NO_LATENCY };

export async function runEventsSuite(
  settings: EventsSuiteSettings,
  log: (line: string) => void,
): Promise<EventsFigures[]> {
  const figures: EventsFigures[] = [];
  for (const kind of settings.databases) {
    const target = await prepare(kind, { accounts: 1000, adminUrl: settings.adminUrl, log });
    const feedCompany = await seedFeed(target.env, settings, log, kind);
    const service = await startService({
      ...target.env,
      AUTH_JWT_SECRET: settings.secret,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: String(2 ** 31),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    try {
      const client = apiClient(service, settings.secret);
      // CPU ticks the writes cost: the service's, and on PostgreSQL the server's (cpu.ts).
      const ticks = () => ticksOf(service.pid) + (kind === 'postgres' ? postgresTicks() : 0);
      const createSingly = (company: string, count: number, prefix: string) =>
        createSinglyTimed(client, company, count, settings.clients, prefix, ticks);
      const quietCompany = randomUUID();
      const heardCompany = randomUUID();
      const threeCompany = randomUUID();
      await client.subscribe(heardCompany, 1);
      await client.subscribe(threeCompany, 3);

      // Untimed: the service's plans and connections warm up on a company of its own.
      await createSingly(randomUUID(), settings.singles, 'warm-up');
      const quiet: SinglesRun[] = [];
      const heard: SinglesRun[] = [];
      for (let round = 0; round < settings.rounds; round++) {
        quiet.push(await createSingly(quietCompany, settings.singles, `q${round}`));
        heard.push(await createSingly(heardCompany, settings.singles, `h${round}`));
        log(`${kind}: round ${round + 1} of single creates`);
      }
      const threeListenersRounds: number[] = [];
      for (let round = 0; round < Math.min(3, settings.rounds); round++) {
        threeListenersRounds.push((await createSingly(threeCompany, 1000, `three${round}`)).seconds);
      }
      const threeListenersSingleSeconds = median(threeListenersRounds);
      const batchLatencies: number[] = [];
      for (let i = 0; i < settings.batches; i++) {
        const items = accountItems(`batch-${i}`, 1000);
        batchLatencies.push(
          await timed(() =>
            client.post('/v1/chart-of-accounts/batch', threeCompany, { companyId: threeCompany, items }),
          ),
        );
      }
      log(`${kind}: ${settings.batches} batches of 1,000`);
      // BENCH_EVENTS_FEED=0: the writes alone.
      const feed = settings.feedEvents > 0 ? await timeFeed(client, feedCompany, settings.feedPages) : NO_FEED;
      log(`${kind}: ${settings.feedPages} feed pages of each kind`);
      figures.push({
        db: kind,
        quiet: toRun(quiet),
        heard: toRun(heard),
        threeListenersSingleSeconds,
        batch: percentiles(batchLatencies),
        feed: { ...feed, events: settings.feedEvents },
      });
    } finally {
      await service.stop();
      await target.cleanup();
    }
  }
  return figures;
}

/**
 * Inserts the feed's events straight into the table, spread over the last day, a quarter of them in
 * one company and the rest over the others; every thousandth is of a rare type. Answers that company.
 */
async function seedFeed(
  env: Record<string, string>,
  settings: EventsSuiteSettings,
  log: (line: string) => void,
  kind: DatabaseKind,
): Promise<string> {
  const company = randomUUID();
  const others = Array.from({ length: settings.feedCompanies - 1 }, () => randomUUID());
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
  try {
    const started = performance.now();
    // One statement per slice of the day, each followed by the watermark the retention sweeper would
    // have recorded at the slice's end (migration 0032): the events after it start above it.
    const slices = 500;
    const chunk = Math.ceil(settings.feedEvents / slices);
    for (let from = 0; from < settings.feedEvents; from += chunk) {
      const to = Math.min(settings.feedEvents, from + chunk) - 1;
      await db.query(
        `INSERT INTO events (event_type, company_id, data, created_at)
         SELECT CASE WHEN i % 1000 = 0 THEN $4 ELSE 'v1.account.updated' END,
           CASE WHEN i % 4 = 0 OR cardinality($3::uuid[]) = 0 THEN $2::uuid ELSE ($3::uuid[])[1 + i % cardinality($3::uuid[])] END,
           jsonb_build_object('id', gen_random_uuid(), 'name', 'Account ' || i, 'archived', false),
           now() - interval '1 day' + i * (interval '1 day' / $5)
         FROM generate_series($1::int, $6::int) AS i`,
        [from, company, others, RARE_TYPE, settings.feedEvents, to],
      );
      await db.query(
        `INSERT INTO transaction_watermarks (recorded_at, next_transaction_id)
         SELECT now() - interval '1 day' + $1::int * (interval '1 day' / $2), pg_snapshot_xmax(pg_current_snapshot())`,
        [to + 1, settings.feedEvents],
      );
    }
    await db.query('ANALYZE events');
    log(
      `${kind}: ${settings.feedEvents.toLocaleString('en')} feed events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await db.close();
  }
  return company;
}

async function timeFeed(client: ApiClient, company: string, pages: number) {
  const first: number[] = [];
  const next: number[] = [];
  const rare: number[] = [];
  const dayMs = 86_400_000;
  // A quarter as many rounds untimed first: the service's plans, and the index pages the timed rounds
  // read, warm up (the accounts suite warms up the same way).
  const warmUp = Math.ceil(pages / 4);
  for (let i = -warmUp; i < pages; i++) {
    const after = new Date(Date.now() - dayMs + Math.random() * dayMs * 0.95).toISOString();
    const query = `company_id=${company}&created_after=${after}&limit=100`;
    const kept = (list: number[]) => (ms: number) => {
      if (i >= 0) list.push(ms);
    };
    let body: { pagination: { endCursor?: string } } | undefined;
    kept(first)(await timed(async () => (body = await client.get(`/v1/events?${query}`, company))));
    const cursor = body?.pagination.endCursor;
    if (cursor) kept(next)(await timed(() => client.get(`/v1/events?${query}&after=${cursor}`, company)));
    kept(rare)(await timed(() => client.get(`/v1/events?${query}&event_types=${RARE_TYPE}`, company)));
  }
  return { firstPage: percentiles(first), nextPage: percentiles(next), rareTypePage: percentiles(rare) };
}

interface SinglesRun {
  /** Each request's milliseconds. */
  latencies: number[];
  seconds: number;
  /** CPU ticks spent meanwhile (`ticks`). */
  ticks: number;
}

/** Creates `count` accounts one request each, `clients` at a time, and counts the CPU `ticks` spent. */
async function createSinglyTimed(
  client: ApiClient,
  company: string,
  count: number,
  clients: number,
  prefix: string,
  ticks: () => number,
): Promise<SinglesRun> {
  const items = accountItems(prefix, count);
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      latencies.push(await timed(() => client.post('/v1/chart-of-accounts', company, { ...item, companyId: company })));
    }
  };
  const ticksBefore = ticks();
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, worker));
  return { latencies, seconds: (performance.now() - started) / 1000, ticks: ticks() - ticksBefore };
}

/** The rounds' median throughput, and the latencies of all their requests. */
function toRun(rounds: SinglesRun[]): CreateRun {
  const rps = median(rounds.map((round) => round.latencies.length / round.seconds));
  const cpuUs = median(rounds.map((round) => (round.ticks * TICK_US) / round.latencies.length));
  return { rps, latency: percentiles(rounds.flatMap((round) => round.latencies)), cpuUs };
}

function accountItems(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    externalId: `${prefix}-${i}`,
    name: `Account ${i}`,
    code: String(100_000 + i),
    archived: false,
    metadata: { erp: { ref: `R-${i}` } },
  }));
}

type ApiClient = ReturnType<typeof apiClient>;

function apiClient(service: Child, secret: string) {
  const tokens = new Map<string, Promise<string>>();
  const tokenOf = (company: string) => {
    let token = tokens.get(company);
    if (!token) {
      token = mintToken(secret, {
        subject: INTEGRATION,
        companies: [company],
        scope: `${ACCOUNT_SCOPES} contra-accounts:read`,
        ttl: '1d',
      });
      tokens.set(company, token);
    }
    return token;
  };
  const call = async (method: string, path: string, company: string, body?: unknown) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${await tokenOf(company)}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  };
  return {
    post: (path: string, company: string, body: unknown) => call('POST', path, company, body),
    get: (path: string, company: string) => call('GET', path, company),
    async subscribe(company: string, count: number) {
      for (let i = 0; i < count; i++) {
        await call('POST', '/v1/subscriptions', company, {
          eventTypes: ['v1.account.created'],
          endpointUrl: `http://127.0.0.1:9/listener-${i}`,
        });
      }
    },
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export function formatEventsTable(
  figures: EventsFigures[],
  settings: Pick<EventsSuiteSettings, 'clients' | 'rounds' | 'singles' | 'batches' | 'feedPages'>,
): string {
  const ms = (l: Latency) => `${l.p50Ms.toFixed(1)} / ${l.p99Ms.toFixed(1)} ms`;
  const writes = figures.map((f) => {
    const cost = (100 * (f.quiet.rps / f.heard.rps - 1)).toFixed(1);
    const cpuCost = (100 * (f.heard.cpuUs / f.quiet.cpuUs - 1)).toFixed(1);
    // Both figures are of 1,000 accounts: singles in seconds, a batch in milliseconds.
    const speedup = (1000 * f.threeListenersSingleSeconds) / f.batch.p50Ms;
    return (
      `| ${f.db} | ${Math.round(f.quiet.rps)} rps, ${ms(f.quiet.latency)}, ${Math.round(f.quiet.cpuUs)} µs | ` +
      `${Math.round(f.heard.rps)} rps, ${ms(f.heard.latency)}, ${Math.round(f.heard.cpuUs)} µs | ${cost} % / ${cpuCost} % | ` +
      `${f.threeListenersSingleSeconds.toFixed(2)} s | ${ms(f.batch)} | ${speedup.toFixed(1)}× |`
    );
  });
  const reads = figures.map(
    (f) =>
      `| ${f.db} | ${f.feed.events.toLocaleString('en')} | ${ms(f.feed.firstPage)} | ${ms(f.feed.nextPage)} | ${ms(f.feed.rareTypePage)} |`,
  );
  return [
    `Single creates, ${settings.clients} clients, ${settings.rounds} interleaved rounds of ${settings.singles} per company; ` +
      `then 1,000 single creates (the median of three rounds) and ${settings.batches} batches of 1,000 with three listeners; ` +
      "CPU per create is the service's, and on PostgreSQL the server's too",
    '| database | no listener: rps, p50 / p99, CPU per create | one listener: the same | cost of the listener: rps / CPU | 1,000 singles, three listeners | one batch of 1,000, p50 / p99 | batch speed-up |',
    '|---|---|---|---|---|---|---|',
    ...writes,
    '',
    `The feed, ${settings.feedPages} pages of 100 of each kind, p50 / p99`,
    '| database | events | first page of a window | the next page (cursor) | a rare type |',
    '|---|---|---|---|---|',
    ...reads,
  ].join('\n');
}
