// BENCH_SUITE=tracing: get-by-id with tracing unconfigured beside tracing on at 10 % (parent-based
// trace-id ratio, exporting http/protobuf to a sink in this process), in interleaved rounds on each
// database; with BENCH_TRACING_BASELINE=<a checkout of an older commit>, that checkout's server too,
// on the same database. Throughput and the service's CPU per request (with PostgreSQL's on it), or,
// with BENCH_TRACING_METHOD=instructions, the service's instructions per request counted by callgrind
// (bench/instructions.ts), which the machine's other work does not move. docs/decisions/traces.md
// states the targets: unconfigured within 3 % of the baseline, 10 % within 15 %.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { postgresTicks, TICK_US, ticksOf } from './cpu.ts';
import { type DatabaseKind, prepare } from './databases.ts';
import { countPerRequest, type InstructionSettings } from './instructions.ts';
import { type LoadRequest, runLoad } from './load.ts';
import { median } from './median.ts';
import { startService } from './processes.ts';
import { getByIdRequests, userToken } from './scenarios.ts';

export interface TracingSettings {
  databases: DatabaseKind[];
  accounts: number;
  adminUrl: string;
  secret: string;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** A checkout of an older commit whose server runs as the baseline; none when undefined. */
  baseline: string | undefined;
  /** Count instructions per request with these settings instead of measuring throughput. */
  instructions: InstructionSettings | undefined;
}

interface Run {
  rps: number;
  /** The service process's CPU per answered request, in µs. */
  serverUs: number;
  /** Every postgres process's CPU per answered request, in µs (0 on PGlite). */
  postgresUs: number;
  failures: number;
}

export interface TracingFigures {
  db: DatabaseKind;
  variants: { name: string; rounds: Run[]; median: Run }[];
  /** Spans batches the sink received while tracing was on. */
  exports: number;
}

export interface TracingInstructionFigures {
  db: DatabaseKind;
  settings: InstructionSettings;
  /** Instructions per get-by-id of each variant, one count per round. */
  variants: { name: string; counts: number[]; median: number }[];
  /** Span batches the sink received while instructions were counted. */
  countedExports: number;
}

/** Long enough for 512 spans to finish under callgrind before the batch timer fires. */
const FULL_BATCHES_UNDER_VALGRIND_MS = 600_000;

export async function runTracingSuite(
  settings: TracingSettings,
  log: (line: string) => void,
): Promise<{ throughput: TracingFigures[]; instructions: TracingInstructionFigures[] }> {
  const sink = await startSink();
  const figures: TracingFigures[] = [];
  const instructionFigures: TracingInstructionFigures[] = [];
  try {
    for (const db of settings.databases) {
      const target = await prepare(db, { accounts: settings.accounts, adminUrl: settings.adminUrl, log });
      try {
        const token = await userToken(settings.secret, target.companyId);
        const requests = getByIdRequests(target.sampleIds, `Bearer ${token}`);
        const env = {
          ...target.env,
          AUTH_JWT_SECRET: settings.secret,
          LOG_LEVEL: 'warn',
          RATE_LIMIT_MAX: String(2 ** 31),
        };
        const variants: Variant[] = [
          ...(settings.baseline
            ? [{ name: 'baseline checkout, untraced', env, main: join(settings.baseline, 'src/main.ts') }]
            : []),
          { name: 'tracing unconfigured', env, main: undefined },
          {
            name: 'tracing on, 10 % sampled',
            env: {
              ...env,
              OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
              OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
              OTEL_TRACES_SAMPLER_ARG: '0.1',
              // Counted at valgrind's pace, the 5 s timer would send a batch every few dozen spans; at
              // full speed a batch fills to its 512 first. The timer is pushed out to count the latter.
              ...(settings.instructions ? { OTEL_BSP_SCHEDULE_DELAY: String(FULL_BATCHES_UNDER_VALGRIND_MS) } : {}),
            },
            main: undefined,
          },
        ];
        if (settings.instructions) {
          instructionFigures.push(
            await countVariants(db, variants, requests, settings.instructions, settings.rounds, sink, log),
          );
          continue;
        }
        const rounds = variants.map(() => [] as Run[]);
        for (let round = 1; round <= settings.rounds; round++) {
          for (const [i, variant] of variants.entries()) {
            const child = await startService(variant.env, { main: variant.main });
            try {
              await runLoad({
                url: child.url,
                requests,
                connections: settings.connections,
                seconds: settings.warmupSeconds,
              });
              const start = { server: ticksOf(child.pid), postgres: db === 'postgres' ? postgresTicks() : 0 };
              const result = await runLoad({
                url: child.url,
                requests,
                connections: settings.connections,
                seconds: settings.seconds,
              });
              const end = { server: ticksOf(child.pid), postgres: db === 'postgres' ? postgresTicks() : 0 };
              const perRequest = (ticks: number) => (ticks * TICK_US) / Math.max(result.responses, 1);
              rounds[i]?.push({
                rps: result.rps,
                serverUs: perRequest(end.server - start.server),
                postgresUs: perRequest(end.postgres - start.postgres),
                failures: result.failures,
              });
            } finally {
              await child.stop();
            }
            log(`tracing ${db} round ${round}: ${variant.name}: ${describeRun(rounds[i]?.at(-1))}`);
          }
        }
        figures.push({
          db,
          variants: variants.map((variant, i) => ({
            name: variant.name,
            rounds: rounds[i] ?? [],
            median: medianRun(rounds[i] ?? []),
          })),
          exports: sink.requests(),
        });
      } finally {
        await target.cleanup();
      }
    }
  } finally {
    await sink.close();
  }
  return { throughput: figures, instructions: instructionFigures };
}

