// The bench's side of the receiver farm (receiver-farm.ts): starts it, asks what arrived, stops it.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { FarmCommand, FarmReport, FarmStats } from './receiver-farm.ts';

export interface Farm {
  /** One base address per receiver. */
  urls: string[];
  stats(): Promise<FarmStats>;
  /** Forgets what arrived so far; resolves with the stats before the reset. */
  reset(): Promise<FarmStats>;
  stop(): Promise<void>;
}

export async function startFarm(receivers: number): Promise<Farm> {
  const child = fork(new URL('./receiver-farm.ts', import.meta.url), [], {
    env: { ...process.env, RECEIVERS: String(receivers) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const next = () =>
    Promise.race([
      once(child, 'message').then(([report]) => report as FarmReport),
      exited.then(() => {
        throw new Error('the receiver farm exited');
      }),
    ]);
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('the receiver farm did not start');
  // One command at a time: each answer is the next message.
  let queue = Promise.resolve<unknown>(undefined);
  const ask = (command: FarmCommand) => {
    const answer = queue.then(async () => {
      const report = next();
      child.send(command);
      const stats = await report;
      if (stats.type !== 'stats') throw new Error('the receiver farm answered out of turn');
      const { type: _type, ...rest } = stats;
      return rest;
    });
    queue = answer.catch(() => {});
    return answer;
  };
  return {
    urls: ready.urls,
    stats: () => ask({ type: 'stats' }),
    reset: () => ask({ type: 'reset' }),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
