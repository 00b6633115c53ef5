// Redis for the tests that share rate limits or break their store: a private redis-server on a free
// port of 127.0.0.1 that keeps nothing on disk, and a TCP server that accepts and never answers.
// The machine's shared Redis is never touched. Every wait here is bounded.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before } from 'node:test';
import { REDIS_SERVER } from './components.ts';
import { within } from './deadlines.ts';

const START_GUARD_MS = 10_000;

/** A port that was free a moment ago: nothing listens on it (until someone takes it). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface PrivateRedis {
  url: string;
  /** Starts redis-server on its port again (after `kill`), empty. */
  start(): Promise<void>;
  /** SIGKILL, as a crash does; resolves once it has exited. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing answers, until `kill`. */
  freeze(): void;
}

/** A redis-server of the test's own, started now; `kill` it in an `after`. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = await spawnRedis(port);
    },
    async kill() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      process.kill(-(running.pid as number), 'SIGKILL');
      await within(START_GUARD_MS, 'redis-server exiting', exited);
    },
    freeze: () => child && process.kill(-(child.pid as number), 'SIGSTOP'),
  };
  await redis.start();
  return redis;
}

/** A private Redis started before the suite and killed after it (frozen or not); call in a describe. */
export function privateRedisForSuite(): () => PrivateRedis {
  let redis: PrivateRedis | undefined;
  before(async () => {
    redis = await startPrivateRedis();
  });
  after(() => redis?.kill());
  return () => {
    if (!redis) throw new Error('the private Redis starts before the suite');
    return redis;
  };
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
    // Not started at all (no such program): no exit follows.
    child.once('error', reject);
  });
  try {
    await within(START_GUARD_MS, 'redis-server starting', ready);
  } catch (error) {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    throw error;
  }
  return child;
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers; `close` ends them. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
