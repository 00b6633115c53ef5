import { readdirSync, readFileSync } from 'node:fs';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
// Any fixed number: every process that migrates takes the same transaction-level advisory lock,
// so two processes starting at once apply each migration exactly once.
const MIGRATION_LOCK = 7_402_611;

export interface Migration {
  name: string;
  sql: string;
}

export function listMigrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ name: file.replace(/\.sql$/, ''), sql: readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8') }));
}

/**
 * Applies the migrations not yet in the ledger, in order, each in its own transaction. `migrations`
 * is every one by default; a test passes the first few to see what a later one does to existing rows.
 */
export async function migrate(database: Database, migrations = listMigrations()): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    const ran = await database.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
      if (done.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
