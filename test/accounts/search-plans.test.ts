// A filtered search reads the accounts that match, not the whole company, whatever the planner
// guesses. Without the match set found first, a name substring that the statistics take for common
// walks the name index through every account before the matches (2.7 s at 1,000,000 accounts);
// without the code indexes' terms, a code filter scans the table; without the index of archived
// accounts and the counters' say, a company's few archived accounts are reached by walking all of
// it. A smaller company's name search reads none of the large company's rows (at a million accounts
// the company-led trigram index is what keeps it cheap: the bench measures that,
// docs/performance.md). A name search that matches most accounts tests the names in the name index
// alone and reads from the table only its page.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type AccountFilters, searchAccounts } from '../../src/accounts/store.ts';
import type { Database, Queryable } from '../../src/db/database.ts';
import { openTestDatabase } from '../support/database.ts';
import { explainAnalyzed, type PlanNode } from '../support/explain.ts';

const ACCOUNTS = 20_000;
const MATCHES = 1_000;
const ARCHIVED = 10;
let db: Database;
const companyId = randomUUID();
// A smaller company beside it, with the same kind of names: 2,000 accounts, 10 of them "petty cash".
// All 2,000 are archived, so that the statistics take archived accounts for common in every company.
const smallCompanyId = randomUUID();
const SMALL_ACCOUNTS = 2_000;
const SMALL_MATCHES = 10;

before(async () => {
  db = await openTestDatabase();
  // The matches sort last by name and make up 5 % of the rows, so the statistics (which cover the whole
  // table at this size) call the substring common and a walk of the name index looks cheap.
  await db.query(
    `INSERT INTO accounts (company_id, external_id, name, code, archived)
     SELECT $1::uuid, 'ACC-' || i, CASE WHEN i > $2::int THEN 'Zz petty cash ' ELSE 'Account ' END || lpad(i::text, 6, '0'),
       lpad(i::text, 6, '0'), i % $4::int = 1
     FROM generate_series(1, $3::int) AS i`,
    [companyId, ACCOUNTS - MATCHES, ACCOUNTS, ACCOUNTS / ARCHIVED],
  );
  await db.query(
    `INSERT INTO accounts (company_id, external_id, name, archived)
     SELECT $1::uuid, 'ACC-' || i, CASE WHEN i % $3::int = 0 THEN 'Zz petty cash ' ELSE 'Account ' END || i, true
     FROM generate_series(1, $2::int) AS i`,
    [smallCompanyId, SMALL_ACCOUNTS, SMALL_ACCOUNTS / SMALL_MATCHES],
  );
  // As on a settled table: the visibility map lets an index-only scan skip the table.
  await vacuumUntilAllVisible();
});

/**
 * VACUUM ANALYZE until the visibility map covers the whole table, as on a settled one: the planner
 * costs an index-only scan by it, and the walk skips the table by it. VACUUM marks a page all-visible
 * only when no transaction older than its rows is open on the server, which the other test files
 * running beside this one on a shared PostgreSQL may briefly hold; there is nothing to wait on but
 * that state, so it is looked at again.
 */
async function vacuumUntilAllVisible(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await db.exec('VACUUM ANALYZE accounts');
    const [row] = await db.query<{ settled: boolean; pages: number; visible: number }>(
      `SELECT relallvisible >= relpages AS settled, relpages AS pages, relallvisible AS visible
       FROM pg_class WHERE oid = 'accounts'::regclass`,
    );
    if (row?.settled) return;
    if (Date.now() > deadline) throw new Error(`VACUUM left ${row?.visible} of ${row?.pages} pages all-visible`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
after(() => db.close());

const NO_FILTERS: AccountFilters = {
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

/** Accounts the page statement of a search looked at, from its executed plan. */
async function rowsExamined(filters: Partial<AccountFilters>, sortKey: string): Promise<number> {
  const statement = await pageStatement({ ...NO_FILTERS, ...filters }, sortKey);
  return examined(await explain(statement.sql, statement.params));
}

function explain(sql: string, params: readonly unknown[], on: Queryable = db): Promise<PlanNode> {
  return explainAnalyzed(on, sql, params);
}

function examined(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'accounts'
      ? node['Actual Rows'] * node['Actual Loops'] +
        (node['Rows Removed by Filter'] ?? 0) +
        (node['Rows Removed by Index Recheck'] ?? 0)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + examined(child), 0);
}

/** The index conditions of a plan, every node's. */
function indexConditions(node: PlanNode): string[] {
  return [...(node['Index Cond'] ? [node['Index Cond']] : []), ...(node.Plans ?? []).flatMap(indexConditions)];
}

/** Every node of a plan. */
function nodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodes)];
}

