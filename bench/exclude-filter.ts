// What excludeIfAssignedToContraAccount and excludeIfAssignedToCategory cost an account search
// (docs/performance.md): the same searches without and with each flag, timed in-process through the
// accounts store, on PostgreSQL. One company of BENCH_ACCOUNTS accounts whose 25 first accounts by
// name are used by contra accounts (so the first page must skip them all) and every other one of
// whose first 2,000 by name has a category (so the first page walks 200 to answer 100), beside
// 2,000 companies with 5 contra accounts and 5 categories each (so both tables hold other
// companies' rows too).
//
//   BENCH_ACCOUNTS=1000000 npm exec -- node bench/exclude-filter.ts
//   BENCH_EXCLUDE_REUSE=1 npm exec -- node bench/exclude-filter.ts   (the same database again)
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type AccountFilters, searchAccounts } from '../src/accounts/store.ts';
import type { Database } from '../src/db/database.ts';
import type { Page, PagePosition } from '../src/db/keyset-page.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { median } from './median.ts';
import { seedAccounts } from './seed-accounts.ts';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_EXCLUDE_RUNS ?? 200);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE = 'ledgerhook_bench_exclude';
const OTHER_COMPANIES = 2_000;
const KINDS = ['WALLET', 'ACCOUNTS_PAYABLE', 'REIMBURSEMENT', 'EXTERNAL_REIMBURSEMENT'];
const CURRENCIES = ['USD', 'SEK', 'NOK', 'DKK', 'GBP', 'CHF', 'PLN', 'JPY', 'CAD', 'AUD'];
const CURRENCIES_2 = ['NZD', 'HUF', 'CZK', 'ISK', 'RON', 'BGN', 'TRY', 'ZAR', 'MXN', 'BRL', 'INR'];

