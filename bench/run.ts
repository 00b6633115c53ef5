// `npm run bench`: two suites, figures only (docs/performance.md says what they are for).
// accounts: seeds each database with one company of many accounts, runs the service on it in a child
// process, and measures each scenario, in interleaved rounds, beside a bare node:http server
// answering the same body (bench/accounts-suite.ts).
// webhooks: a worker process delivers signed notifications to 50 local receivers, beside raw undici
// POSTs of the same body to them (bench/webhooks/suite.ts); and the commit-to-first-attempt latency.
// instructions (not run by default): instructions per get-by-id request in the service and in the
// bare server, counted by callgrind on PostgreSQL (bench/instructions.ts); needs valgrind.
// cpu (not run by default): CPU time per get-by-id request in the service, PostgreSQL and the load
// generator, beside the bare server's, read from /proc over interleaved rounds (bench/cpu.ts).
//
// chart (not run by default): a 20,000-account chart synced in batches of 1,000 against single
// creates, 16 clients each, and one batch's latency (bench/chart-suite.ts).
// dashboard (not run by default): the dashboard's first page of messages of a subscription with
// 1,000,000 of them, in Chromium and from the API (bench/dashboard-suite.ts).
// retention (not run by default): webhook retention under a sustained load of events and reads, with
// a short retention against retention off: rows left and latencies (bench/webhooks/retention-load.ts).
// isolation (not run by default): another tenant's webhooks beside one tenant's hanging subscriptions,
// and the drain of a recovered backlog after stale statistics, each beside its baseline
// (bench/webhooks/isolation.ts).
// search (not run by default): a name search matching a quarter of 20,000 accounts beside a first
// page at 50 connections, and one matching 1 % of 1,000,000 at 10 connections (bench/search-suite.ts).
// events (not run by default): single creates with and without a listener, batches of 1,000 beside
// single creates with three listeners, and feed pages over 1,000,000 events (bench/events-suite.ts).
// tracing (not run by default): get-by-id with tracing unconfigured beside tracing on at 10 %, in
// interleaved rounds, and an older checkout's server with BENCH_TRACING_BASELINE (bench/tracing-suite.ts).
//
//   BENCH_SUITE=accounts,webhooks  which suites, in order (also: instructions, cpu, chart, dashboard, retention,
//                              isolation, events, tracing, search)
//   BENCH_TRACING_BASELINE=<path>  the tracing suite also runs that checkout's src/main.ts (an older
//                              commit, with its node_modules) on the same database, as the baseline
//   BENCH_TRACING_METHOD=throughput  or instructions: the tracing suite counts each variant's instructions
//                              per request (BENCH_INSTRUCTION_*, BENCH_ROUNDS rounds) instead
//   BENCH_SEARCH_LARGE=1       the search suite's 1,000,000 accounts too (0: only the 20,000)
//   BENCH_EVENTS_SINGLES=500, BENCH_EVENTS_ROUNDS=4, BENCH_EVENTS_BATCHES=20, BENCH_EVENTS_FEED=1000000,
//   BENCH_EVENTS_FEED_PAGES=200  the events suite: single creates per company and round, rounds, batches
//                              of 1,000 timed, events in the feed, pages timed of each kind
//   BENCH_ISOLATION_HANGING=200, BENCH_ISOLATION_SAMPLES=200, BENCH_ISOLATION_RECOVERED=100000  the isolation
//                              suite: one tenant's hanging subscriptions, another tenant's timed events beside
//                              them, messages recovered
//   BENCH_DASHBOARD_MESSAGES=1000000, BENCH_DASHBOARD_SAMPLES=20  the dashboard suite
//   BENCH_CHART_ACCOUNTS=20000, BENCH_CHART_CLIENTS=16, BENCH_CHART_LATENCY_BATCHES=100,
//   BENCH_CHART_BATCH_ROUNDS=3, BENCH_CHART_LISTENERS=0  the chart suite (batched syncs, the median counts;
//   subscriptions to v1.account.created in each company synced)
//   BENCH_RETENTION=5s, BENCH_RETENTION_SECONDS=60, BENCH_RETENTION_EVENTS=100, BENCH_RETENTION_READS=200,
//   BENCH_RETENTION_ROUNDS=2   the retention suite: WEBHOOK_RETENTION, timed seconds, events and reads per
//                              second, runs of each (off and on alternate)
//   BENCH_INSTRUCTION_REQUESTS=4000, BENCH_INSTRUCTION_WARMUP=40000  counted and uncounted requests
//   BENCH_INSTRUCTION_CONNECTIONS=4  1 makes every lookup its own statement: the steadiest count
//   BENCH_INSTRUCTION_KEEP=1   keep callgrind's output (for callgrind_annotate); its folder is logged;
//                              map: also a perf map naming JIT-compiled functions (it adds to the count)
//   BENCH_CPU_ROUNDS=3         interleaved service and bare-server rounds of the cpu suite
//   BENCH_DB=postgres,pglite   which databases, in order
//   BENCH_ACCOUNTS=1000000     accounts in the company
//   BENCH_SECONDS=5            timed seconds per scenario (after BENCH_WARMUP_SECONDS=3 untimed)
//   BENCH_ROUNDS=3             rounds of the accounts suite's reads (BENCH_ROUND_WARMUP_SECONDS=1
//                              untimed before each scenario after the first round)
//   BENCH_CONNECTIONS=10       concurrent connections
//   BENCH_SLICES=12, BENCH_SLICE_SECONDS=2, BENCH_SLICE_WARMUP_SECONDS=0.5  get-by-id in slices
//                              alternating with the bare server, after the rounds (0 slices: none)
//   BENCH_EXPORT_COMPANIES=50000  fresh companies for export-job create (one open job each; past them, 409s)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test
//                              where the ledgerhook_bench database is dropped and created
//   BENCH_DATABASE_NAME=ledgerhook_bench  that database's name (another lets two benches run at once)
//   BENCH_WEBHOOK_MESSAGES=20000, BENCH_WEBHOOK_RECEIVERS=50, BENCH_WEBHOOK_LATENCY_SAMPLES=200,
//   BENCH_WEBHOOK_RAW_CONCURRENCY=64 (the worker's default attempts in flight),
//   BENCH_WEBHOOK_BACKLOG=100000 (an endpoint's backlog drained beside a healthy endpoint; 0: none)
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { runAccountsSuite } from './accounts-suite.ts';
import { type ChartFigures, formatChartTable, runChartSuite } from './chart-suite.ts';
import { type CpuFigures, describe, type GetByIdTarget, measureCpu } from './cpu.ts';
import { type DashboardFigures, formatDashboardTable, runDashboardSuite } from './dashboard-suite.ts';
import { type DatabaseKind, prepare } from './databases.ts';
import { type EventsFigures, formatEventsTable, runEventsSuite } from './events-suite.ts';
import { countInstructions, type InstructionFigures } from './instructions.ts';
import { describePageDepth } from './page-depth.ts';
import { type Figure, formatTable, toFigure, writeJson } from './report.ts';
import { getByIdRequests, sampleBody, userToken } from './scenarios.ts';
import { formatSearchTable, runSearchSuite, type SearchFigures } from './search-suite.ts';
import { describeSlices } from './slices.ts';
import { formatTracingInstructions, formatTracingTable, runTracingSuite } from './tracing-suite.ts';
import { formatIsolationTable, type IsolationFigures, runIsolationSuite } from './webhooks/isolation.ts';
import { formatRetentionTable, type RetentionFigures, runRetentionLoad } from './webhooks/retention-load.ts';
import { formatWebhookTable, runWebhookSuite, type WebhookFigures } from './webhooks/suite.ts';