/** The page statement a search sends: its last, caught on its way to the database. */
async function pageStatement(
  filters: AccountFilters,
  sortKey: string,
  order: 'ASC' | 'DESC' = 'ASC',
): Promise<{ sql: string; params: readonly unknown[] }> {
  let caught: { sql: string; params: readonly unknown[] } | undefined;
  const catcher: Queryable = {
    query: (sql, params = [], options) => {
      caught = { sql, params };
      return db.query(sql, params, options);
    },
    exec: (sql) => db.exec(sql),
    notifyAfterCommit: db.notifyAfterCommit,
  };
  await searchAccounts(catcher, filters, { sort: [{ key: sortKey, order }], limit: 100 });
  assert.ok(caught, 'the search sent a statement');
  return caught;
}

describe('searching a large company', { timeout: 60_000 }, () => {
  it('reads for a name substring what counting its matches reads, though the statistics call it common', async () => {
    const counting = await explain(
      `SELECT count(*) FROM accounts
       WHERE company_id = $1 AND name_folded LIKE '%petty cash%'`,
      [companyId],
    );
    const toCount = examined(counting);
    for (const sortKey of ['name', 'createdAt']) {
      const rows = await rowsExamined({ name: 'petty cash' }, sortKey);
      assert.ok(rows <= toCount * 1.2, `sorted by ${sortKey}: ${rows} rows examined; counting the matches: ${toCount}`);
    }
  });

  // Its entry in the name index would be nearly the whole table: reading it only slows the scan.
  it('does not look a company that holds most accounts up in the name index', async () => {
    const statement = await pageStatement({ ...NO_FILTERS, name: 'petty cash' }, 'name');
    // At this table's size a sequential scan costs less still; without one, the plan shows the lookup.
    const plan = await db.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off');
      return explain(statement.sql, statement.params, tx);
    });
    const conditions = indexConditions(plan);
    assert.ok(conditions.length > 0, 'an index finds the matches');
    // The trigram index's conditions; a walk of the company's sort index is planned beside them.
    const trigrams = conditions.filter((condition) => condition.includes('name_folded'));
    assert.ok(trigrams.length > 0, conditions.join('; '));
    assert.ok(!trigrams.some((condition) => condition.includes('company_id')), conditions.join('; '));
  });

  it("reads for a smaller company's name search none of the other company's matches", async () => {
    const rows = await rowsExamined({ companyId: smallCompanyId, name: 'petty cash' }, 'name');
    // The company's rows at most, and the page's matches read back by their ctid once sorted.
    assert.ok(
      rows <= SMALL_ACCOUNTS + SMALL_MATCHES,
      `${rows} rows examined; the company has ${SMALL_ACCOUNTS} accounts`,
    );
    const page = await searchAccounts(
      db,
      { ...NO_FILTERS, companyId: smallCompanyId, name: 'petty cash' },
      { sort: [{ key: 'name', order: 'ASC' }], limit: 100 },
    );
    assert.equal(page.total, SMALL_MATCHES);
  });

  it('walks the name index alone when most accounts match, and reads the table for the page only', async () => {
    // "account" is in 19,000 of the 20,000 names: far more than the √(limit·N) that are sorted instead.
    for (const order of ['ASC', 'DESC'] as const) {
      const statement = await pageStatement({ ...NO_FILTERS, name: 'account' }, 'name', order);
      const plan = nodes(await explain(statement.sql, statement.params));
      const walks = plan.filter((node) => node.Filter?.includes('strpos') && node['Actual Rows'] > 0);
      assert.equal(walks.length, 1, `one walk, ${order}: ${walks.map((node) => node['Node Type']).join(', ')}`);
      const [walk] = walks;
      assert.equal(walk?.['Node Type'], 'Index Only Scan', `${order}: the name tested in the index`);
      assert.equal(walk?.['Heap Fetches'], 0, `${order}: no row of the table read to test it`);
      // The page's 100 rows and the one that says another page follows, each read back by its id.
      const readBack = plan.filter((node) => node['Index Name'] === 'accounts_pkey');
      const rowsRead = readBack.reduce((sum, node) => sum + node['Actual Rows'] * node['Actual Loops'], 0);
      assert.ok(rowsRead <= 102, `${order}: ${rowsRead} rows read back`);
    }
  });

  it('reads for the archived filter the archived accounts, when they are few', async () => {
    const rows = await rowsExamined({ archived: true }, 'name');
    assert.ok(rows <= ARCHIVED * 1.2, `${rows} rows examined for ${ARCHIVED} archived accounts`);
    const page = await searchAccounts(
      db,
      { ...NO_FILTERS, archived: true },
      { sort: [{ key: 'name', order: 'ASC' }], limit: 100 },
    );
    assert.equal(page.total, ARCHIVED);
    assert.equal((JSON.parse(page.json) as { archived: boolean }[]).filter((a) => a.archived).length, ARCHIVED);
  });

  it('finds an account by its code through the code index', async () => {
    const rows = await rowsExamined({ code: '004711' }, 'name');
    assert.ok(rows <= 10, `${rows} rows examined for one code`);
  });

  it('leaves out the accounts contra accounts use reading only the rows it leaves out more', async () => {
    const before = await rowsExamined({}, 'name');
    // The first 25 accounts by name, which the first page must step over, and some of the small company's.
    await db.query(
      `INSERT INTO contra_accounts (company_id, kind, currency, account_id)
       SELECT company_id, 'ADDITIONAL_CURRENCY_WALLET', 'C' || lpad(n::text, 2, '0'), id FROM (
         SELECT company_id, id, row_number() OVER (PARTITION BY company_id ORDER BY name, id) AS n FROM accounts
       ) numbered WHERE n <= 25`,
    );
    const rows = await rowsExamined({ excludeIfAssignedToContraAccount: true }, 'name');
    assert.ok(rows <= before + 25, `${rows} rows examined; ${before} without the flag`);
    const page = await searchAccounts(
      db,
      { ...NO_FILTERS, excludeIfAssignedToContraAccount: true },
      { sort: [{ key: 'name', order: 'ASC' }], limit: 100 },
    );
    assert.equal(page.total, ACCOUNTS - 25);
    assert.equal((JSON.parse(page.json) as { name: string }[])[0]?.name, 'Account 000026');
  });

  it('still answers the matching accounts in order', async () => {
    const page = await searchAccounts(
      db,
      { ...NO_FILTERS, name: 'PETTY CASH 01990' },
      { sort: [{ key: 'name', order: 'ASC' }], limit: 5 },
    );
    const names = (JSON.parse(page.json) as { name: string }[]).map((account) => account.name);
    assert.deepEqual(names, [
      'Zz petty cash 019900',
      'Zz petty cash 019901',
      'Zz petty cash 019902',
      'Zz petty cash 019903',
      'Zz petty cash 019904',
    ]);
    assert.equal(page.total, 10);
    assert.equal(page.hasNextPage, true);
  });
});