async function main() {
  if (process.env.BENCH_EXCLUDE_REUSE === '1') return reuse();
  const db = await openDatabase({ databaseUrl: await recreateDatabase(), dataDir: '' });
  try {
    const companyId = randomUUID();
    const others = Array.from({ length: OTHER_COMPANIES }, () => ({ companyId: randomUUID(), count: 5 }));
    const started = Date.now();
    await seedAccounts(db, { companies: [{ companyId, count: ACCOUNTS }, ...others] });
    log(`seeded ${ACCOUNTS.toLocaleString('en')} accounts in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await addContraAccounts(db, companyId);
    await addCategories(db, companyId);
    await db.exec('ANALYZE contra_accounts');
    await db.exec('ANALYZE bookkeeping_category_groups');
    await db.exec('ANALYZE bookkeeping_categories');
    await report(db, companyId);
  } finally {
    await db.close();
  }
}

/** The company's first 25 accounts by name get a contra account each; every other company 5. */
async function addContraAccounts(db: Database, companyId: string) {
  await db.query(
    `INSERT INTO contra_accounts (company_id, kind, currency, account_id)
     SELECT $1, CASE WHEN n <= 4 THEN ($2::text[])[n] ELSE 'ADDITIONAL_CURRENCY_WALLET' END,
       CASE WHEN n > 4 THEN ($3::text[])[n - 4] END, id
     FROM (SELECT id, row_number() OVER (ORDER BY name, id) AS n FROM
       (SELECT id, name FROM accounts WHERE company_id = $1 ORDER BY name, id LIMIT 25) first) numbered`,
    [companyId, KINDS, [...CURRENCIES, ...CURRENCIES_2]],
  );
  await db.query(
    `INSERT INTO contra_accounts (company_id, kind, currency, account_id)
     SELECT company_id, CASE WHEN n <= 4 THEN ($2::text[])[n] ELSE 'ADDITIONAL_CURRENCY_WALLET' END,
       CASE WHEN n > 4 THEN 'USD' END, id
     FROM (SELECT id, company_id, row_number() OVER (PARTITION BY company_id ORDER BY id) AS n
       FROM accounts WHERE company_id <> $1) numbered`,
    [companyId, KINDS],
  );
}

/** Every other one of the company's first 2,000 accounts by name gets a category; every other company's accounts one each. */
async function addCategories(db: Database, companyId: string) {
  await db.query(
    `INSERT INTO bookkeeping_category_groups (company_id, name, type, archived)
     SELECT DISTINCT company_id, 'Bench', 'OTHER', false FROM accounts`,
  );
  await db.query(
    `INSERT INTO bookkeeping_categories (company_id, name, group_id, account_id, archived)
     SELECT a.company_id, 'Bench ' || a.n, g.id, a.id, false
     FROM (SELECT id, company_id, row_number() OVER (ORDER BY name, id) AS n
           FROM (SELECT id, company_id, name FROM accounts WHERE company_id = $1 ORDER BY name, id LIMIT 2000) first) a
     JOIN bookkeeping_category_groups g ON g.company_id = a.company_id
     WHERE a.n % 2 = 1`,
    [companyId],
  );
  await db.query(
    `INSERT INTO bookkeeping_categories (company_id, name, group_id, account_id, archived)
     SELECT a.company_id, 'Bench', g.id, a.id, false
     FROM accounts a JOIN bookkeeping_category_groups g ON g.company_id = a.company_id
     WHERE a.company_id <> $1`,
    [companyId],
  );
}

const FLAGS = ['excludeIfAssignedToContraAccount', 'excludeIfAssignedToCategory'] as const;

async function report(db: Database, companyId: string) {
  const none: AccountFilters = {
    companyId,
    ids: null,
    name: null,
    code: null,
    codes: null,
    externalId: null,
    archived: null,
    excludeIfAssignedToContraAccount: false,
    excludeIfAssignedToCategory: false,
  };
  const byName: PagePosition = { sort: [{ key: 'name', order: 'ASC' }], limit: 100 };
  const middle = await searchAccounts(db, none, { ...byName, offset: Math.floor(ACCOUNTS / 2) });
  const searches: [string, Partial<AccountFilters>, PagePosition][] = [
    ['first page', {}, byName],
    ['middle page (cursor)', {}, { ...byName, after: middle.first }],
    ['archived', { archived: true }, byName],
    ['name contains "petty cash"', { name: 'petty cash' }, byName],
  ];
  log('| search | flag | p50 ms | p99 ms | rows | total |');
  log('|---|---|---:|---:|---:|---:|');
  const variants = [undefined, ...FLAGS];
  for (const [name, filters, position] of searches) {
    // Without a flag and with each alternate run by run, so that all meet the same moments of a busy machine.
    const times: number[][] = variants.map(() => []);
    const pages: (Page | undefined)[] = variants.map(() => undefined);
    for (let run = -1; run < RUNS; run++) {
      for (const [i, flag] of variants.entries()) {
        const spec = { ...none, ...filters, ...(flag && { [flag]: true }) };
        const start = process.hrtime.bigint();
        pages[i] = await searchAccounts(db, spec, position);
        // The first run of each warms its plan and pages and is not counted.
        if (run >= 0) times[i]?.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    for (const [i, flag] of variants.entries()) {
      const sorted = [...(times[i] ?? [])].sort((a, b) => a - b);
      const page = pages[i] as Page;
      const rows = (JSON.parse(page.json) as unknown[]).length;
      const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? Number.NaN;
      log(
        `| ${name} | ${flag ?? 'none'} | ${median(sorted).toFixed(2)} | ${p99.toFixed(2)} | ${rows} | ${(page.total ?? 0).toLocaleString('en')} |`,
      );
    }
  }
}

/** BENCH_EXCLUDE_REUSE=1: times the searches again on the database the last run seeded. */
async function reuse() {
  const db = await openDatabase({ databaseUrl: databaseUrl(), dataDir: '' });
  try {
    const [largest] = await db.query<{ companyId: string }>(
      'SELECT company_id AS "companyId" FROM account_counts GROUP BY company_id ORDER BY sum(n) DESC LIMIT 1',
    );
    if (!largest) throw new Error(`${DATABASE} holds no accounts: run without BENCH_EXCLUDE_REUSE first`);
    await report(db, largest.companyId);
  } finally {
    await db.close();
  }
}

async function recreateDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return databaseUrl();
}

function databaseUrl(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

function log(line: string) {
  process.stdout.write(`${line}\n`);
}

await main();
