import { statfsSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Config } from '../config.ts';
import { notificationsOfTransaction } from './after-commit-notify.ts';
import { makeDataDir } from './data-dir.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { createWriteRefusalMemory, type Database, type QueryOptions } from './database.ts';
import { guardEngine } from './pglite-engine-guard.ts';
import { createKeptPlans } from './pglite-kept-plans.ts';
import { sharedBuffersFor } from './pglite-shared-buffers.ts';

/**
 * The embedded database: PostgreSQL compiled to WASM, in one process. PGlite runs one statement at
 * a time and queues other callers behind an open transaction, so transactions never interleave.
 * An in-memory database starts from `image` (a cluster PGlite dumped) when given, instead of a new
 * cluster: the tests' databases, whose new cluster would otherwise take most of their start.
 */
export async function openPglite(
  dataDir: string,
  { pgliteSharedBuffersMb = 'auto', image }: Partial<Pick<Config, 'pgliteSharedBuffersMb'>> & { image?: Blob } = {},
): Promise<Database> {
  if (dataDir !== 'memory') makeDataDir(dataDir);
  const unlock = dataDir === 'memory' ? () => {} : await lockDataDir(dataDir);
  const sharedBuffersMb = pgliteSharedBuffersMb === 'auto' ? sharedBuffersFor(dataDir) : pgliteSharedBuffersMb;
  let pg: PGlite;
  try {
    pg = await PGlite.create({
      dataDir: dataDir === 'memory' ? undefined : dataDir,
      loadDataDir: dataDir === 'memory' ? image : undefined,
      extensions: { btree_gin, pg_trgm },
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`],
    });
  } catch (error) {
    unlock();
    // PGlite says only that it "failed to initialize properly"; a full disk is the common cause.
    throw dataDir === 'memory'
      ? error
      : new Error(`The embedded database in ${dataDir} could not be opened (${room(dataDir)})`, { cause: error });
  }
  const refusals = createWriteRefusalMemory();
  const engine = guardEngine(pg, refusals.note);
  await pg.exec("SET TIME ZONE 'UTC'");

  // PGlite executes in this thread, so a statement blocks the event loop while it runs. Statements
  // outside a transaction therefore take turns: one per turn of the event loop, in the order they
  // were asked for, each after that turn's I/O. A request that arrives while statements run is read
  // on the next turn and queued behind the statements asked for before it, in arrival order.
  // (Running every waiting statement in one turn would leave requests unread in their sockets
  // behind the whole batch: a cursor page's p99 is 2.5 times its p50 that way, 1.7 times with one
  // per turn, at the same rate: docs/decisions/query-plans.md.) Work given to afterPendingIo runs
  // after the I/O already, so its statements start at once.
  let runningAfterIo = false;
  const afterPendingIo = (work: () => void) =>
    void setImmediate(() => {
      runningAfterIo = true;
      try {
        work();
      } finally {
        runningAfterIo = false;
      }
    });
  const nextTurn = takeTurns();
  const afterIo = async () => {
    if (!runningAfterIo) await nextTurn();
  };

  const keptPlans = createKeptPlans(pg);
  // The session may be left keeping plans by a kept-plan call (pglite-kept-plans.ts): a statement
  // planned for its values first switches it back, and nothing may run between the two. So every
  // statement and transaction takes this lock, in the order they were asked for (PGlite's own locks
  // are released between the switch and the statement).
  const exclusively = createLock();
  // PGlite's protocol entry point takes no lock: calls through it take the two its own query takes,
  // so that they wait for an open transaction to end instead of running inside it.
  const withPgliteLocks = <T>(work: () => Promise<T>) => pg._runExclusiveTransaction(() => pg.runExclusive(work));
  const query = async <Row>(on: PGlite | Transaction, sql: string, params?: readonly unknown[]) =>
    (await on.query<Row>(sql, params as unknown[])).rows;
  // As on PostgreSQL, a statement keeps its plan only outside transactions.
  const queryOutside = async <Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
    await afterIo();
    return exclusively(async () => {
      if (options?.reusePlan && params?.length) {
        const rows = await withPgliteLocks(async () => keptPlans.run<Row>(sql, params));
        if (rows) return rows;
      }
      // Without parameters a statement has only the one plan, whatever the mode.
      if (params?.length) await withPgliteLocks(keptPlans.planEachCall);
      return query<Row>(pg, sql, params);
    });
  };

  // Every listener of an embedded database is in this process (it holds DATA_DIR): notifications
  // asked for after commit go to them directly, on a later turn, without a statement.
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const notify = (channel: string, payload: string) =>
    void setImmediate(() => {
      for (const onNotify of listeners.get(channel) ?? []) onNotify(payload);
    });

  return {
    kind: 'pglite',
    query: queryOutside,
    exec: (sql) => exclusively(async () => void (await pg.exec(sql))),
    notifyAfterCommit: notify,
    transaction: async (work) => {
      await afterIo();
      const notifications = notificationsOfTransaction(notify);
      const result = await exclusively(async () => {
        await withPgliteLocks(keptPlans.planEachCall);
        return pg.transaction((tx) =>
          work({
            query: (sql, params) => query(tx, sql, params),
            exec: async (sql) => void (await tx.exec(sql)),
            notifyAfterCommit: notifications.add,
          }),
        );
      });
      notifications.commit();
      return result;
    },
    listen: async (channel, onNotify) => {
      const unlisten = await pg.listen(channel, onNotify);
      const ofChannel = listeners.get(channel) ?? new Set();
      listeners.set(channel, ofChannel.add(onNotify));
      return async () => {
        ofChannel.delete(onNotify);
        if (!pg.closed && !engine.isStopped) await unlisten();
      };
    },
    afterPendingIo,
    recentWriteRefusal: refusals.recent,
    stopped: engine.stopped,
    close: async () => {
      try {
        // A stopped engine would wait forever in its shutdown checkpoint; the process ends instead.
        if (!engine.isStopped) await pg.close();
      } finally {
        unlock();
      }
    },
  };
}

/** The room left on the filesystem of `path`, in words. */
function room(path: string): string {
  const { bavail, bsize } = statfsSync(path);
  return `${((bavail * bsize) / 2 ** 20).toFixed(1)} MiB free on its filesystem`;
}

/**
 * A function whose promise resolves on a later turn of the event loop (after that turn's I/O), one
 * caller per turn, in the order of the calls.
 */
function takeTurns(): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const startNext = () => {
    const next = waiting.shift();
    // Scheduled before the waiter runs, an immediate set now runs on the next turn, after its I/O.
    scheduled = waiting.length > 0;
    if (scheduled) setImmediate(startNext);
    next?.();
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) {
        scheduled = true;
        setImmediate(startNext);
      }
    });
}

/** Runs each piece of work given to it after the one given before has settled, in the order given. */
function createLock(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = last.then(work);
    last = run.catch(() => undefined);
    return run;
  };
}