interface Variant {
  name: string;
  env: Record<string, string>;
  main: string | undefined;
}

/** Each variant's instructions per request, in `rounds` interleaved rounds, and the exports counted among them. */
async function countVariants(
  db: DatabaseKind,
  variants: Variant[],
  requests: LoadRequest[],
  settings: InstructionSettings,
  rounds: number,
  sink: Sink,
  log: (line: string) => void,
): Promise<TracingInstructionFigures> {
  const counts = variants.map(() => [] as number[]);
  let countedExports = 0;
  let exportsAtStart = 0;
  const window = {
    opened: () => {
      exportsAtStart = sink.requests();
    },
    closed: () => {
      countedExports += sink.requests() - exportsAtStart;
    },
  };
  for (let round = 1; round <= rounds; round++) {
    for (const [i, variant] of variants.entries()) {
      const count = await countPerRequest(
        `${db} round ${round}: ${variant.name}`,
        (options) => startService(variant.env, { ...options, main: variant.main }),
        requests,
        settings,
        { log, window },
      );
      counts[i]?.push(count);
    }
  }
  return {
    db,
    settings,
    variants: variants.map((variant, i) => ({
      name: variant.name,
      counts: counts[i] ?? [],
      median: median(counts[i] ?? []),
    })),
    countedExports,
  };
}

export function formatTracingInstructions(figures: TracingInstructionFigures[]): string {
  return figures
    .flatMap(({ db, settings, variants, countedExports }) => {
      const reference = variants.find((v) => v.name === 'tracing unconfigured')?.median;
      return [
        `instructions per get-by-id on ${db} (callgrind, service process only, ${settings.requests} requests after ` +
          `${settings.warmup}, ${settings.connections} connections; ${countedExports} export requests reached the sink while counted):`,
        ...variants.map(({ name, counts, median: m }) => {
          const ratio = reference ? ` (${((100 * m) / reference).toFixed(1)} % of unconfigured)` : '';
          const each = counts.map((c) => `${Math.round(c / 1000)}k`).join(' / ');
          return `  ${name.padEnd(28)} ${Math.round(m / 1000)}k median of ${each}${ratio}`;
        }),
      ];
    })
    .join('\n');
}

export function formatTracingTable(figures: TracingFigures[]): string {
  return figures
    .flatMap(({ db, variants, exports }) => {
      const reference = variants.find((v) => v.name === 'tracing unconfigured')?.median;
      return [
        `get-by-id on ${db} (median of ${variants[0]?.rounds.length ?? 0} interleaved rounds; ${exports} export requests reached the sink):`,
        ...variants.map(({ name, median: m }) => {
          const ratio = reference
            ? ` (${((100 * m.rps) / reference.rps).toFixed(1)} % of unconfigured's rps, ${((100 * m.serverUs) / reference.serverUs).toFixed(1)} % of its CPU)`
            : '';
          return `  ${name.padEnd(28)} ${describeRun(m)}${ratio}`;
        }),
      ];
    })
    .join('\n');
}

function describeRun(run: Run | undefined): string {
  if (!run) return '-';
  return (
    `${Math.round(run.rps)} rps, server ${run.serverUs.toFixed(1)} µs/request` +
    (run.postgresUs > 0 ? `, postgres ${run.postgresUs.toFixed(1)} µs/request` : '') +
    (run.failures > 0 ? `, ${run.failures} FAILURES` : '')
  );
}

function medianRun(runs: Run[]): Run {
  return {
    rps: median(runs.map((r) => r.rps)),
    serverUs: median(runs.map((r) => r.serverUs)),
    postgresUs: median(runs.map((r) => r.postgresUs)),
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
  };
}

interface Sink {
  url: string;
  requests(): number;
  close(): Promise<void>;
}

/** An OTLP/HTTP sink: answers 200 to every export and counts them. */
async function startSink(): Promise<Sink> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
