// A service started as a user starts it (`npm start`, its own process group) on a database of its own
// that the test seeds with SQL first and reads again whenever the service is down: for the tests
// that kill it in the middle of a long piece of work.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mintToken } from '../../src/auth/mint-token.ts';
import type { Database, Queryable } from '../../src/db/database.ts';
import { type Served, startServe } from '../credentials/processes.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase, EVENT_TYPE, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { WORKER_TEST_ENV } from '../support/worker-process.ts';

/** The service's settings: loopback endpoints, no Redis, auto-disable off. */
export const SERVICE_ENV: Record<string, string> = {
  ...WORKER_TEST_ENV,
  LOG_LEVEL: 'info',
  DATABASE_URL: '',
  DATA_DIR: '',
  REDIS_URL: '',
  RATE_LIMIT_MAX: '1000000',
  WEBHOOK_DISABLE_AFTER: '0',
};

export interface MessageRow {
  id: string;
  createdAt: string;
}

/** One database, one subscription, and the service started on it as a user starts it. */
export class SeededService {
  private target: WorkerDatabase | undefined;
  private readonly served: Served[] = [];
  private readonly owner = randomUUID();
  private readonly company = randomUUID();
  private headers: Record<string, string> = {};
  private readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  async setUp(): Promise<void> {
    this.target = await createWorkerDatabase(TEST_DATABASE_URL, this.prefix);
    const token = await mintToken(SERVICE_ENV.AUTH_JWT_SECRET as string, {
      subject: this.owner,
      companies: [this.company],
      scope: 'export-jobs:write',
    });
    this.headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  }

  async tearDown(): Promise<void> {
    for (const server of this.served) await server.kill();
    await this.target?.drop();
  }

  /** Inserts the subscription (its endpoint refuses connections) and lets `rows` add messages. */
  async seed(rows: (db: Queryable, subscriptionId: string) => Promise<void>): Promise<{ subscriptionId: string }> {
    return this.inspect(async (db) => {
      const [subscription] = await db.query<{ id: string }>(
        `INSERT INTO subscriptions (owner, companies, status, event_types, endpoint_url)
         VALUES ($1, $2::uuid[], 'ACTIVE', $3::text[], 'http://127.0.0.1:1/hooks') RETURNING id`,
        [this.owner, [this.company], [EVENT_TYPE]],
      );
      const subscriptionId = (subscription as { id: string }).id;
      await db.query(
        `INSERT INTO subscription_secrets (subscription_id, secret) VALUES ($1, 'whsec_${'A'.repeat(43)}=')`,
        [subscriptionId],
      );
      await rows(db, subscriptionId);
      return { subscriptionId };
    });
  }

  /** Opens the database in this process while no service runs on it (a DATA_DIR admits one). */
  async inspect<T>(read: (db: Database) => Promise<T>): Promise<T> {
    const db = await (this.target as WorkerDatabase).open();
    try {
      return await read(db);
    } finally {
      await db.close();
    }
  }

  async start(env: Record<string, string>): Promise<Served> {
    const server = await startServe({ ...env, ...(this.target as WorkerDatabase).env }, { npmStart: true });
    this.served.push(server);
    return server;
  }

  call(server: Served, method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${server.url}${path}`, {
      method,
      headers: this.headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** The subscription's oldest message in `status`, through the public API. */
  async firstMessage(server: Served, subscriptionId: string, status: string): Promise<MessageRow | undefined> {
    const response = await this.call(
      server,
      'GET',
      `/v1/subscriptions/${subscriptionId}/messages?status=${status}&limit=1`,
    );
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()).data as MessageRow[])[0];
  }
}

/**
 * Inserts `count` messages of `subscriptionId`, each with its event and one attempt per attempt
 * made. The options are SQL expressions over `i` (1 to count) and the message's own columns.
 */
export async function insertMessages(
  db: Queryable,
  subscriptionId: string,
  count: number,
  rows: { status: string; createdAt: string; updatedAt: string; attempts: number; nextAttemptAt: string },
): Promise<void> {
  await db.query(
    `WITH seeded AS (
       SELECT i, gen_random_uuid() AS event_id, ${rows.createdAt} AS created_at FROM generate_series(1, $1::int) AS i
     ), events AS (
       INSERT INTO events (id, event_type, company_id, data, created_at)
       SELECT event_id, $2, gen_random_uuid(), '{}'::jsonb, created_at FROM seeded
     )
     INSERT INTO messages (id, subscription_id, event_id, status, attempts, schedule_base, next_attempt_at, created_at,
       updated_at, delivered_at)
     SELECT 'msg_' || upper(substr(replace(event_id::text, '-', ''), 1, 26)), $3, event_id, ${rows.status}, $4, 0,
       ${rows.nextAttemptAt}, created_at, ${rows.updatedAt}, CASE WHEN ${rows.status} = 'delivered' THEN created_at END
     FROM seeded`,
    [count, EVENT_TYPE, subscriptionId, rows.attempts],
  );
  await db.query(
    `INSERT INTO message_attempts (message_id, attempt, started_at, duration_ms, status_code, succeeded)
     SELECT m.id, a, m.created_at, 5, CASE WHEN m.status = 'delivered' AND a = m.attempts THEN 204 ELSE 503 END,
       m.status = 'delivered' AND a = m.attempts
     FROM messages m CROSS JOIN generate_series(1, $2::int) AS a
     WHERE m.subscription_id = $1 AND NOT EXISTS (SELECT 1 FROM message_attempts x WHERE x.message_id = m.id)`,
    [subscriptionId, rows.attempts],
  );
}
