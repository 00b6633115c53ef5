import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Database } from './database.ts';

/**
 * The embedded database: PostgreSQL compiled to WASM, in one process. PGlite runs one statement at
 * a time and queues other callers behind an open transaction, so transactions never interleave.
 */
export async function openPglite(dataDir: string): Promise<Database> {
  if (dataDir !== 'memory') mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create({
    dataDir: dataDir === 'memory' ? undefined : dataDir,
    extensions: { pg_trgm },
  });
  await pg.exec("SET TIME ZONE 'UTC'");

  const query = async <Row>(on: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) =>
    (await on.query<Row>(sql, params as unknown[])).rows;

  return {
    kind: 'pglite',
    query: (sql, params) => query(pg, sql, params),
    exec: async (sql) => void (await pg.exec(sql)),
    transaction: (work) =>
      pg.transaction((tx) =>
        work({ query: (sql, params) => query(tx, sql, params), exec: async (sql) => void (await tx.exec(sql)) }),
      ),
    listen: async (channel, onNotify) => {
      const unlisten = await pg.listen(channel, onNotify);
      return async () => {
        if (!pg.closed) await unlisten();
      };
    },
    close: () => pg.close(),
  };
}
