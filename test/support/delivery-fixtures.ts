// What a delivery test or bench needs around worker processes: a database of its own that a child
// `ledgerhook serve` can open (a PostgreSQL database, or a PGlite DATA_DIR), subscriptions inserted
// with SQL, and events recorded the way the API records them.
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Database, Queryable } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { recordEvent } from '../../src/webhooks/record-event.ts';
import { generateSecret } from '../../src/webhooks/signature.ts';
import type { WorkerProcess } from './worker-process.ts';

export const EVENT_TYPE = 'v1.export-job.created';

export interface WorkerDatabase {
  kind: 'postgres' | 'pglite';
  /** DATABASE_URL or DATA_DIR for a child process. */
  env: Record<string, string>;
  /** Opens (and migrates) it in this process. A PGlite folder admits one process at a time. */
  open(): Promise<Database>;
  /** Removes it. */
  drop(): Promise<void>;
}

/**
 * A fresh database for worker processes: `CREATE DATABASE <prefix>_<random>` on the server of
 * `postgresUrl` (a schema cannot be passed to `ledgerhook serve`), else a temporary PGlite folder
 * holding the migrated cluster (seededDataDir).
 */
export async function createWorkerDatabase(postgresUrl: string | undefined, prefix: string): Promise<WorkerDatabase> {
  if (!postgresUrl) {
    const { seededDataDir } = await import('./pglite-image.ts');
    const dataDir = await seededDataDir(prefix);
    return {
      kind: 'pglite',
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ databaseUrl: undefined, dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await admin(postgresUrl, `CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    kind: 'postgres',
    env: { DATABASE_URL: databaseUrl },
    open: () => openDatabase({ databaseUrl, dataDir: '' }),
    drop: () => admin(postgresUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface InsertedSubscription {
  id: string;
  secret: string;
}

/**
 * An ACTIVE subscription of `companyId` to v1.export-job.created, with one signing secret; its owner
 * is one of its own unless `owner` is given.
 */
export async function insertSubscription(
  db: Queryable,
  options: { endpointUrl: string; companyId: string; owner?: string },
): Promise<InsertedSubscription> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO subscriptions (owner, companies, status, event_types, endpoint_url)
     VALUES ($1, $2::uuid[], 'ACTIVE', $3::text[], $4) RETURNING id`,
    [options.owner ?? `test-${randomUUID()}`, [options.companyId], [EVENT_TYPE], options.endpointUrl],
  );
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  const secret = generateSecret();
  await db.query('INSERT INTO subscription_secrets (subscription_id, secret) VALUES ($1, $2)', [row.id, secret]);
  return { id: row.id, secret };
}

/** Data shaped like an export job, as the API would put in the event. */
export function exportJobData(companyId: string): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    companyId,
    createdBy: randomUUID(),
    status: 'pending',
    numberOfItems: 0,
    isInteractive: true,
    vendorBasedBookkeeping: false,
    createdAt: now,
    lastUpdatedAt: now,
  };
}

/**
 * Records `count` events of `companyId` through recordEvent, `perTransaction` to a transaction
 * (recordEvent fans each out to the matching subscriptions' messages). Resolves with their ids.
 */
export async function recordEvents(
  db: Database,
  companyId: string,
  count: number,
  perTransaction = 100,
): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += perTransaction) {
    const batch = Math.min(perTransaction, count - done);
    await db.transaction(async (tx) => {
      for (let i = 0; i < batch; i++) {
        const event = await recordEvent(tx, { eventType: EVENT_TYPE, companyId, data: exportJobData(companyId) });
        ids.push(event.eventId);
      }
    });
  }
  return ids;
}

/** A small seeded PRNG (mulberry32), so that a failing random schedule can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DeliveryLog {
  messages: { id: string; eventId: string; subscriptionId: string; status: string; attempts: number }[];
  /** In (message, attempt) order. */
  attempts: { messageId: string; attempt: number; succeeded: boolean; statusCode: number | null }[];
}

/** Every message and attempt row, to compare with what the receivers got. */
export async function readDeliveryLog(db: Queryable): Promise<DeliveryLog> {
  const messages = await db.query<DeliveryLog['messages'][number]>(
    `SELECT id, event_id AS "eventId", subscription_id AS "subscriptionId", status, attempts FROM messages ORDER BY id`,
  );
  const attempts = await db.query<DeliveryLog['attempts'][number]>(
    `SELECT message_id AS "messageId", attempt, succeeded, status_code AS "statusCode"
     FROM message_attempts ORDER BY message_id, attempt`,
  );
  return { messages, attempts };
}

/**
 * Polls until no message is pending, every 50 ms until `deadline` (epoch ms). Fails early when a
 * worker exits, and at the deadline with the counts by status.
 */
export async function waitUntilNothingPending(
  db: Queryable,
  workers: readonly WorkerProcess[],
  deadline: number,
): Promise<void> {
  for (let polls = 0; Date.now() < deadline && polls < 100_000; polls++) {
    const dead = workers.find((worker) => worker.child.exitCode !== null);
    if (dead) throw new Error(`a worker exited with code ${dead.child.exitCode}:\n${dead.stderr()}`);
    const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE status = 'pending'");
    if (row?.n === 0) return;
    await sleep(50);
  }
  const counts = await db.query('SELECT status, count(*)::int AS n FROM messages GROUP BY status');
  throw new Error(`messages still pending at the deadline: ${JSON.stringify(counts)}`);
}
