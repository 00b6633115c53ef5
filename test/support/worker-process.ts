// `ledgerhook serve --role worker` in a child process, for the tests and the bench that kill it,
// restart it or run several of it on one database.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

export interface WorkerProcess {
  child: ChildProcess;
  /** SIGKILL: the process gets no chance to record anything more. Resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  /** The last 8 KiB the process wrote to stderr, for failure messages. */
  stderr(): string;
  /** Its JSON log lines so far (at most the last 100,000), as LOG_LEVEL lets them through. */
  logs: Record<string, unknown>[];
  /** Resolves at the first log line whose `msg` is `message`; rejects on exit or after `timeoutMs`. */
  waitForLog(message: string, timeoutMs?: number): Promise<void>;
}

/** The settings a delivery test runs with: short retries and time-outs, loopback receivers allowed. */
export const WORKER_TEST_ENV: Record<string, string> = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms,50ms,50ms,50ms,50ms',
  WEBHOOK_TIMEOUT_MS: '2000',
  // A killed worker's messages are sent again 5 s after their claim instead of 32 s.
  WEBHOOK_LEASE_MARGIN_MS: '3000',
  AUTH_JWT_SECRET: 'worker-test-secret-of-at-least-32-bytes',
  LOG_LEVEL: 'warn',
};

/** Starts a worker on `env` (DATABASE_URL or DATA_DIR, and the webhook settings). */
export function startWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [MAIN, 'serve', '--role', 'worker'], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const waiters = new Set<{ message: string; resolve: () => void }>();
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    if (logs.push(entry) > 100_000) logs.shift();
    for (const waiter of waiters) if (entry.msg === waiter.message) waiter.resolve();
  });
  let errors = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    errors = (errors + text).slice(-8192);
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 15_000) {
      if (running()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    stderr: () => errors,
    logs,
    async waitForLog(message, timeoutMs = 30_000) {
      if (logs.some((entry) => entry.msg === message)) return;
      let waiter: { message: string; resolve: () => void } | undefined;
      let timer: NodeJS.Timeout | undefined;
      const exitedFirst = exited.then((code) => {
        throw new Error(`the worker exited (${code}) before logging "${message}":\n${errors}`);
      });
      exitedFirst.catch(() => {});
      try {
        await Promise.race([
          new Promise<void>((resolve) => {
            waiter = { message, resolve };
            waiters.add(waiter);
          }),
          exitedFirst,
          new Promise<void>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no "${message}" log within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } finally {
        clearTimeout(timer);
        if (waiter) waiters.delete(waiter);
      }
    },
  };
}
