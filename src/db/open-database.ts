import { type Config, ConfigError } from '../config.ts';
import { type Database, isPgError } from './database.ts';
import { migrate } from './migrate.ts';

// What PostgreSQL answers a connection when DATABASE_URL names a database, a role or a password it
// does not know, or an address pg_hba.conf refuses: a setting to correct, which starting again does not.
const REFUSED_SETTING = ['3D000', '28000', '28P01'];

/**
 * Opens the database the configuration names and brings its schema up to date. A server that
 * refuses the configuration is a ConfigError (one line and exit 2); one that does not answer is not.
 * `schema` is the PostgreSQL schema to work in; `pgliteImage` the cluster an in-memory PGlite starts
 * from (openPglite).
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
    // The message names the database or role, never the password.
    if (isPgError(error, REFUSED_SETTING)) throw new ConfigError(`DATABASE_URL: ${(error as Error).message}`);
    throw error;
  }
  return database;
}
