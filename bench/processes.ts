// Child processes the bench measures: the service and the bare server, each on its own event loop
// and never sharing one with the load generator.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  /** Base address, e.g. http://127.0.0.1:40123. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface ChildOptions {
  /** A command the process runs under, e.g. valgrind and its options. */
  wrapper?: string[];
  /** Options of node itself, e.g. V8's. */
  nodeOptions?: string[];
  /** How long it may take to answer its probe. */
  readyTimeoutMs?: number;
  /** More environment, e.g. what the wrapper reads. */
  env?: Record<string, string>;
}

export interface ServiceOptions extends ChildOptions {
  /** `api` (the default) or `all`, which runs the delivery worker in the same process. */
  role?: 'api' | 'all';
  /** The src/main.ts to run: another checkout's, for a baseline. Default: this one's. */
  main?: string;
}

const ROOT = new URL('../', import.meta.url);

/** `ledgerhook serve --role api` (or `options.role`) with `env`, once /health/ready answers 200. */
export function startService(env: Record<string, string>, options: ServiceOptions = {}): Promise<Child> {
  const { role = 'api', main = 'src/main.ts', ...childOptions } = options;
  return startChild(main, ['serve', '--role', role], env, '/health/ready', childOptions);
}

/** The bare node:http server answering `body` to every request. */
export function startBareServer(body: string, options?: ChildOptions): Promise<Child> {
  return startChild('bench/bare-server.ts', [], { BODY: body }, '/', options);
}

async function startChild(
  script: string,
  args: string[],
  env: Record<string, string>,
  probe: string,
  { wrapper = [], nodeOptions = [], readyTimeoutMs, env: extraEnv }: ChildOptions = {},
): Promise<Child> {
  const port = await freePort();
  const [command = process.execPath, ...wrapperArgs] = [...wrapper, process.execPath];
  const child = spawn(command, [...wrapperArgs, ...nodeOptions, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...extraEnv, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopChild(child);
  try {
    await waitUntilReady(child, `${url}${probe}`, readyTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid ?? 0, stop };
}

async function waitUntilReady(child: ChildProcess, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${url} was not ready within ${timeoutMs / 1000} s`);
}

/** SIGTERM, then SIGKILL if the process has not exited within 15 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** A port no one listens on at the moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
