import pg from 'pg';
import { type Database, isPgError, PG_UNIQUE_VIOLATION, type Queryable } from './database.ts';
import { listenOnPostgres, type PostgresListener } from './postgres-listener.ts';
import { createStatementNames } from './statement-names.ts';

// A deadlock or serialization failure means another transaction won a race; the work is safe to
// run again from the start.
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 3;

/**
 * PostgreSQL through a node-postgres pool. `schema` puts every table of this connection in its own
 * schema (the tests use one per file); extensions stay in `public`.
 */
export async function openPostgres(url: string, options: { schema?: string } = {}): Promise<Database> {
  const searchPath = options.schema ? `${options.schema},public` : undefined;
  const connection = {
    connectionString: url,
    // Named statements are planned for their parameters every time, as unnamed ones are: a generic
    // plan would suit one company of a million accounts badly. They still skip the parse.
    options: [
      '-c TimeZone=UTC',
      '-c plan_cache_mode=force_custom_plan',
      searchPath ? `-c search_path=${searchPath}` : '',
    ]
      .join(' ')
      .trim(),
  };
  const pool = new pg.Pool({ ...connection, max: 10 });
  const listeners = new Set<PostgresListener>();
  // An idle client that loses its connection emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  if (options.schema) await createSchema(pool, options.schema);

  const statements = createStatementNames();
  const query = async <Row>(on: pg.Pool | pg.PoolClient, text: string, params?: readonly unknown[]) => {
    const values = params as unknown[] | undefined;
    // Statements without parameters are rare and cheap (and some are DDL): they stay unnamed.
    const name = values?.length ? statements.nameOf(text) : undefined;
    return (await on.query({ name, text, values })).rows as Row[];
  };

  async function transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: (sql, params) => query(client, sql, params),
          exec: async (sql) => void (await client.query(sql)),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        const code = (error as { code?: string }).code;
        if (attempt < MAX_ATTEMPTS && code && RETRYABLE.has(code)) continue;
        throw error;
      } finally {
        client.release();
      }
    }
  }

  return {
    kind: 'postgres',
    query: (sql, params) => query(pool, sql, params),
    exec: async (sql) => void (await pool.query(sql)),
    transaction,
    listen: async (channel, onNotify) => {
      const listener = await listenOnPostgres(connection, channel, onNotify);
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((listener) => listener.stop()));
      listeners.clear();
      await pool.end();
    },
  };
}

// IF NOT EXISTS still fails with a unique violation when another process creates it at that moment.
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
  } catch (error) {
    if (!isPgError(error, PG_UNIQUE_VIOLATION)) throw error;
  }
}
