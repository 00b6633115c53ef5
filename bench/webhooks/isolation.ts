// What one tenant's webhooks cost another's (docs/decisions/tenant-isolation.md), each beside its
// baseline in the same run:
// - hanging tenant: one tenant's BENCH_ISOLATION_HANGING subscriptions (200) to an endpoint that never
//   answers, each with a message its attempt waits on until WEBHOOK_TIMEOUT_MS (15 s); meanwhile
//   another tenant's events, one at a time, each timed from commit to arrival. Baseline: the same
//   events before the hanging tenant's event.
// - recovered backlog: BENCH_ISOLATION_RECOVERED failed messages (100,000), statistics taken while
//   none was pending, then recovered (`:recover`'s recovery, queued by the recovery worker) and
//   drained to a fast endpoint. Baseline: as many messages queued pending, with fresh statistics.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { startDeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import { recordEvent } from '../../src/webhooks/record-event.ts';
import { insertRecovery } from '../../src/webhooks/recovery-store.ts';
import { startRecoveryWorker } from '../../src/webhooks/recovery-worker.ts';
import {
  createWorkerDatabase,
  EVENT_TYPE,
  exportJobData,
  insertSubscription,
  type WorkerDatabase,
} from '../../test/support/delivery-fixtures.ts';
import { startReceiver } from '../../test/support/receiver.ts';
import { startWorker } from '../../test/support/worker-process.ts';
import { type Latency, percentiles, timeOneEvent } from './backlog.ts';
import { WORKER_ENV } from './delivery.ts';
import { startFarm } from './farm.ts';

export interface IsolationFigures {
  kind: 'postgres' | 'pglite';
  hangingSubscriptions: number;
  /** Another tenant's events, commit to arrival: before the hanging tenant's event, and while it hangs. */
  quiet: Latency;
  beside: Latency;
  /** Attempts that reached the hanging tenant's endpoint while the other tenant's events were timed. */
  hangingAttempts: number;
  recovered: number;
  /** Messages drained per second: queued pending with fresh statistics, and recovered after stale ones. */
  freshDrainRate: number;
  recoveredDrainRate: number;
}

const QUIET_SAMPLES = 50;
// About 10 events a second: 200 samples span the hanging attempts' first time-out and first retry.
const PAUSE_MS = 40;

export async function runIsolationSuite(
  options: {
    databases: ('postgres' | 'pglite')[];
    adminUrl: string;
    hanging: number;
    recovered: number;
    samples: number;
  },
  log: (line: string) => void,
): Promise<IsolationFigures[]> {
  const figures: IsolationFigures[] = [];
  for (const kind of options.databases) {
    const hanging = await benchHangingTenant(kind, options, log);
    const drains = await benchRecoveredDrain(kind, options, log);
    figures.push({ kind, ...hanging, ...drains });
  }
  return figures;
}

/** Runs the delivery worker (and recovery worker) as `serve --role worker` would on `target`. */
async function runWorkers(target: WorkerDatabase, db: Database): Promise<() => Promise<unknown>> {
  // PostgreSQL: a child process, as deployed. PGlite: this process's handle, as `serve --role all`
  // runs them (one process owns the folder).
  if (target.kind === 'postgres') {
    const child = startWorker({ ...WORKER_ENV, ...target.env });
    return () => child.stop();
  }
  const config = { ...loadConfig({}), webhookAllowPrivateTargets: true };
  const logger = pino({ level: 'warn' });
  const worker = await startDeliveryWorker({ db, config, logger });
  const recovery = startRecoveryWorker({ db, logger });
  return () => Promise.all([worker.stop(), recovery.stop()]);
}

async function benchHangingTenant(
  kind: 'postgres' | 'pglite',
  options: { adminUrl: string; hanging: number; samples: number },
  log: (line: string) => void,
) {
  const target = await createWorkerDatabase(kind === 'postgres' ? options.adminUrl : undefined, 'ledgerhook_bench_iso');
  const db = await target.open();
  // Takes every request and never answers: each attempt waits for WEBHOOK_TIMEOUT_MS.
  let hangingAttempts = 0;
  const blackhole = createServer(() => {
    hangingAttempts++;
  });
  blackhole.listen(0, '127.0.0.1');
  await new Promise((resolve) => blackhole.once('listening', resolve));
  const blackholeUrl = `http://127.0.0.1:${(blackhole.address() as AddressInfo).port}`;
  const healthy = await startReceiver();
  let stopWorkers: (() => Promise<unknown>) | undefined;
  try {
    const [slowCompany, fastCompany] = [randomUUID(), randomUUID()];
    const owner = `bench-${randomUUID()}`;
    for (let i = 0; i < options.hanging; i++) {
      await insertSubscription(db, { endpointUrl: `${blackholeUrl}/${i}`, companyId: slowCompany, owner });
    }
    await insertSubscription(db, { endpointUrl: healthy.url, companyId: fastCompany });
    stopWorkers = await runWorkers(target, db);

    const quiet: number[] = [];
    for (let i = 0; i < QUIET_SAMPLES; i++) quiet.push(await timeOneEvent(db, healthy, fastCompany, PAUSE_MS));
    await db.transaction((tx) =>
      recordEvent(tx, { eventType: EVENT_TYPE, companyId: slowCompany, data: exportJobData(slowCompany) }),
    );
    const beside: number[] = [];
    for (let i = 0; i < options.samples; i++) beside.push(await timeOneEvent(db, healthy, fastCompany, PAUSE_MS));
    const figures = {
      hangingSubscriptions: options.hanging,
      quiet: percentiles(quiet),
      beside: percentiles(beside),
      hangingAttempts,
    };
    log(
      `${kind}: another tenant's event beside ${options.hanging} hanging subscriptions: p50 ${figures.beside.p50Ms.toFixed(1)} ms, ` +
        `max ${figures.beside.maxMs.toFixed(1)} ms (quiet: p50 ${figures.quiet.p50Ms.toFixed(1)} ms); ${hangingAttempts} hanging attempts made`,
    );
    return figures;
  } finally {
    blackhole.closeAllConnections();
    blackhole.close();
    await stopWorkers?.();
    await healthy.close();
    await db.close();
    await target.drop();
  }
}