describe('leaving out the accounts categories book to', { timeout: 60_000 }, () => {
  const ASSIGNED = 1_000;
  before(async () => {
    // A category on every other account of the first 2,000 by name: the first page walks 200 accounts.
    const [group] = await db.query<{ id: string }>(
      `INSERT INTO bookkeeping_category_groups (company_id, name, type, archived) VALUES ($1, 'Plans', 'OTHER', false) RETURNING id`,
      [companyId],
    );
    await db.query(
      `INSERT INTO bookkeeping_categories (company_id, name, group_id, account_id, archived)
       SELECT $1, 'Category ' || n, $2, id, false
       FROM (SELECT id, row_number() OVER (ORDER BY name, id) AS n FROM accounts WHERE company_id = $1) ordered
       WHERE n <= $3::int * 2 AND n % 2 = 1`,
      [companyId, group?.id, ASSIGNED],
    );
    await db.exec('ANALYZE bookkeeping_categories');
  });

  it('walks the accounts it meets and reads the categories, not the whole company', async () => {
    const rows = await rowsExamined({ excludeIfAssignedToCategory: true }, 'name');
    // About 200 walked for the page, and the 1,000 assigned ones once for the total.
    assert.ok(rows <= ASSIGNED + 300, `${rows} rows examined`);
    const page = await searchAccounts(
      db,
      { ...NO_FILTERS, excludeIfAssignedToCategory: true },
      { sort: [{ key: 'name', order: 'ASC' }], limit: 100 },
    );
    assert.equal(page.total, ACCOUNTS - ASSIGNED);
    assert.equal((JSON.parse(page.json) as unknown[]).length, 100);
  });
});
