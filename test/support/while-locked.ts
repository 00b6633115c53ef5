// Races made deterministic: a request sent while a test's transaction holds a lock, the commit made
// once the request waits for it.
import { setImmediate } from 'node:timers/promises';
import type { Database, Queryable } from '../../src/db/database.ts';
import type { TestResponse } from './harness.ts';

/**
 * Sends `request` while a transaction of the test holds `lock` uncommitted, and commits once the
 * request waits for it (on PostgreSQL; PGlite runs one statement at a time, so there the request
 * runs after the commit). The request's answer.
 */
export async function whileLocked(
  db: Database,
  lock: (tx: Queryable) => Promise<unknown>,
  request: () => Promise<TestResponse>,
): Promise<TestResponse> {
  let answer: Promise<TestResponse> | undefined;
  await db.transaction(async (tx) => {
    await lock(tx);
    const [holder] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    let answered = false;
    answer = request().finally(() => {
      answered = true;
    });
    // An answer before the wait fails the test's own assertions, instead of a wait forever.
    if (db.kind === 'postgres') await untilBlockedBy(db, holder?.pid, () => answered);
  });
  return answer as Promise<TestResponse>;
}

/** Resolves once a session waits for a lock that `pid` holds, or once `gaveUp` says to stop looking. */
async function untilBlockedBy(db: Database, pid: number | undefined, gaveUp: () => boolean) {
  while (!gaveUp()) {
    const waiting = await db.query('SELECT 1 FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))', [pid]);
    if (waiting.length > 0) return;
    await setImmediate();
  }
}