async function benchRecoveredDrain(
  kind: 'postgres' | 'pglite',
  options: { adminUrl: string; recovered: number },
  log: (line: string) => void,
) {
  const drain = async (recover: boolean) => {
    const target = await createWorkerDatabase(
      kind === 'postgres' ? options.adminUrl : undefined,
      'ledgerhook_bench_rd',
    );
    const db = await target.open();
    const farm = await startFarm(1);
    let stopWorkers: (() => Promise<unknown>) | undefined;
    try {
      const companyId = randomUUID();
      const { id } = await insertSubscription(db, { endpointUrl: farm.urls[0] as string, companyId });
      await queueMessages(db, id, companyId, options.recovered, recover ? 'failed' : 'pending');
      await db.exec('ANALYZE');
      if (recover) {
        const since = new Date(Date.now() - 86_400_000).toISOString();
        const recovery = await insertRecovery(db, id, since, null);
        if (typeof recovery === 'string') throw new Error(`the recovery was refused: ${recovery}`);
      }
      const startedAt = performance.timeOrigin + performance.now();
      stopWorkers = await runWorkers(target, db);
      const deadline = Date.now() + 900_000;
      while ((await farm.stats()).distinctIds < options.recovered) {
        if (Date.now() > deadline) throw new Error(`${kind}: the messages did not drain within 15 min`);
        await sleep(200);
      }
      const rate = options.recovered / (((await farm.stats()).lastAt - startedAt) / 1000);
      log(
        `${kind}: ${recover ? 'recovered' : 'fresh'} backlog of ${options.recovered} drained at ${Math.round(rate)} per second`,
      );
      return rate;
    } finally {
      await stopWorkers?.();
      await farm.stop();
      await db.close();
      await target.drop();
    }
  };
  return { recovered: options.recovered, freshDrainRate: await drain(false), recoveredDrainRate: await drain(true) };
}

/** `count` messages of as many events, created an hour ago, in one statement. */
async function queueMessages(db: Database, subscriptionId: string, companyId: string, count: number, status: string) {
  await db.query(
    `WITH new_events AS (
       INSERT INTO events (event_type, company_id, data)
       SELECT $1, $2, $3::jsonb FROM generate_series(1, $4) RETURNING id
     )
     INSERT INTO messages (id, subscription_id, event_id, status, attempts, created_at, updated_at)
     SELECT new_message_id(), $5, id, $6, CASE WHEN $6 = 'failed' THEN 8 ELSE 0 END,
       now() - interval '1 hour', now() - interval '1 hour'
     FROM new_events`,
    [EVENT_TYPE, companyId, JSON.stringify(exportJobData(companyId)), count, subscriptionId, status],
  );
}

export function formatIsolationTable(figures: IsolationFigures[]): string {
  const rows = figures.flatMap((f) => [
    `| another tenant's event, commit → arrival, quiet | ${f.kind} | ${f.quiet.p50Ms.toFixed(1)} | ${f.quiet.maxMs.toFixed(1)} | ${f.quiet.samples} events |`,
    `| … beside one tenant's ${f.hangingSubscriptions} hanging subscriptions | ${f.kind} | ${f.beside.p50Ms.toFixed(1)} | ${f.beside.maxMs.toFixed(1)} | ${f.hangingAttempts} hanging attempts made |`,
    `| backlog of ${f.recovered.toLocaleString('en')} queued, fresh statistics: per second | ${f.kind} | ${Math.round(f.freshDrainRate)} | | |`,
    `| backlog of ${f.recovered.toLocaleString('en')} recovered, stale statistics: per second | ${f.kind} | ${Math.round(f.recoveredDrainRate)} | | |`,
  ]);
  return ['| measurement | db | p50 ms or rate | max ms | check |', '|---|---|--:|--:|---|', ...rows].join('\n');
}
