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
import { type Child, startBareServer, startService } from './processes.ts';

export interface InstructionSettings {
  /** Requests counted, after `warmup` uncounted ones (the JIT settles in the first thousands). */
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
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('BENCH_SUITE=instructions needs valgrind (apt-get install valgrind)');
  }
  let body = '';
  const count = async (name: string, start: (wrapper: string[]) => Promise<Child>) => {
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
      const child = await start(wrapper);
      try {
        await fire(child.url, requests, settings.warmup, settings.connections);
        body ||= await sampleBody(child.url);
        const control = (...args: string[]) =>
          execFileSync('callgrind_control', [...args, String(child.pid)], {
            env: { ...process.env, ...VALGRIND_ENV },
            stdio: 'ignore',
          });
        control('--instr=on');
        await fire(child.url, requests, settings.requests, settings.connections);
        control('--instr=off');
        control('--dump');
      } finally {
        await child.stop();
      }
      const perRequest = totalOfDumps(dir) / settings.requests;
      log(`instructions: ${name}: ${Math.round(perRequest / 1000)}k per request`);
      return perRequest;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // V8 compiles and collects on helper threads, at moments that depend on timing: in one thread,
  // the count of the same code repeats within about 1 % (at one connection) instead of 15 %.
  const options = (wrapper: string[]) => ({
    wrapper,
    nodeOptions: ['--single-threaded'],
    readyTimeoutMs: 300_000,
    env: VALGRIND_ENV,
  });
  const service = await count('get-by-id', (wrapper) => startService(serviceEnv, options(wrapper)));
  const bare = await count('bare node:http', (wrapper) => startBareServer(body, options(wrapper)));
  return { service, bare, settings };
}

/** Sends exactly `amount` requests, `connections` at a time; throws if any is not 2xx. */
function fire(url: string, requests: LoadRequest[], amount: number, connections: number): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, amount, requests, timeout: 60 }, (error, result) => {
      if (error) return reject(error);
      if (result['2xx'] !== amount) return reject(new Error(`${amount - result['2xx']} of ${amount} requests failed`));
      resolve();
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