const env = process.env;
const settings = {
  suites: (env.BENCH_SUITE ?? 'accounts,webhooks').split(',').map((s) => s.trim()),
  databases: (env.BENCH_DB ?? 'postgres,pglite').split(',').map((s) => s.trim()) as DatabaseKind[],
  accounts: Number(env.BENCH_ACCOUNTS ?? 1_000_000),
  seconds: Number(env.BENCH_SECONDS ?? 5),
  warmupSeconds: Number(env.BENCH_WARMUP_SECONDS ?? 3),
  rounds: Number(env.BENCH_ROUNDS ?? 3),
  roundWarmupSeconds: Number(env.BENCH_ROUND_WARMUP_SECONDS ?? 1),
  connections: Number(env.BENCH_CONNECTIONS ?? 10),
  slices: {
    slices: Number(env.BENCH_SLICES ?? 12),
    seconds: Number(env.BENCH_SLICE_SECONDS ?? 2),
    warmupSeconds: Number(env.BENCH_SLICE_WARMUP_SECONDS ?? 0.5),
  },
  exportCompanies: Number(env.BENCH_EXPORT_COMPANIES ?? 50_000),
  adminUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  instructions: {
    requests: Number(env.BENCH_INSTRUCTION_REQUESTS ?? 4000),
    warmup: Number(env.BENCH_INSTRUCTION_WARMUP ?? 40_000),
    connections: Number(env.BENCH_INSTRUCTION_CONNECTIONS ?? 4),
  },
  cpuRounds: Number(env.BENCH_CPU_ROUNDS ?? 3),
  tracingBaseline: env.BENCH_TRACING_BASELINE || undefined,
  tracingMethod: env.BENCH_TRACING_METHOD ?? 'throughput',
  chart: {
    chartAccounts: Number(env.BENCH_CHART_ACCOUNTS ?? 20_000),
    batchSize: 1000,
    clients: Number(env.BENCH_CHART_CLIENTS ?? 16),
    latencyBatches: Number(env.BENCH_CHART_LATENCY_BATCHES ?? 100),
    batchRounds: Number(env.BENCH_CHART_BATCH_ROUNDS ?? 3),
    listeners: Number(env.BENCH_CHART_LISTENERS ?? 0),
  },
  retention: {
    retention: env.BENCH_RETENTION ?? '5s',
    seconds: Number(env.BENCH_RETENTION_SECONDS ?? 60),
    warmupSeconds: 5,
    eventsPerSecond: Number(env.BENCH_RETENTION_EVENTS ?? 100),
    readsPerSecond: Number(env.BENCH_RETENTION_READS ?? 200),
    rounds: Number(env.BENCH_RETENTION_ROUNDS ?? 2),
  },
  dashboard: {
    messages: Number(env.BENCH_DASHBOARD_MESSAGES ?? 1_000_000),
    samples: Number(env.BENCH_DASHBOARD_SAMPLES ?? 20),
  },
  events: {
    singles: Number(env.BENCH_EVENTS_SINGLES ?? 500),
    rounds: Number(env.BENCH_EVENTS_ROUNDS ?? 4),
    clients: Number(env.BENCH_CONNECTIONS ?? 10),
    batches: Number(env.BENCH_EVENTS_BATCHES ?? 20),
    feedEvents: Number(env.BENCH_EVENTS_FEED ?? 1_000_000),
    feedCompanies: 10,
    feedPages: Number(env.BENCH_EVENTS_FEED_PAGES ?? 200),
  },
  isolation: {
    hanging: Number(env.BENCH_ISOLATION_HANGING ?? 200),
    samples: Number(env.BENCH_ISOLATION_SAMPLES ?? 200),
    recovered: Number(env.BENCH_ISOLATION_RECOVERED ?? 100_000),
  },
  webhooks: {
    messages: Number(env.BENCH_WEBHOOK_MESSAGES ?? 20_000),
    receivers: Number(env.BENCH_WEBHOOK_RECEIVERS ?? 50),
    latencySamples: Number(env.BENCH_WEBHOOK_LATENCY_SAMPLES ?? 200),
    rawConcurrency: Number(env.BENCH_WEBHOOK_RAW_CONCURRENCY ?? 64),
    backlog: Number(env.BENCH_WEBHOOK_BACKLOG ?? 100_000),
  },
};
for (const suite of settings.suites) {
  if (
    ![
      'accounts',
      'webhooks',
      'instructions',
      'cpu',
      'chart',
      'dashboard',
      'retention',
      'isolation',
      'events',
      'tracing',
      'search',
    ].includes(suite)
  )
    throw new Error(`BENCH_SUITE: unknown suite ${suite}`);
}
if (settings.tracingMethod !== 'throughput' && settings.tracingMethod !== 'instructions')
  throw new Error(`BENCH_TRACING_METHOD: unknown method ${settings.tracingMethod}`);
