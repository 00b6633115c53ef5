// Webhook delivery on one database: how fast a worker process drains a backlog of signed
// notifications to the receiver farm (every attempt recorded), and how long an event waits from its
// commit to its first attempt while the worker is idle.
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
import { startReceiver } from '../../test/support/receiver.ts';
import { startWorker, type WorkerProcess } from '../../test/support/worker-process.ts';
import type { Farm } from './farm.ts';

export interface DeliveryOptions {
  kind: 'postgres' | 'pglite';
  /** Where the bench database is created (PostgreSQL). */
  adminUrl: string;
  farm: Farm;
  /** Messages of the backlog: events × the farm's receivers (one subscription each). */
  messages: number;
  /** Single events committed one at a time for the latency figure. */
  latencySamples: number;
  log: (line: string) => void;
}

export interface DeliveryResult {
  kind: 'postgres' | 'pglite';
  messages: number;
  /** Recording the backlog through recordEvent (events and their fan-out), per second. */
  recordedMessagesPerSecond: number;
  /** First to last arrival at the farm. */
  seconds: number;
  /** Delivered notifications per second, as the receivers saw them. */
  rps: number;
  /** Requests the farm got beyond one per message (a resend): 0 in a clean run. */
  duplicates: number;
  /** Attempt rows and delivered messages found in the database afterwards. */
  attemptsRecorded: number;
  delivered: number;
  /** Commit of a single event to its arrival at the receiver, in ms. */
  latency: { samples: number; p50Ms: number; p99Ms: number; maxMs: number };
}

/** A bench worker's settings: the defaults, loopback receivers allowed, warnings only. */
export const WORKER_ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn', AUTH_JWT_SECRET: 'x'.repeat(32) };

export async function benchDelivery(options: DeliveryOptions): Promise<DeliveryResult> {
  const { kind, farm, log } = options;
  const target = await createWorkerDatabase(kind === 'postgres' ? options.adminUrl : undefined, 'ledgerhook_bench_wh');
  let db: Database | undefined = await target.open();
  let worker: WorkerProcess | undefined;
  try {
    // The backlog: one subscription per receiver, all on one company; each event fans out to all.
    const companyId = randomUUID();
    for (const url of farm.urls) await insertSubscription(db, { endpointUrl: url, companyId });
    const events = Math.ceil(options.messages / farm.urls.length);
    const recordStarted = performance.now();
    await recordEvents(db, companyId, events, 20);
    const recordSeconds = (performance.now() - recordStarted) / 1000;
    const messages = events * farm.urls.length;
    log(`${kind}: ${messages.toLocaleString('en')} messages recorded in ${recordSeconds.toFixed(1)} s`);

    // PGlite admits one process: the worker child opens the folder once the bench has closed it.
    if (kind === 'pglite') {
      await db.close();
      db = undefined;
    }
    await farm.reset();
    worker = startWorker({ ...WORKER_ENV, ...target.env });
    const deadline = Date.now() + 300_000;
    let stats = await farm.stats();
    while (stats.distinctIds < messages) {
      if (Date.now() > deadline) throw new Error(`${kind}: ${stats.distinctIds} of ${messages} delivered in 5 min`);
      if (worker.child.exitCode !== null) throw new Error(`${kind}: the worker exited:\n${worker.stderr()}`);
      await sleep(50);
      stats = await farm.stats();
    }
    if (kind === 'postgres' && db) await waitUntilAllDelivered(db, messages, Date.now() + 30_000);
    const code = await worker.stop();
    if (code !== 0) throw new Error(`${kind}: the worker exited with ${code}:\n${worker.stderr()}`);
    worker = undefined;
    stats = await farm.stats();
    const seconds = (stats.lastAt - stats.firstAt) / 1000;
    db ??= await target.open();
    const [counts] = await db.query<{ attempts: number; delivered: number }>(
      `SELECT (SELECT count(*)::int FROM message_attempts) AS attempts,
              (SELECT count(*)::int FROM messages WHERE status = 'delivered') AS delivered`,
    );
    log(`${kind}: delivered in ${seconds.toFixed(2)} s: ${Math.round(messages / seconds)} per second`);

    const latency = await measureLatency(db, kind, target.env, options.latencySamples, log);
    return {
      kind,
      messages,
      recordedMessagesPerSecond: messages / recordSeconds,
      seconds,
      rps: messages / seconds,
      duplicates: stats.requests - stats.distinctIds,
      attemptsRecorded: counts?.attempts ?? 0,
      delivered: counts?.delivered ?? 0,
      latency,
    };
  } finally {
    await worker?.kill();
    await db?.close();
    await target.drop();
  }
}

/**
 * Commits single events one at a time, each to one subscription of a receiver in this process, and
 * times commit → arrival (one clock). PostgreSQL: the worker is a child process, as deployed. PGlite:
 * the worker runs in this process on the same handle, as `serve --role all` runs it there (one
 * process owns the folder), so the bench's commits and the worker share one event loop.
 */
async function measureLatency(
  db: Database,
  kind: 'postgres' | 'pglite',
  env: Record<string, string>,
  samples: number,
  log: (line: string) => void,
) {
  const receiver = await startReceiver();
  const companyId = randomUUID();
  await insertSubscription(db, { endpointUrl: receiver.url, companyId });
  let child: WorkerProcess | undefined;
  let inProcess: { stop(): Promise<void> } | undefined;
  if (kind === 'postgres') {
    child = startWorker({ ...WORKER_ENV, ...env });
  } else {
    const config = { ...loadConfig({}), webhookAllowPrivateTargets: true };
    inProcess = await startDeliveryWorker({ db, config, logger: pino({ level: 'warn' }) });
  }
  try {
    // A first event, untimed: the worker has started and its connections are open.
    await db.transaction((tx) => recordEvent(tx, { eventType: EVENT_TYPE, companyId, data: exportJobData(companyId) }));
    await receiver.waitFor(1, 60_000);
    const latencies: number[] = [];
    for (let i = 0; i < samples; i++) {
      // Not in step with the worker's timers: a random pause between events.
      await sleep(5 + Math.floor(Math.random() * 20));
      await db.transaction((tx) =>
        recordEvent(tx, { eventType: EVENT_TYPE, companyId, data: exportJobData(companyId) }),
      );
      const committedAt = performance.timeOrigin + performance.now();
      await receiver.waitFor(i + 2, 10_000);
      const arrival = receiver.requests[i + 1];
      if (arrival) latencies.push(arrival.receivedAt - committedAt);
    }
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? NaN;
    const result = { samples: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
    log(`${kind}: commit to first attempt p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms`);
    return result;
  } finally {
    await child?.stop();
    await inProcess?.stop();
    await receiver.close();
  }
}

async function waitUntilAllDelivered(db: Database, messages: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE status = 'delivered'");
    if ((row?.n ?? 0) >= messages) return;
    await sleep(50);
  }
  throw new Error(`not every message was recorded as delivered within the deadline`);
}
