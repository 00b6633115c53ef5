// The two databases under test, each seeded with one company of many accounts and a neighbour
// company of a twentieth as many (what a name search of a smaller company reads beside a large one).
// A target says how the service reaches it (its environment) and holds what the scenarios need.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from '../src/db/database.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { seedAccounts } from './seed-accounts.ts';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Target {
  kind: DatabaseKind;
  /** DATABASE_URL or DATA_DIR for the service. */
  env: Record<string, string>;
  companyId: string;
  /** The smaller company beside it, and its number of accounts. */
  neighbour: { companyId: string; accounts: number };
  /** Random account ids of the company, for get-by-id. */
  sampleIds: string[];
  /** The server's version, for the report. */
  version: string;
  /** Removes what prepare made (the bench database is kept until the next run, for EXPLAIN). */
  cleanup(): Promise<void>;
}

// BENCH_DATABASE_NAME lets two benches run at once without dropping each other's database.
export const BENCH_DATABASE = benchDatabaseName(process.env.BENCH_DATABASE_NAME ?? 'ledgerhook_bench');

function benchDatabaseName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
    throw new Error(`BENCH_DATABASE_NAME: ${name} is not a plain database name`);
  return name;
}

export interface PrepareOptions {
  accounts: number;
  /** Connection used to drop and create the bench database on the PostgreSQL server. */
  adminUrl: string;
  log: (line: string) => void;
  /** Names given a text to search for (seed-accounts.ts). */
  marked?: { every: number; text: string };
}

export async function prepare(kind: DatabaseKind, options: PrepareOptions): Promise<Target> {
  if (kind === 'postgres') {
    const url = await recreatePostgresDatabase(options.adminUrl);
    const target = await seed(await openDatabase({ databaseUrl: url, dataDir: '' }), kind, options);
    return { ...target, env: { DATABASE_URL: url }, cleanup: async () => {} };
  }
  // PGlite is one process: the seeding handle is closed before the service opens the same folder.
  const dataDir = mkdtempSync(join(tmpdir(), 'ledgerhook-bench-'));
  const target = await seed(await openDatabase({ databaseUrl: undefined, dataDir }), kind, options);
  return {
    ...target,
    env: { DATA_DIR: dataDir },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function recreatePostgresDatabase(adminUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${BENCH_DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${BENCH_DATABASE}`;
  return url.toString();
}

async function seed(db: Database, kind: DatabaseKind, options: PrepareOptions) {
  try {
    const companyId = randomUUID();
    const neighbour = { companyId: randomUUID(), accounts: Math.max(1, Math.round(options.accounts / 20)) };
    const started = Date.now();
    await seedAccounts(db, {
      marked: options.marked,
      companies: [
        { companyId, count: options.accounts },
        { companyId: neighbour.companyId, count: neighbour.accounts },
      ],
      onBatch: (n) => options.log(`${kind}: ${n.toLocaleString('en')} accounts inserted`),
    });
    options.log(`${kind}: seeded and indexed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const sample = await db.query<{ id: string }>(
      'SELECT id FROM accounts WHERE company_id = $1 ORDER BY random() LIMIT 1000',
      [companyId],
    );
    const [version] = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return { kind, companyId, neighbour, sampleIds: sample.map((row) => row.id), version: version?.v ?? '?' };
  } finally {
    await db.close();
  }
}