for (const kind of settings.databases) {
  if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`BENCH_DB: unknown database ${kind}`);
}

const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const started = Date.now();
// Other work on the machine shows in every figure: the load average is reported with them.
const loadBefore = loadavg()[0] ?? 0;
if (loadBefore > 0.5) log(`warning: load average ${loadBefore.toFixed(2)} before the run; the figures will be lower`);
const secret = randomBytes(32).toString('base64url');
const load = { connections: settings.connections, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds };

const accounts = settings.suites.includes('accounts') ? await runAccountsSuite({ ...settings, secret }, log) : [];

let instructions: InstructionFigures | undefined;
if (settings.suites.includes('instructions')) {
  instructions = await onGetByIdTarget((target) =>
    countInstructions(target.serviceEnv, target.requests, target.body, settings.instructions, log),
  );
}

let cpu: CpuFigures | undefined;
if (settings.suites.includes('cpu')) {
  cpu = await onGetByIdTarget((target) => measureCpu(target, { rounds: settings.cpuRounds, ...load }, log));
}

let webhooks: WebhookFigures | undefined;
if (settings.suites.includes('webhooks')) {
  webhooks = await runWebhookSuite(
    { ...settings.webhooks, databases: settings.databases, adminUrl: settings.adminUrl },
    log,
  );
}

