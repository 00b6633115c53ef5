import pg from 'pg';
import { coalescedNotifier, notificationsOfTransaction } from './after-commit-notify.ts';
import { keepFreedMemory } from './backend-memory.ts';
import {
  createWriteRefusalMemory,
  type Database,
  isDatabaseUnavailable,
  isPgError,
  PG_UNIQUE_VIOLATION,
  type Queryable,
  writeRefusalOf,
} from './database.ts';
import { openPipelinedConnection } from './pipelined-connection.ts';
import { postgresListeners } from './postgres-listener.ts';
import { createStatementNames } from './statement-names.ts';

// A deadlock or serialization failure means another transaction won a race; the work is safe to
// run again from the start.
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 3;
// Connections per pool and process; node-postgres's default.
const POOL_SIZE = 10;
// An open connection stays open. node-postgres closes one idle for 10 s by default, which under
// uneven load means opening it again moments later (and preparing its statements again), and costs a
// timer set and cleared on every query: about 4 % of a get-by-id's instructions
// (`git show 6d471bc:docs/performance.md`).
const KEEP_IDLE_CONNECTIONS = { idleTimeoutMillis: 0 };
// Quick statements queue behind each other on their shared connection. When this many are still
// unanswered, PostgreSQL is slow to answer them (reading from disk, say): the next one takes a pool
// connection instead, so that slow lookups run side by side as they did before pipelining.
const MAX_PIPELINED = 3;
// How long a statement waits for a connection: to open one (a database host that does not answer
// would otherwise hold it for the system's TCP time-out, minutes) or for a pool's busy ones to free
// up. Past it the statement fails and the request answers 503 with Retry-After (isDatabaseUnavailable).
const CONNECT_TIMEOUT_MS = 5_000;
// At most one after-commit NOTIFY per channel this often: under a stream of writes one went out per
// commit and cost single creates with a listener about 10 points of CPU (docs/decisions/events.md,
// "Waking the workers"). A write after a quiet spell notifies at once; under load a worker, busy or
// claiming anyway, is woken at most this late.
const NOTIFY_SPACING_MS = 5;

