// The chart suite: an ERP's first sync of a whole chart of accounts into an empty company, through
// POST /v1/chart-of-accounts/batch in batches of 1,000 against one POST /v1/chart-of-accounts per
// account, both from `clients` clients in parallel, on each database; then the latency of one batch
// of 1,000 at a time (docs/decisions/chart-of-accounts-v1.md). The batched sync lasts about two
// seconds, so it runs `batchRounds` times, each into an empty company, and counts by its median.
// With `listeners`, each company has that many subscriptions to v1.account.created before its sync,
// so each account created also records its event and their messages (docs/decisions/events.md). The
// service runs as `--role api`: a batch's messages, which the workers make after its commit, are
// made by the suite once the service has stopped, one fan-out at a time, and timed.
import { randomUUID } from 'node:crypto';
import { mintToken } from '../src/auth/mint-token.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { fanOutNext } from '../src/webhooks/fan-out.ts';
import { type DatabaseKind, prepare } from './databases.ts';
import { median } from './median.ts';
import { startService } from './processes.ts';

export interface ChartSuiteSettings {
  databases: DatabaseKind[];
  adminUrl: string;
  /** The service's AUTH_JWT_SECRET, with which the bench mints its tokens. */
  secret: string;
  /** Accounts in the chart synced. */
  chartAccounts: number;
  batchSize: number;
  /** Clients sending in parallel, in both ways of syncing. */
  clients: number;
  /** Batches timed one at a time, each into a fresh company, for the latency figures. */
  latencyBatches: number;
  /** Times the chart is synced in batches, each into an empty company; the median counts. */
  batchRounds: number;
  /** Subscriptions to v1.account.created in each company synced (the service makes their messages). */
  listeners: number;
}

export interface ChartFigures {
  db: DatabaseKind;
  singleSeconds: number;
  /** The median of the batched syncs. */
  batchSeconds: number;
  /** Each batched sync, in the order run. */
  batchRounds: number[];
  /** How many times faster the batches synced the chart. */
  speedup: number;
  /** One batch of `batchSize` at a time, milliseconds. */
  batchLatency: { p50: number; p99: number; max: number; samples: number };
  /** The fan-outs the batches left for the workers, run one at a time after the service stopped. */
  fanOuts: { count: number; messages: number; seconds: number };
}

