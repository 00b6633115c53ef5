// Instructions per request, counted by valgrind's callgrind in the serving process: get-by-id in the
// service, and the bare server answering the same requests. Unlike requests per second, the count
// stays within a few per cent from run to run whatever else the machine is doing, so it can tell
// apart two versions of the code that differ by 5 %. Only user-space instructions of that one
// process count: not the kernel, not PostgreSQL, not the load generator (docs/performance.md).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { LoadRequest } from './load.ts';
import { type Child, type ChildOptions, startBareServer, startService } from './processes.ts';

export interface InstructionSettings {
  /**
   * Requests counted, after `warmup` uncounted ones: V8 still optimizes parts of the service's path
   * after 6,000 requests (a fifth of the count was its compiler then), far less after 40,000.
   */
  requests: number;
  warmup: number;
  connections: number;
}

export interface InstructionFigures {
  /** Instructions per get-by-id request in the service process. */
  service: number;
  /** Instructions per request in the bare server, driven with the same requests. */
  bare: number;
  settings: InstructionSettings;
}

/** BENCH_INSTRUCTION_KEEP=1: callgrind's output is left for callgrind_annotate; `map`: with a perf map. */
const KEEP = process.env.BENCH_INSTRUCTION_KEEP ?? '';

// valgrind names the pipe callgrind_control talks through after USER and HOST, and the service's
// environment sets HOST to its listen address: both sides must see the same two values.
const VALGRIND_ENV = { USER: userInfo().username, LOGNAME: userInfo().username, HOST: '127.0.0.1' };

/**
 * Counts the service's get-by-id on `serviceEnv`'s database, then the bare server answering the body
 * `sampleBody` reads from the service.
 */
export async function countInstructions(
  serviceEnv: Record<string, string>,
  requests: LoadRequest[],
  sampleBody: (url: string) => Promise<string>,
  settings: InstructionSettings,
  log: (line: string) => void,
): Promise<InstructionFigures> {
  let body = '';
  const service = await countPerRequest(
    'get-by-id',
    (options) => startService(serviceEnv, options),
    requests,
    settings,
    {
      log,
      beforeStop: async (url) => {
        body = await sampleBody(url);
      },
    },
  );
  const bare = await countPerRequest(
    'bare node:http',
    (options) => startBareServer(body, options),
    requests,
    settings,
    {
      log,
    },
  );
  return { service, bare, settings };
}

export interface CountHooks {
  log: (line: string) => void;
  /** Runs when counting starts and when it stops: e.g. to see what else happened in between. */
  window?: { opened(): void; closed(): void };
  /** Runs on the counted process once its requests are answered. */
  beforeStop?: (url: string) => Promise<void>;
}

/**
 * Instructions per request of the process `start` starts (under the wrapper and options it is
 * given), driven with `requests`.
 */
export async function countPerRequest(
  name: string,
  start: (options: ChildOptions) => Promise<Child>,
  requests: LoadRequest[],
  settings: InstructionSettings,
  hooks: CountHooks,
): Promise<number> {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('counting instructions needs valgrind (apt-get install valgrind)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'ledgerhook-callgrind-'));
  try {
    // Instrumentation is off until the warm-up is over: start-up runs at near native speed.
    const wrapper = [
      'valgrind',
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(dir, 'callgrind.%p')}`,
      `--log-file=${join(dir, 'valgrind.log')}`,
    ];
    // V8 compiles and collects on helper threads, at moments that depend on timing: in one thread,
    // the count of the same code repeats within about 1 % (at one connection) instead of 15 %. The
    // collector's share still moves between runs of 20,000 requests (by up to a quarter of the
    // total): read it apart with BENCH_INSTRUCTION_KEEP. BENCH_INSTRUCTION_KEEP=map writes
    // /tmp/perf-<pid>.map, which names the JIT-compiled functions callgrind knows only by address;
    // writing it costs the collector more, so such a count is for reading, not comparing.
    const child = await start({
      wrapper,
      nodeOptions: ['--single-threaded', ...(KEEP === 'map' ? ['--perf-basic-prof'] : [])],
      readyTimeoutMs: 300_000,
      env: VALGRIND_ENV,
    });
    try {
      const control = (...args: string[]) =>
        execFileSync('callgrind_control', [...args, String(child.pid)], {
          env: { ...process.env, ...VALGRIND_ENV },
          stdio: 'ignore',
        });
      // One run of the load generator, counted from its warmup-th answer on: a new run would open
      // new connections, and the service's first requests on them (and the closing of the old
      // ones) make V8 recompile parts of node:http inside the counted window.
      await fire(child.url, requests, settings.warmup + settings.requests, settings.connections, {
        at: settings.warmup,
        run: () => {
          control('--instr=on');
          hooks.window?.opened();
        },
      });
      control('--instr=off');
      hooks.window?.closed();
      control('--dump');
      await hooks.beforeStop?.(child.url);
    } finally {
      await child.stop();
    }
    const perRequest = totalOfDumps(dir) / settings.requests;
    hooks.log(`instructions: ${name}: ${Math.round(perRequest / 1000)}k per request`);
    return perRequest;
  } finally {
    if (KEEP) hooks.log(`instructions: ${name}: callgrind output kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends exactly `amount` requests, `connections` at a time, running `then.run` at the `then.at`-th answer; throws if any is not 2xx. */
function fire(
  url: string,
  requests: LoadRequest[],
  amount: number,
  connections: number,
  then: { at: number; run: () => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, amount, requests, timeout: 60 }, (error, result) => {
      if (error) return reject(error);
      if (result['2xx'] !== amount) return reject(new Error(`${amount - result['2xx']} of ${amount} requests failed`));
      resolve();
    });
    let answered = 0;
    instance.on('response', () => {
      if (++answered === then.at) then.run();
    });
  });
}

/** The instructions of the dumps callgrind_control asked for (`callgrind.<pid>.<n>`). */
function totalOfDumps(dir: string): number {
  let total = 0;
  for (const file of readdirSync(dir).filter((name) => /^callgrind\.\d+\.\d+$/.test(name))) {
    const totals = /^totals: (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
    total += Number(totals?.[1] ?? 0);
  }
  if (total === 0) throw new Error(`callgrind counted nothing in ${dir}`);
  return total;
}
