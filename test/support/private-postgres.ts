// A PostgreSQL cluster of a test's own, for the tests that stop, restart or cut off the database:
// the machine's shared server is used by other tests at the same time and is never touched. The
// cluster lives in a fresh temporary folder, listens on 127.0.0.1 at a free port and on a socket in
// that folder only, and is owned by the `postgres` user when the tests run as root (initdb refuses
// root). `destroy` stops it and removes the folder; call it in an `after` hook so that a failing
// test does not leave a server behind. Its programs are PostgreSQL's in POSTGRES_BIN (a suite that
// uses it takes `await needs('postgresql')` as its skip).
import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { POSTGRES_BIN } from './components.ts';

const execFileAsync = promisify(execFile);
// Far above what initdb or a start, stop or statement takes on a loaded machine (pg_ctl -w gives
// up after its own 60 s): a program still running then is killed, so that the test fails.
const PROGRAM_TIMEOUT_MS = 90_000;
const run = (program: string, args: string[]) =>
  execFileAsync(program, args, { timeout: PROGRAM_TIMEOUT_MS, killSignal: 'SIGKILL' });

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /** Runs `psql -c sql` on `database` and answers its output, unaligned and without headers. */
  psql(sql: string, database?: string): Promise<string>;
  /** `pg_ctl restart` (a fast shutdown: every session is ended with 57P01, then the server starts again). */
  restart(): Promise<void>;
  /** `pg_ctl stop` (fast): the server is gone until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (if running) and removes its folder. */
  destroy(): Promise<void>;
}

/** initdb and start a new cluster; resolves once it accepts connections. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'ledgerhook-pg-'));
  const dataDir = join(folder, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const [uid, gid] = await Promise.all([idOf('-u'), idOf('-g')]);
    chownSync(folder, uid, gid);
  }
  // As the postgres user when we are root; the server's own output goes to a log in its folder.
  const pgTool = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(POSTGRES_BIN, tool), ...args])
      : run(join(POSTGRES_BIN, tool), args);
  const serverOptions = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c max_connections=60`;
  const pgCtl = (action: string) =>
    pgTool('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      join(folder, 'server.log'),
      '-o',
      serverOptions,
      '-m',
      'fast',
      '-w',
      action,
    ]);

  let running = false;
  const cluster: PrivatePostgres = {
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async psql(sql, database = 'postgres') {
      const { stdout } = await run(join(POSTGRES_BIN, 'psql'), [
        '-X',
        '-A',
        '-t',
        '-v',
        'ON_ERROR_STOP=1',
        cluster.url(database),
        '-c',
        sql,
      ]);
      return stdout.trim();
    },
    async restart() {
      await pgCtl('restart');
      running = true;
    },
    async stop() {
      await pgCtl('stop');
      running = false;
    },
    async start() {
      await pgCtl('start');
      running = true;
    },
    async destroy() {
      if (running) await cluster.stop().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await pgTool('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

async function idOf(flag: '-u' | '-g'): Promise<number> {
  const { stdout } = await run('id', [flag, 'postgres']);
  return Number(stdout.trim());
}

/** A port nothing listens on now (the kernel's choice); the cluster takes it right after. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}