let chart: ChartFigures[] | undefined;
if (settings.suites.includes('chart')) {
  chart = await runChartSuite(
    { ...settings.chart, databases: settings.databases, adminUrl: settings.adminUrl, secret },
    log,
  );
}

let dashboard: DashboardFigures[] | undefined;
if (settings.suites.includes('dashboard')) {
  dashboard = await runDashboardSuite(
    { ...settings.dashboard, databases: settings.databases, adminUrl: settings.adminUrl },
    log,
  );
}

let retention: RetentionFigures[] | undefined;
if (settings.suites.includes('retention')) {
  retention = await runRetentionLoad(
    { ...settings.retention, databases: settings.databases, adminUrl: settings.adminUrl, secret },
    log,
  );
}

let isolation: IsolationFigures[] | undefined;
if (settings.suites.includes('isolation')) {
  isolation = await runIsolationSuite(
    { ...settings.isolation, databases: settings.databases, adminUrl: settings.adminUrl },
    log,
  );
}

let search: SearchFigures[] | undefined;
if (settings.suites.includes('search')) {
  search = await runSearchSuite(
    {
      databases: settings.databases,
      adminUrl: settings.adminUrl,
      secret,
      rounds: settings.rounds,
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      large: env.BENCH_SEARCH_LARGE !== '0',
    },
    log,
  );
  console.log(`\n${formatSearchTable(search)}\n`);
}

let events: EventsFigures[] | undefined;
if (settings.suites.includes('events')) {
  events = await runEventsSuite(
    { ...settings.events, databases: settings.databases, adminUrl: settings.adminUrl, secret },
    log,
  );
}

let tracing: Awaited<ReturnType<typeof runTracingSuite>> | undefined;
if (settings.suites.includes('tracing')) {
  tracing = await runTracingSuite(
    {
      ...load,
      databases: settings.databases,
      accounts: settings.accounts,
      adminUrl: settings.adminUrl,
      secret,
      rounds: settings.rounds,
      baseline: settings.tracingBaseline,
      instructions: settings.tracingMethod === 'instructions' ? settings.instructions : undefined,
    },
    log,
  );
}

