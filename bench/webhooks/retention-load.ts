// BENCH_SUITE=retention: webhook retention under a sustained load (docs/decisions/webhook-delivery.md,
// "Retention"). The service (`serve --role all`) gets a steady stream of export jobs, each with its
// v1.export-job.created event, fanned out to a healthy endpoint and to one that refuses connections
// (its messages fail after a short retry schedule), while a steady stream of get-by-id reads is timed.
// Each database runs in turn with a short WEBHOOK_RETENTION, so that the sweeper deletes
// what ended many times over, and with retention off (ten years: it deletes nothing). Reported: the
// webhook tables' rows at the end (and, on PostgreSQL, the most seen while it ran) against what was
// created, and the reads' and writes' latencies, side by side.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { mintToken } from '../../src/auth/mint-token.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { type DatabaseKind, prepare } from '../databases.ts';
import { freePort, startService } from '../processes.ts';
import { startFarm } from './farm.ts';

export interface RetentionLoadSettings {
  databases: DatabaseKind[];
  adminUrl: string;
  secret: string;
  /** Timed seconds per run, after `warmupSeconds` untimed. */
  seconds: number;
  warmupSeconds: number;
  /** WEBHOOK_RETENTION of the runs with retention on. */
  retention: string;
  /** Export jobs (events) created per second; each makes two messages. */
  eventsPerSecond: number;
  /** Get-by-id reads per second, each timed. */
  readsPerSecond: number;
  /** Runs of each kind per database, alternating (off, on, off, on, …): their spread is the noise. */
  rounds: number;
}

export interface RetentionFigures {
  db: DatabaseKind;
  /** The WEBHOOK_RETENTION of the run; `off` for ten years. */
  retention: string;
  eventsCreated: number;
  /** Rows when the run ended. */
  rows: TableRows;
  /** PostgreSQL: the most rows seen by a sample every two seconds (PGlite admits one process). */
  peakRows?: TableRows;
  reads: Latency;
  writes: Latency;
}

export interface TableRows {
  events: number;
  messages: number;
  attempts: number;
}

interface Latency {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than the expected status. */
  failures: number;
}

const RETENTION_OFF = '3650d';
// Enough companies that each has its job ended before the stream comes back to it.
const COMPANIES = 50;

export async function runRetentionLoad(
  settings: RetentionLoadSettings,
  log: (line: string) => void,
): Promise<RetentionFigures[]> {
  const figures: RetentionFigures[] = [];
  for (const kind of settings.databases) {
    for (let round = 0; round < settings.rounds; round++) {
      for (const retention of [RETENTION_OFF, settings.retention]) {
        figures.push(await runOnce(kind, retention, settings, log));
      }
    }
  }
  return figures;
}

async function runOnce(
  kind: DatabaseKind,
  retention: string,
  settings: RetentionLoadSettings,
  log: (line: string) => void,
): Promise<RetentionFigures> {
  const label = retention === RETENTION_OFF ? 'off' : retention;
  const target = await prepare(kind, { accounts: 10_000, adminUrl: settings.adminUrl, log });
  const farm = await startFarm(1);
  const service = await startService(
    {
      ...target.env,
      AUTH_JWT_SECRET: settings.secret,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: String(2 ** 31),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETENTION: retention,
      WEBHOOK_RETRY_SCHEDULE: '100ms,100ms',
      WEBHOOK_DISABLE_AFTER: '0',
    },
    { role: 'all' },
  );
  const sampler = kind === 'postgres' ? startRowSampler(target.env.DATABASE_URL as string) : undefined;
  try {
    const companies = Array.from({ length: COMPANIES }, () => randomUUID());
    const writer = `Bearer ${await mintToken(settings.secret, {
      subject: randomUUID(),
      companies,
      scope: 'export-jobs:read export-jobs:write',
      ttl: '1d',
    })}`;
    const reader = `Bearer ${await mintToken(settings.secret, {
      subject: randomUUID(),
      companies: [target.companyId],
      scope: 'accounts:read',
      ttl: '1d',
    })}`;
    const call = caller(service.url);
    const refused = `http://127.0.0.1:${await freePort()}/refused`;
    for (const endpointUrl of [farm.urls[0] as string, refused]) {
      await call('POST', '/v1/subscriptions', writer, { eventTypes: ['v1.export-job.created'], endpointUrl }, 200);
    }

    // Each event: a job created (its event in the same transaction), then ended, so its company
    // may open the next one.
    let nextCompany = 0;
    const createEvent = async () => {
      const companyId = companies[nextCompany++ % COMPANIES] as string;
      const created = await call('POST', '/v2/export-jobs', writer, { companyId, accountingEntryIds: [] }, 201);
      const jobId = (JSON.parse(created) as { data: { id: string } }).data.id;
      await call('POST', '/v2/export-job-events', writer, { jobId, event: 'failed' }, 202);
    };
    const readOne = () =>
      call(
        'GET',
        `/v1-beta/accounts/${target.sampleIds[Math.floor(Math.random() * target.sampleIds.length)]}`,
        reader,
        undefined,
        200,
      );

    await paced(settings.eventsPerSecond, settings.warmupSeconds, createEvent);
    log(`${kind}, retention ${label}: warmed up; ${settings.seconds} s of load`);
    const [writes, reads] = await Promise.all([
      paced(settings.eventsPerSecond, settings.seconds, createEvent),
      paced(settings.readsPerSecond, settings.seconds, readOne),
    ]);
    const eventsCreated = Math.round(settings.eventsPerSecond * (settings.warmupSeconds + settings.seconds));
    const peakRows = await sampler?.stop();
    await service.stop();
    const rows = await countRows(target.env);
    log(
      `${kind}, retention ${label}: ${rows.messages.toLocaleString('en')} messages left of ${(2 * eventsCreated).toLocaleString('en')}`,
    );
    return { db: kind, retention: label, eventsCreated, rows, peakRows, reads, writes };
  } finally {
    await sampler?.stop();
    await service.stop();
    await farm.stop();
    await target.cleanup();
  }
}

