// `ledgerhook` as child processes, for the tests that need the CLI or several servers.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { untilEnding } from '../support/process-state.ts';

export const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const execFileAsync = promisify(execFile);

export interface Served {
  url: string;
  /** The process started: the server, or `npm` with the server as its child. */
  child: ChildProcess;
  /** The server's own pid, from its log lines. */
  pid: number;
  /** Everything it wrote to stdout and stderr so far (its JSON log lines). */
  output(): string;
  /** SIGTERM; resolves once the server has stopped; rejects if it had to be killed after STOP_GRACE_MS. */
  stop(): Promise<void>;
  /** SIGKILL to the server (under npm, to its process group); resolves once the kernel is ending it. */
  kill(): Promise<void>;
}

export interface ServeOptions {
  /**
   * Started as a user does: `npm start` in the repository (`serve`, every role), in a process group
   * of its own. The server is npm's child, so once killed it stays a zombie where PID 1 does not
   * reap orphans. Default: `ledgerhook serve --role api`, a child of this process.
   */
  npmStart?: boolean;
  /** The role of `ledgerhook serve` started directly (not through npm). Default: api. */
  role?: 'api' | 'all';
}

const LISTEN_TIMEOUT_MS = 60_000;
// Past the server's own 10 s for requests in flight: a process still running then is killed.
const STOP_GRACE_MS = 30_000;
// Far above what a CLI command takes on a loaded machine; one still running then is killed.
const CLI_TIMEOUT_MS = 120_000;
const REPOSITORY = new URL('../..', import.meta.url).pathname;

/** Starts `ledgerhook serve` and resolves once it logs its address. */
export async function startServe(
  env: Record<string, string>,
  { npmStart = false, role = 'api' }: ServeOptions = {},
): Promise<Served> {
  const settings = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env };
  const child = npmStart
    ? spawn('npm', ['start', '--silent'], {
        cwd: REPOSITORY,
        // npm and the script it runs find this Node first.
        env: { ...settings, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(process.execPath, [MAIN, 'serve', '--role', role], { env: settings, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const exited = once(child, 'exit');
  const signal = (name: NodeJS.Signals) =>
    process.kill(npmStart ? -(child.pid as number) : (child.pid as number), name);
  let timer: NodeJS.Timeout | undefined;
  const { url, pid } = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    lines.on('line', (line) => {
      output += `${line}\n`;
      const match = /Server listening at (http:\/\/127\.0\.0\.\d+:\d+)/.exec(line);
      if (match?.[1]) resolve({ url: match[1], pid: JSON.parse(line).pid });
    });
    child.once('exit', (code) => reject(new Error(`the server exited with code ${code} before listening:\n${output}`)));
    // Its address is in a line at level info: a LOG_LEVEL above it would leave this waiting for ever.
    timer = setTimeout(() => {
      signal('SIGKILL');
      reject(new Error(`the server did not log its address within ${LISTEN_TIMEOUT_MS} ms:\n${output}`));
    }, LISTEN_TIMEOUT_MS);
  }).finally(() => clearTimeout(timer));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    child,
    pid,
    output: () => output,
    async stop() {
      if (running()) signal('SIGTERM');
      let killed = false;
      const timer = setTimeout(() => {
        killed = running();
        if (killed) signal('SIGKILL');
      }, STOP_GRACE_MS);
      await exited.finally(() => clearTimeout(timer));
      await untilEnding(pid, 30_000);
      if (killed) throw new Error(`the server was still running ${STOP_GRACE_MS} ms after SIGTERM: killed`);
    },
    async kill() {
      if (running()) signal('SIGKILL');
      await untilEnding(pid);
    },
  };
}

/** Runs `ledgerhook <args>` to completion; rejects with its stderr on a non-zero exit. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, ...env },
    timeout: CLI_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
}

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `ledgerhook <args>` to completion (as user `uid` if given), killed after `timeoutMs`; resolves
 * with its exit code and output, whatever the code.
 */
export function cliOutcome(
  args: string[],
  env: Record<string, string>,
  { timeoutMs = 60_000, uid }: { timeoutMs?: number; uid?: number } = {},
): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      {
        env: { ...process.env, ...env },
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        ...(uid !== undefined && { uid, gid: uid }),
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          return reject(new Error(`ledgerhook ${args.join(' ')}: ${error.message}`));
        }
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}