/** Where a statement runs: a pool, a pool's client in a transaction, or the pipelined connection. */
interface StatementTarget {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

/**
 * PostgreSQL through node-postgres. `schema` puts every table of this connection in its own schema
 * (the tests use one per file); extensions stay in `public`.
 *
 * Two pools, because PostgreSQL decides per session whether a prepared statement is planned for its
 * values on every call or keeps one plan: statements marked `reusePlan` run on connections that
 * keep plans, every other statement (and every transaction) on connections that plan each call.
 * Each pool opens at most POOL_SIZE connections, as they are needed, and keeps them open. Statements
 * marked `quick` share one more connection, pipelined, that keeps plans too.
 */
export async function openPostgres(
  url: string,
  options: { schema?: string; connectTimeoutMs?: number } = {},
): Promise<Database> {
  const searchPath = options.schema ? `${options.schema},public` : undefined;
  const connectionFor = (planCacheMode: string, ...settings: string[]) => ({
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    options: [
      '-c TimeZone=UTC',
      `-c plan_cache_mode=${planCacheMode}`,
      searchPath ? `-c search_path=${searchPath}` : '',
      ...settings,
    ]
      .join(' ')
      .trim(),
  });
  const connection = connectionFor('force_custom_plan');
  const poolOptions = { max: POOL_SIZE, ...KEEP_IDLE_CONNECTIONS, onConnect: keepFreedMemory, Client: PoolConnection };
  const planning = new pg.Pool({ ...connection, ...poolOptions });
  const keepingPlans = connectionFor('force_generic_plan');
  const reusing = new pg.Pool({ ...keepingPlans, ...poolOptions });
  const pipelined = openPipelinedConnection(keepingPlans, { onConnect: keepFreedMemory });
  // The after-commit NOTIFYs (after-commit-notify.ts), one at a time, on a connection of their own.
  // A NOTIFY is a transaction's commit; it need not wait for its WAL flush, since a NOTIFY lost to a
  // crash only delays delivery until the workers poll.
  const notifying = new pg.Pool({
    ...connectionFor('force_custom_plan', '-c synchronous_commit=off'),
    ...poolOptions,
    max: 1,
  });
  const listeners = postgresListeners(connection);
  // An idle connection that breaks is closed by its pool, which then emits its error here; an 'error'
  // event without a listener would end the process.
  for (const pool of [planning, reusing, notifying]) pool.on('error', () => {});
  if (options.schema) await createSchema(planning, options.schema);

  // Named statements skip the parse on every call after the first on a connection.
  const statements = createStatementNames();
  const refusals = createWriteRefusalMemory();
  const query = async <Row>(on: StatementTarget, text: string, params?: readonly unknown[]) => {
    const values = params as unknown[] | undefined;
    // Statements without parameters are rare and cheap (and some are DDL): they stay unnamed.
    const name = values?.length ? statements.nameOf(text) : undefined;
    try {
      return (await on.query({ name, text, values })).rows as Row[];
    } catch (error) {
      refusals.note(error);
      throw error;
    }
  };

  const notify = coalescedNotifier(
    (channel, payload) => query(notifying, 'SELECT pg_notify($1, $2)', [channel, payload]),
    NOTIFY_SPACING_MS,
  );

  async function transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = (await planning.connect()) as pg.PoolClient & PoolConnection;
      // Why the connection is not to be used again, besides its own error (lostWith).
      let dropWith: Error | undefined;
      const notifications = notificationsOfTransaction(notify);
      try {
        await client.query('BEGIN');
        const result = await work({
          query: (sql, params) => query(client, sql, params),
          exec: async (sql) => void (await client.query(sql)),
          notifyAfterCommit: notifications.add,
        });
        await client.query('COMMIT');
        notifications.commit();
        return result;
      } catch (error) {
        // A session that refuses writes (a standby, default_transaction_read_only) is closed too: the
        // next one is opened where DATABASE_URL leads now, and with the settings of now. (A pool's
        // `query` closes the session of any failed statement already.)
        if (isDatabaseUnavailable(error) || writeRefusalOf(error) === 'read-only') dropWith = error as Error;
        refusals.note(error);
        // A connection that is gone has rolled back with its session.
        if (!client.lostWith && !dropWith) await client.query('ROLLBACK').catch(() => {});
        const code = (error as { code?: string }).code;
        if (attempt < MAX_ATTEMPTS && code && RETRYABLE.has(code)) continue;
        throw error;
      } finally {
        // Released with its error, the pool closes the connection instead of handing it out again.
        client.release(client.lostWith ?? dropWith);
      }
    }
  }

  return {
    kind: 'postgres',
    query: (sql, params, queryOptions) => {
      const pipelines = queryOptions?.quick && pipelined.pending < MAX_PIPELINED;
      return query(pipelines ? pipelined : queryOptions?.reusePlan ? reusing : planning, sql, params);
    },
    exec: async (sql) => void (await planning.query(sql)),
    notifyAfterCommit: notify,
    transaction,
    listen: (channel, onNotify) => listeners.listen(channel, onNotify),
    afterPendingIo: (work) => void setImmediate(work),
    recentWriteRefusal: refusals.recent,
    // PostgreSQL restarts its own backends after a PANIC; a lost connection is opened again.
    stopped: new Promise(() => {}),
    close: async () => {
      await listeners.stop();
      await Promise.all([planning.end(), reusing.end(), notifying.end(), pipelined.end()]);
    },
  };
}

/**
 * A pool's connection, with an 'error' listener from its creation to its end that keeps the first
 * error: an 'error' event without a listener ends the process. node-postgres's pool listens to its
 * idle connections only. It hands one that a statement releases straight to a waiting `connect()`,
 * whose caller resumes only after the rest of that socket read is handled: PostgreSQL ending the
 * session right after the statement's answer (57P01 in the same read) is emitted in between.
 */
class PoolConnection extends pg.Client {
  /** Why the connection broke, if it did: its holder releases it with this, so the pool closes it. */
  lostWith: Error | undefined;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', (error) => {
      this.lostWith ??= error;
    });
  }
}

// IF NOT EXISTS still fails with a unique violation when another process creates it at that moment.
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
  } catch (error) {
    if (!isPgError(error, PG_UNIQUE_VIOLATION)) throw error;
  }
}