export async function runChartSuite(
  settings: ChartSuiteSettings,
  log: (line: string) => void,
): Promise<ChartFigures[]> {
  const figures: ChartFigures[] = [];
  for (const kind of settings.databases) {
    const target = await prepare(kind, { accounts: 1000, adminUrl: settings.adminUrl, log });
    const service = await startService({
      ...target.env,
      AUTH_JWT_SECRET: settings.secret,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: String(2 ** 31),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    try {
      const chart = (prefix: string) =>
        Array.from({ length: settings.chartAccounts }, (_, i) => ({
          externalId: `${prefix}-${i}`,
          name: `Account ${i}`,
          code: String(100_000 + i),
          archived: false,
          taxCodeExternalId: 'VAT25',
          metadata: { erp: { ref: `R-${i}` } },
        }));
      const send = sender(service.url, settings.secret);
      const emptyCompany = async () => {
        const company = randomUUID();
        for (let i = 0; i < settings.listeners; i++) {
          await send('/v1/subscriptions', company, {
            eventTypes: ['v1.account.created'],
            endpointUrl: `http://127.0.0.1:9/listener-${i}`,
          });
        }
        return company;
      };

      const singleCompany = await emptyCompany();
      const singles = chart('single');
      const singleSeconds = await timed(() =>
        inParallel(singles, settings.clients, (item) =>
          send('/v1/chart-of-accounts', singleCompany, { ...item, companyId: singleCompany }),
        ),
      );
      log(`${kind}: ${singles.length} single creates in ${singleSeconds.toFixed(1)} s`);

      const batchRounds: number[] = [];
      for (let round = 0; round < settings.batchRounds; round++) {
        const batchCompany = await emptyCompany();
        const batches = chunks(chart(`batch-${round}`), settings.batchSize);
        const seconds = await timed(() =>
          inParallel(batches, settings.clients, (items) =>
            send('/v1/chart-of-accounts/batch', batchCompany, { companyId: batchCompany, items }),
          ),
        );
        log(`${kind}: ${batches.length} batches in ${seconds.toFixed(1)} s`);
        batchRounds.push(seconds);
      }
      const batchSeconds = median(batchRounds);

      const latencies: number[] = [];
      for (let i = 0; i < settings.latencyBatches; i++) {
        const company = await emptyCompany();
        const items = chart(`latency-${i}`).slice(0, settings.batchSize);
        latencies.push(
          1000 * (await timed(() => send('/v1/chart-of-accounts/batch', company, { companyId: company, items }))),
        );
      }
      await service.stop();
      const fanOuts = await runFanOuts(target.env);
      log(`${kind}: ${fanOuts.count} fan-outs made ${fanOuts.messages} messages in ${fanOuts.seconds.toFixed(1)} s`);
      latencies.sort((a, b) => a - b);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0;
      figures.push({
        db: kind,
        singleSeconds,
        batchSeconds,
        batchRounds,
        speedup: singleSeconds / batchSeconds,
        batchLatency: { p50: at(0.5), p99: at(0.99), max: at(1), samples: latencies.length },
        fanOuts,
      });
    } finally {
      await service.stop();
      await target.cleanup();
    }
  }
  return figures;
}

/** Runs every waiting fan-out, as the workers would, one at a time; how many, their messages and how long. */
async function runFanOuts(env: Record<string, string>): Promise<ChartFigures['fanOuts']> {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
  try {
    let count = 0;
    let messages = 0;
    const seconds = await timed(async () => {
      for (let done = await fanOutNext(db); done; done = await fanOutNext(db)) {
        count++;
        messages += done.messages;
      }
    });
    return { count, messages, seconds };
  } finally {
    await db.close();
  }
}

export function formatChartTable(
  figures: ChartFigures[],
  settings: Pick<
    ChartSuiteSettings,
    'chartAccounts' | 'clients' | 'batchSize' | 'latencyBatches' | 'batchRounds' | 'listeners'
  >,
): string {
  const lines = figures.map(
    (f) =>
      `| ${f.db} | ${f.singleSeconds.toFixed(1)} s | ${f.batchSeconds.toFixed(2)} s (${f.batchRounds.map((b) => b.toFixed(2)).join(' / ')}) | ${f.speedup.toFixed(1)}× | ` +
      `${f.batchLatency.p50.toFixed(0)} / ${f.batchLatency.p99.toFixed(0)} / ${f.batchLatency.max.toFixed(0)} ms | ` +
      (f.fanOuts.count > 0
        ? `${f.fanOuts.count}: ${((1000 * f.fanOuts.seconds) / f.fanOuts.count).toFixed(0)} ms each, ${f.fanOuts.messages.toLocaleString('en')} messages |`
        : '- |'),
  );
  return [
    `Sync of a ${settings.chartAccounts.toLocaleString('en')}-account chart, ${settings.clients} clients, in batches ${settings.batchRounds} times; ` +
      `then ${settings.latencyBatches} batches of ${settings.batchSize} one at a time` +
      (settings.listeners > 0 ? `; ${settings.listeners} subscriptions to v1.account.created in each company` : ''),
    '| database | single creates | batches: median (each sync) | batch speed-up | one batch p50 / p99 / max | fan-outs left to the workers |',
    '|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

/** POSTs `body` with a token of `company`; throws unless 200 or 201. */
function sender(url: string, secret: string) {
  const tokens = new Map<string, Promise<string>>();
  return async (path: string, company: string, body: unknown): Promise<void> => {
    let token = tokens.get(company);
    if (!token) {
      token = mintToken(secret, {
        subject: randomUUID(),
        companies: [company],
        scope: 'accounts:write contra-accounts:read',
        ttl: '1d',
      });
      tokens.set(company, token);
    }
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await token}`, 'content-type': 'application/json;charset=UTF-8' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200 && response.status !== 201) throw new Error(`${path}: ${response.status} ${text}`);
    if (path.endsWith('/batch') && JSON.parse(text).data.failed.length > 0)
      throw new Error(`${path}: failed items ${text}`);
  };
}

/** Runs `work` on every item, at most `clients` at once. */
async function inParallel<T>(items: T[], clients: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const client = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(clients, items.length) }, client));
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
