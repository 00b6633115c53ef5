// Fills companies with many accounts, fast: the accounts indexes are dropped, the rows inserted by
// generate_series in batches, the indexes rebuilt from their own definitions, and each company's
// counter set once, instead of maintaining the indexes and a trigger row by row.
import type { Database } from '../src/db/database.ts';

/** Words of the names: each (qualifier, noun) pair names about 1 account in 2,000. */
const QUALIFIERS = (
  'Accrued,Prepaid,Deferred,Current,Long-term,Short-term,Petty,Operating,Capital,Retained,Unearned,' +
  'Allowance for,Provision for,Accumulated,Intercompany,Foreign,Domestic,Trade,Other,Sundry,Customer,' +
  'Supplier,Employee,Payroll,Sales,Purchase,Marketing,Freight,Insurance,Rent,Utilities,Travel,Training,' +
  'Legal,Consulting,Software,Hardware,Vehicle,Bank,Interest,Dividend,Royalty,Warranty,Inventory,' +
  'Goodwill,Pension,Bonus,Commission,Grant,Suspense'
).split(',');
const NOUNS = (
  'Cash,Revenue,Expenses,Payables,Receivables,Deposits,Reserves,Liabilities,Assets,Equity,Income,Costs,' +
  'Fees,Charges,Credits,Debits,Advances,Loans,Accruals,Provisions,Taxes,Duties,Discounts,Rebates,' +
  'Refunds,Claims,Allowances,Adjustments,Write-offs,Gains,Losses,Transfers,Settlements,Clearing,' +
  'Holdings,Investments,Securities,Depreciation,Amortisation,Balances'
).split(',');

/** A name substring that matches about one account in 2,000 (0.05 %). */
export const NAME_SEARCH = 'petty cash';

export interface SeedOptions {
  /** Each company and how many accounts it gets, all with names of the same kind. */
  companies: { companyId: string; count: number }[];
  batchSize?: number;
  /** Every `every`-th account of each company gets ` text` at the end of its name (0: none). */
  marked?: { every: number; text: string };
  /** Progress, e.g. for a console line: the rows inserted so far, all companies together. */
  onBatch?: (inserted: number) => void;
}

const sqlArray = (words: string[]) => `ARRAY[${words.map((w) => `'${w.replaceAll("'", "''")}'`).join(', ')}]`;

// Row i: a qualifier and a noun picked by two hashes of i, then i itself, so names are distinct and
// their order is unrelated to the physical order of the rows (as in a real chart of accounts).
// About every 10th account has no code, every 20th is archived, every 5th carries metadata.
const INSERT_BATCH = `
  INSERT INTO accounts (company_id, external_id, name, code, archived, tax_code_external_id, metadata)
  SELECT $1::uuid,
    'ACC-' || lpad(i::text, 7, '0'),
    (${sqlArray(QUALIFIERS)})[1 + abs(hashint4(i)) % ${QUALIFIERS.length}] || ' '
      || (${sqlArray(NOUNS)})[1 + abs(hashint4(-i)) % ${NOUNS.length}] || ' ' || lpad(i::text, 7, '0')
      || CASE WHEN $4::int > 0 AND i % $4::int = 0 THEN ' ' || $5::text ELSE '' END,
    CASE WHEN i % 10 = 3 THEN NULL ELSE lpad(((i::bigint * 7919) % 10000000)::text, 7, '0') END,
    i % 20 = 7,
    CASE WHEN i % 3 = 0 THEN 'VAT' || (i % 4)::text END,
    CASE WHEN i % 5 = 0 THEN jsonb_build_object('source', 'bench', 'row', i) END
  FROM generate_series($2::int, $3::int) AS i`;

// The triggers that keep account_counts (migrations 0001 and 0023), off while seeding: the counts
// are added afterwards in one statement.
const COUNT_TRIGGERS = ['accounts_count', 'accounts_count_inserts'];

export async function seedAccounts(db: Database, options: SeedOptions): Promise<void> {
  const { companies, batchSize = 100_000 } = options;
  const indexes = await db.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
     WHERE i.tablename = 'accounts' AND i.schemaname = current_schema()
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const index of indexes) await db.exec(`DROP INDEX ${index.name}`);
  for (const trigger of COUNT_TRIGGERS) await db.exec(`ALTER TABLE accounts DISABLE TRIGGER ${trigger}`);

  let inserted = 0;
  for (const { companyId, count } of companies) {
    for (let first = 1; first <= count; first += batchSize) {
      const last = Math.min(count, first + batchSize - 1);
      await db.query(INSERT_BATCH, [companyId, first, last, options.marked?.every ?? 0, options.marked?.text ?? '']);
      inserted += last - first + 1;
      options.onBatch?.(inserted);
    }
  }

  for (const trigger of COUNT_TRIGGERS) await db.exec(`ALTER TABLE accounts ENABLE TRIGGER ${trigger}`);
  // The counters the triggers would have kept, added through the schema's own function.
  await db.query(
    `SELECT account_counts_add(company_id, archived, count(*)::int) FROM accounts
     WHERE company_id = ANY($1::uuid[]) GROUP BY company_id, archived`,
    [companies.map((company) => company.companyId)],
  );
  await db.exec("SET maintenance_work_mem = '512MB'");
  for (const index of indexes) await db.exec(index.definition);
  // VACUUM sets the visibility map, so index-only scans skip the heap as they would on a settled table.
  await db.exec('VACUUM ANALYZE accounts');
  await db.exec('ANALYZE account_counts');
  // The load wrote about a gigabyte: written out now rather than by the checkpointer while the
  // first scenarios are timed.
  await db.exec('CHECKPOINT');
}
