import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';

/** Opens the database the configuration names and brings its schema up to date. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'pgliteSharedBuffersMb'>>,
  options: { schema?: string } = {},
): Promise<Database> {
  const database = config.databaseUrl
    ? await (await import('./postgres-database.ts')).openPostgres(config.databaseUrl, options)
    : await (await import('./pglite-database.ts')).openPglite(config.dataDir, config);
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