const figures: Figure[] = accounts.flatMap((database) => {
  const bare = database.bare.median;
  return [
    toFigure(
      `bare node:http, same body and requests (median of ${database.bare.rounds.length})`,
      database.db,
      bare,
      bare,
    ),
    ...database.scenarios.map((s) => toFigure(s.scenario, s.db, s.median, bare)),
  ];
});
const seconds = (Date.now() - started) / 1000;
if (accounts.length > 0) {
  console.log(`\n${formatTable(figures)}\n`);
  console.log(
    `${settings.accounts.toLocaleString('en')} accounts in one company (and a company of a twentieth as many beside it), ` +
      `${settings.connections} connections, ${settings.seconds} s per scenario; ` +
      `each read scenario's figures are the medians of ${settings.rounds} interleaved rounds, the writes ran once`,
  );
  for (const { db, getById, bare } of accounts) {
    const rounds = getById.rounds.map(
      (r) =>
        `${(100 * r.ratio).toFixed(1)} % (${Math.round(r.rps)} of ${Math.round(Math.max(r.bareBefore, r.bareAfter))})`,
    );
    console.log(
      `get-by-id on ${db} against the faster bare run around it, round by round: ${rounds.join(', ')}; ` +
        `median ${(100 * getById.medianRatio).toFixed(1)} %. Bare runs: ${bare.rounds.map((r) => Math.round(r.rps)).join(', ')} rps`,
    );
    if (getById.slices) console.log(describeSlices(db, getById.slices));
  }
  for (const database of accounts) console.log(describePageDepth(database));
}
if (instructions) {
  const { service, bare: bareCount, settings: counted } = instructions;
  console.log(
    `\ninstructions per request (callgrind, service process only, ${counted.requests} requests after ` +
      `${counted.warmup}, ${counted.connections} connections): get-by-id ${Math.round(service / 1000)}k, ` +
      `bare node:http ${Math.round(bareCount / 1000)}k, ratio ${((100 * bareCount) / service).toFixed(1)} %`,
  );
}
if (cpu) {
  console.log(
    `\nCPU per request (/proc, median of ${cpu.settings.rounds} interleaved rounds):\n` +
      `  get-by-id:      ${describe(cpu.service)}\n  bare node:http: ${describe(cpu.bare)}`,
  );
}
if (chart) console.log(`\n${formatChartTable(chart, settings.chart)}\n`);
if (dashboard) console.log(`\n${formatDashboardTable(dashboard)}\n`);
if (retention) console.log(`\n${formatRetentionTable(retention, settings.retention)}\n`);
if (isolation) console.log(`\n${formatIsolationTable(isolation)}\n`);
if (events) console.log(`\n${formatEventsTable(events, settings.events)}\n`);
if (tracing?.throughput.length) console.log(`\n${formatTracingTable(tracing.throughput)}\n`);
if (tracing?.instructions.length) console.log(`\n${formatTracingInstructions(tracing.instructions)}\n`);
if (webhooks) {
  console.log(`\n${formatWebhookTable(webhooks)}\n`);
  console.log(
    `${settings.webhooks.messages.toLocaleString('en')} messages to ${settings.webhooks.receivers} receivers; ` +
      `raw baseline ${settings.webhooks.rawConcurrency} requests in flight`,
  );
}
console.log(
  `whole run ${seconds.toFixed(0)} s; 1-minute load average ${loadBefore.toFixed(2)} before, ` +
    `${(loadavg()[0] ?? 0).toFixed(2)} after`,
);
writeJson(new URL('./results/latest.json', import.meta.url), {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverage: { before: loadBefore, after: loadavg()[0] },
  },
  node: process.version,
  settings: { ...settings, adminUrl: undefined },
  accounts,
  instructions,
  cpu,
  seconds,
  figures,
  webhooks,
  chart,
  dashboard,
  retention,
  isolation,
  events,
  tracing,
});

/**
 * Runs `work` on a freshly seeded PostgreSQL: the service's environment (the limiter stays in the
 * path, as in the accounts suite, but never refuses) and the get-by-id requests of a new user.
 */
async function onGetByIdTarget<T>(work: (target: GetByIdTarget) => Promise<T>): Promise<T> {
  const target = await prepare('postgres', { accounts: settings.accounts, adminUrl: settings.adminUrl, log });
  try {
    const token = await userToken(secret, target.companyId);
    return await work({
      serviceEnv: { ...target.env, AUTH_JWT_SECRET: secret, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: String(2 ** 31) },
      databaseUrl: target.env.DATABASE_URL ?? '',
      requests: getByIdRequests(target.sampleIds, `Bearer ${token}`),
      body: (url) => sampleBody({ url, token, sampleIds: target.sampleIds }),
    });
  } finally {
    await target.cleanup();
  }
}
