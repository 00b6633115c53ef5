// A backlog drains without starving anyone: one endpoint comes back after an outage with a backlog of
// BENCH_WEBHOOK_BACKLOG messages while a second, healthy endpoint keeps getting new events. Measured:
// the backlog's drain rate, and the healthy endpoint's commit-to-arrival latency during the drain,
// beside the same latency once the backlog is gone (the worker idle), in the same run.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { startDeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import { recordEvent } from '../../src/webhooks/record-event.ts';
import {
  createWorkerDatabase,
  EVENT_TYPE,
  exportJobData,
  insertSubscription,
  recordEvents,
} from '../../test/support/delivery-fixtures.ts';
import { type Receiver, startReceiver } from '../../test/support/receiver.ts';
import { startWorker } from '../../test/support/worker-process.ts';
import { WORKER_ENV } from './delivery.ts';
import { startFarm } from './farm.ts';

export interface Latency {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface BacklogResult {
  kind: 'postgres' | 'pglite';
  backlog: number;
  /** Backlog messages delivered per second, first to last arrival. */
  drainRate: number;
  /** The healthy endpoint while the backlog drained, and afterwards with the worker idle. */
  duringDrain: Latency;
  idle: Latency;
}

export async function benchBacklogDrain(options: {
  kind: 'postgres' | 'pglite';
  adminUrl: string;
  backlog: number;
  idleSamples: number;
  log: (line: string) => void;
}): Promise<BacklogResult> {
  const { kind, log } = options;
  const target = await createWorkerDatabase(kind === 'postgres' ? options.adminUrl : undefined, 'ledgerhook_bench_bl');
  const db = await target.open();
  const farm = await startFarm(1);
  const healthy = await startReceiver();
  let stopWorker: (() => Promise<unknown>) | undefined;
  try {
    const backlogCompany = randomUUID();
    const healthyCompany = randomUUID();
    await insertSubscription(db, { endpointUrl: farm.urls[0] as string, companyId: backlogCompany });
    await insertSubscription(db, { endpointUrl: healthy.url, companyId: healthyCompany });
    const recordStarted = performance.now();
    await recordEvents(db, backlogCompany, options.backlog, 100);
    log(
      `${kind}: backlog of ${options.backlog.toLocaleString('en')} recorded in ${((performance.now() - recordStarted) / 1000).toFixed(1)} s`,
    );

    // PostgreSQL: the worker is a child process, as deployed. PGlite: it runs on this process's
    // handle, as `serve --role all` runs it (one process owns the folder).
    if (kind === 'postgres') {
      const child = startWorker({ ...WORKER_ENV, ...target.env });
      stopWorker = () => child.stop();
    } else {
      const config = { ...loadConfig({}), webhookAllowPrivateTargets: true };
      const worker = await startDeliveryWorker({ db, config, logger: pino({ level: 'warn' }) });
      stopWorker = () => worker.stop();
    }

    // While the backlog drains, a healthy endpoint's events, one at a time, each timed to arrival.
    const during: number[] = [];
    const deadline = Date.now() + 600_000;
    while ((await farm.stats()).distinctIds < options.backlog) {
      if (Date.now() > deadline) throw new Error(`${kind}: the backlog did not drain within 10 min`);
      during.push(await timeOneEvent(db, healthy, healthyCompany));
    }
    const stats = await farm.stats();
    const drainRate = options.backlog / ((stats.lastAt - stats.firstAt) / 1000);
    log(`${kind}: backlog drained at ${Math.round(drainRate)} per second, ${during.length} healthy events meanwhile`);

    const idle: number[] = [];
    for (let i = 0; i < options.idleSamples; i++) idle.push(await timeOneEvent(db, healthy, healthyCompany));
    return { kind, backlog: options.backlog, drainRate, duringDrain: percentiles(during), idle: percentiles(idle) };
  } finally {
    await stopWorker?.();
    await healthy.close();
    await farm.stop();
    await db.close();
    await target.drop();
  }
}

/**
 * Commits one event of the healthy endpoint's company after a random pause of `pauseMs` to five times
 * that; ms to its arrival.
 */
export async function timeOneEvent(db: Database, receiver: Receiver, companyId: string, pauseMs = 5): Promise<number> {
  await sleep(pauseMs + Math.floor(Math.random() * 4 * pauseMs));
  const arrived = receiver.requests.length;
  await db.transaction((tx) => recordEvent(tx, { eventType: EVENT_TYPE, companyId, data: exportJobData(companyId) }));
  const committedAt = performance.timeOrigin + performance.now();
  await receiver.waitFor(arrived + 1, 30_000);
  return (receiver.requests[arrived]?.receivedAt ?? Number.NaN) - committedAt;
}

export function percentiles(latencies: number[]): Latency {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
  return { samples: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}
