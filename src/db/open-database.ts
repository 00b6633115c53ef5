import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';

/**
 * Opens the database the configuration names and brings its schema up to date. `schema` is the
 * PostgreSQL schema to work in; `pgliteImage` the cluster an in-memory PGlite starts from (openPglite).
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'pgliteSharedBuffersMb'>>,
  options: { schema?: string; pgliteImage?: Blob } = {},
): Promise<Database> {
  const database = config.databaseUrl
    ? await (await import('./postgres-database.ts')).openPostgres(config.databaseUrl, { schema: options.schema })
    : await (await import('./pglite-database.ts')).openPglite(config.dataDir, {
        ...config,
        image: options.pgliteImage,
      });
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
