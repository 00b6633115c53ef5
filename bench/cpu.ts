// CPU time per get-by-id request, by process: the service, PostgreSQL's processes and the load
// generator, beside the bare server and its load generator. Requests per second on two shared cores
// move ±8 % with the machine; CPU per request moves less and says which process spends it, which is
// where a change to the service shows (docs/decisions/performance-findings.md, "Where get-by-id's time goes").
// Read from /proc (Linux): user + system ticks of each process over the timed load.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { type LoadRequest, type LoadResult, runLoad } from './load.ts';
import { median } from './median.ts';
import { type Child, startBareServer, startService } from './processes.ts';

export interface CpuSettings {
  /** Interleaved rounds of service and bare server; the figures are the medians. */
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

export interface CpuFigure {
  rps: number;
  /** Microseconds of CPU per answered request. */
  serverUs: number;
  postgresUs: number;
  loadUs: number;
  /**
   * PostgreSQL statements per request (pg_stat_database's commits + rollbacks): approximate, as each
   * backend reports its counts when idle, at most once a second.
   */
  statements: number;
}

export interface CpuFigures {
  service: CpuFigure;
  bare: CpuFigure;
  settings: CpuSettings;
}

/** The service on a seeded PostgreSQL, and the get-by-id requests both it and the bare server get. */
export interface GetByIdTarget {
  serviceEnv: Record<string, string>;
  /** The database the service uses, where its statements are counted. */
  databaseUrl: string;
  requests: LoadRequest[];
  /** The body the bare server answers. */
  body: (url: string) => Promise<string>;
}

/** Microseconds per /proc clock tick: USER_HZ is 100 on Linux. */
export const TICK_US = 1e6 / 100;

export async function measureCpu(
  target: GetByIdTarget,
  settings: CpuSettings,
  log: (line: string) => void,
): Promise<CpuFigures> {
  const service: CpuFigure[] = [];
  const bare: CpuFigure[] = [];
  let body = '';
  for (let round = 1; round <= settings.rounds; round++) {
    const child = await startService(target.serviceEnv);
    try {
      body ||= await target.body(child.url);
      service.push(await measureChild(child, target, settings));
    } finally {
      await child.stop();
    }
    const bareChild = await startBareServer(body);
    try {
      bare.push(await measureChild(bareChild, target, settings));
    } finally {
      await bareChild.stop();
    }
    log(`cpu round ${round}: service ${describe(service.at(-1))}; bare ${describe(bare.at(-1))}`);
  }
  return { service: medianOf(service), bare: medianOf(bare), settings };
}

async function measureChild(child: Child, target: GetByIdTarget, settings: CpuSettings): Promise<CpuFigure> {
  const load = { url: child.url, requests: target.requests, connections: settings.connections };
  await runLoad({ ...load, seconds: settings.warmupSeconds });
  const before = await sample(child.pid, target.databaseUrl);
  const result: LoadResult = await runLoad({ ...load, seconds: settings.seconds });
  const after = await sample(child.pid, target.databaseUrl);
  const perRequest = (ticks: number) => (ticks * TICK_US) / result.responses;
  return {
    rps: result.rps,
    serverUs: perRequest(after.server - before.server),
    postgresUs: perRequest(after.postgres - before.postgres),
    // The load generator runs in this process: its CPU is read the same way, from /proc/self.
    loadUs: perRequest(after.self - before.self),
    // Less the one transaction the sample itself made.
    statements: (after.transactions - before.transactions - 1) / result.responses,
  };
}

interface Sample {
  server: number;
  postgres: number;
  self: number;
  transactions: number;
}

async function sample(pid: number, databaseUrl: string): Promise<Sample> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return {
      server: ticksOf(pid),
      postgres: postgresTicks(),
      self: ticksOf(process.pid),
      transactions: Number(rows[0]?.n ?? 0),
    };
  } finally {
    await client.end();
  }
}

/** utime + stime of a process, in clock ticks. */
export function ticksOf(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0; // the process ended between listing and reading
  }
}

/** Ticks of every process named postgres (the server and all its backends and workers). */
export function postgresTicks(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += ticksOf(pid);
    } catch {
      // gone already
    }
  }
  return total;
}

function medianOf(figures: CpuFigure[]): CpuFigure {
  const mid = (pick: (f: CpuFigure) => number) => median(figures.map(pick));
  return {
    rps: mid((f) => f.rps),
    serverUs: mid((f) => f.serverUs),
    postgresUs: mid((f) => f.postgresUs),
    loadUs: mid((f) => f.loadUs),
    statements: mid((f) => f.statements),
  };
}

export function describe(figure: CpuFigure | undefined): string {
  if (!figure) return '-';
  return (
    `${Math.round(figure.rps)} rps, server ${figure.serverUs.toFixed(1)} µs, postgres ${figure.postgresUs.toFixed(1)} µs, ` +
    `load ${figure.loadUs.toFixed(1)} µs, ${figure.statements.toFixed(2)} statements per request`
  );
}
