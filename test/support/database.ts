import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';

/** The database the suite runs on: PostgreSQL when TEST_DATABASE_URL is set, else embedded. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/**
 * The skip of a test of one backend's own behaviour (a full disk under PGlite, the node-postgres
 * pools) that runs the same whichever database the suite uses: it runs once, in its backend's pass.
 */
export const PGLITE_PASS_ONLY = TEST_DATABASE_URL ? "the embedded database's own: runs in the PGlite pass" : false;
/** The skip of a test that opens no database of the suite's (the CLI's usage): it runs once, in the PGlite pass. */
export const FIRST_PASS_ONLY = TEST_DATABASE_URL ? "uses no database of the suite's: runs in the PGlite pass" : false;
export const POSTGRES_PASS_ONLY = TEST_DATABASE_URL ? false : "PostgreSQL's own: runs in the PostgreSQL pass";

const TEST_SHARED_BUFFERS_MB = 32;

/**
 * A fresh, migrated database for one test file: an in-memory PGlite (from the migrated cluster's image,
 * pglite-image.ts), or a schema of its own on the PostgreSQL server (dropped again by `close`).
 */
export async function openTestDatabase(): Promise<Database> {
  if (!TEST_DATABASE_URL) {
    const { migratedClusterImage } = await import('./pglite-image.ts');
    // A cache of 32 MB, not the 128 MB of a new service: a test file's data fits in it, and PGlite
    // reserves all of it at every start (about 0.3 s less per file).
    return openDatabase(
      { databaseUrl: undefined, dataDir: 'memory', pgliteSharedBuffersMb: TEST_SHARED_BUFFERS_MB },
      { pgliteImage: await migratedClusterImage() },
    );
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const db = await openDatabase({ databaseUrl: TEST_DATABASE_URL, dataDir: '' }, { schema });
  return {
    ...db,
    close: async () => {
      await db.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
    },
  };
}

/** What `work` answers, its transaction rolled back, so that nothing it locked, leased or wrote stays. */
export async function rolledBack<T>(db: Database, work: (tx: Queryable) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await db
    .transaction(async (tx) => {
      result = await work(tx);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return result as T;
}

class RolledBack extends Error {}