function caller(url: string) {
  return async (method: string, path: string, authorization: string, body: unknown, expected: number) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text;
  };
}

/**
 * Starts `work` `perSecond` times a second for `seconds`, on schedule whether or not earlier calls
 * have answered (an open loop, so a slow answer cannot hide the next one's wait), and times each.
 */
async function paced(perSecond: number, seconds: number, work: () => Promise<unknown>): Promise<Latency> {
  const total = Math.round(perSecond * seconds);
  const started = performance.now();
  const calls: Promise<number | undefined>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const callStarted = performance.now();
    calls.push(
      work().then(
        () => performance.now() - callStarted,
        () => undefined,
      ),
    );
  }
  const times = await Promise.all(calls);
  const answered = times.filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b);
  const at = (p: number) => answered[Math.min(answered.length - 1, Math.ceil(p * answered.length) - 1)] ?? Number.NaN;
  return { samples: answered.length, p50Ms: at(0.5), p99Ms: at(0.99), failures: total - answered.length };
}

const COUNT_ROWS = `SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM messages)::int AS messages,
  (SELECT count(*) FROM message_attempts)::int AS attempts`;

/** PostgreSQL: the webhook tables' rows every two seconds; `stop` answers the most of each seen. */
function startRowSampler(databaseUrl: string): { stop(): Promise<TableRows> } {
  const client = new pg.Client({ connectionString: databaseUrl });
  const peak: TableRows = { events: 0, messages: 0, attempts: 0 };
  const connected = client.connect();
  const sample = async () => {
    const { rows } = await client.query<TableRows>(COUNT_ROWS);
    const row = rows[0] as TableRows;
    for (const key of ['events', 'messages', 'attempts'] as const) peak[key] = Math.max(peak[key], row[key]);
  };
  let pending = connected.then(sample);
  const timer = setInterval(() => {
    pending = pending.then(sample);
  }, 2000);
  let stopped: Promise<TableRows> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        await pending.catch(() => {});
        await client.end();
        return peak;
      })();
      return stopped;
    },
  };
}

/** The webhook tables' rows once the service has stopped (PGlite: the folder is free again). */
async function countRows(env: Record<string, string>): Promise<TableRows> {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
  try {
    const [row] = await db.query<TableRows>(COUNT_ROWS);
    return row as TableRows;
  } finally {
    await db.close();
  }
}

export function formatRetentionTable(
  figures: RetentionFigures[],
  settings: Pick<RetentionLoadSettings, 'eventsPerSecond' | 'readsPerSecond' | 'seconds' | 'warmupSeconds'>,
): string {
  const rows = (r: TableRows | undefined) =>
    r
      ? `${r.events.toLocaleString('en')} / ${r.messages.toLocaleString('en')} / ${r.attempts.toLocaleString('en')}`
      : '–';
  const latency = (l: Latency) =>
    `${l.p50Ms.toFixed(2)} / ${l.p99Ms.toFixed(2)}${l.failures ? ` (${l.failures} failed)` : ''}`;
  return [
    `Retention under load: ${settings.eventsPerSecond} events/s (2 messages each, one endpoint refusing) and ` +
      `${settings.readsPerSecond} get-by-id/s for ${settings.seconds} s after ${settings.warmupSeconds} s`,
    '| database | retention | events created | rows at end: events / messages / attempts | most rows seen | get-by-id p50 / p99 ms | create + end job p50 / p99 ms |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...figures.map(
      (f) =>
        `| ${f.db} | ${f.retention} | ${f.eventsCreated.toLocaleString('en')} | ${rows(f.rows)} | ${rows(f.peakRows)} | ` +
        `${latency(f.reads)} | ${latency(f.writes)} |`,
    ),
  ].join('\n');
}
