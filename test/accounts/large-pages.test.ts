import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PAGE_BYTE_BUDGET } from '../../src/db/page-statement.ts';
import { startCompanyTestApp } from '../support/company-app.ts';

// A page ends at `limit` rows or once it holds PAGE_BYTE_BUDGET bytes of row JSON, so that one
// request cannot make the service hold a page of 1,000 accounts of 64 KiB metadata each
// (docs/decisions/pagination.md). Paging on from `endCursor` still meets every row once.

const { t, company, token } = await startCompanyTestApp();
/** The accounts in name order, with the bytes of the JSON each page row is. */
const accounts: { id: string; bytes: number }[] = [];

// Metadata of 60 KiB, 200 B, 60 KiB, 30 KiB and none, in turn: pages are cut after a varying number of rows.
const METADATA_BYTES = [60 * 1024, 200, 60 * 1024, 30 * 1024, 0];
const ACCOUNTS = 80;

before(async () => {
  // Names `Account 000`, `Account 001`, …; metadata by the turn of METADATA_BYTES.
  await t.db.query(
    `INSERT INTO accounts (company_id, external_id, name, archived, metadata)
     SELECT $1, 'ext-' || i, 'Account ' || lpad(i::text, 3, '0'), false,
       CASE WHEN sizes[1 + i % cardinality(sizes)] > 0
         THEN jsonb_build_object('note', repeat('x', sizes[1 + i % cardinality(sizes)])) END
     FROM generate_series(0, $2 - 1) AS i, (SELECT $3::int[] AS sizes) AS metadata_sizes`,
    [company, ACCOUNTS, METADATA_BYTES],
  );
  const rows = await t.db.query<{ id: string; bytes: number }>(
    `SELECT id, octet_length(api_json) AS bytes FROM accounts WHERE company_id = $1 ORDER BY name, id`,
    [company],
  );
  accounts.push(...rows.map((row) => ({ id: row.id, bytes: Number(row.bytes) })));
});

interface Page {
  data: { id: string }[];
  pagination: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string; endCursor?: string };
}

async function search(query: string, limit = 1000): Promise<Page> {
  const response = await t.request('POST', `/v1-beta/accounts:search?limit=${limit}${query}`, {
    token,
    body: { companyId: company },
  });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/**
 * Holds a page to the budget: the rows before its farthest from the cursor (its last, or its first
 * for `before`) hold less, and a page with more to come in its direction holds at least the budget.
 */
function assertWithinBudget(page: Page, moreInThatDirection: boolean, backwards = false): void {
  const bytes = page.data.map((row) => accounts.find((account) => account.id === row.id)?.bytes ?? Number.NaN);
  const all = bytes.reduce((sum, b) => sum + b, 0);
  const farthest = (backwards ? bytes[0] : bytes.at(-1)) as number;
  assert.ok(page.data.length >= 1);
  assert.ok(all - farthest < PAGE_BYTE_BUDGET, `${all} bytes in ${bytes.length} rows`);
  if (moreInThatDirection) assert.ok(all >= PAGE_BYTE_BUDGET, `cut at ${all} bytes, short of the budget`);
}

describe('pages of large accounts', () => {
  it('stop at the byte budget; walking forward by endCursor meets every row once, hasNextPage exact', async () => {
    const seen: string[] = [];
    let page = await search('');
    let pages = 1;
    assert.equal(page.pagination.hasPreviousPage, false);
    for (;;) {
      seen.push(...page.data.map((row) => row.id));
      const { hasNextPage, endCursor } = page.pagination;
      assert.equal(hasNextPage, seen.length < ACCOUNTS, `hasNextPage after ${seen.length} rows`);
      assertWithinBudget(page, hasNextPage);
      if (!hasNextPage) break;
      page = await search(`&after=${endCursor}`);
      pages++;
      assert.equal(page.pagination.hasPreviousPage, true);
    }
    assert.deepEqual(
      seen,
      accounts.map((account) => account.id),
    );
    const total = accounts.reduce((sum, account) => sum + account.bytes, 0);
    assert.ok(pages >= Math.ceil(total / (PAGE_BYTE_BUDGET + 64 * 1024)), `${pages} pages for ${total} bytes`);
  });

  it('stop at the byte budget backwards too: walking by startCursor from the last row meets every row once', async () => {
    let page = await search('');
    while (page.pagination.hasNextPage) page = await search(`&after=${page.pagination.endCursor}`);
    const seen = [page.data.at(-1)?.id];
    let cursor = page.pagination.endCursor;
    do {
      page = await search(`&before=${cursor}`);
      assert.equal(page.pagination.hasNextPage, true);
      assertWithinBudget(page, page.pagination.hasPreviousPage, true);
      seen.unshift(...page.data.map((row) => row.id));
      cursor = page.pagination.startCursor;
    } while (page.pagination.hasPreviousPage);
    assert.deepEqual(
      seen,
      accounts.map((account) => account.id),
    );
  });

  it('stop at the byte budget after an offset, with hasNextPage exact', async () => {
    const seen: string[] = [];
    for (;;) {
      const page = await search(`&offset=${seen.length}`);
      seen.push(...page.data.map((row) => row.id));
      assert.equal(page.pagination.hasPreviousPage, seen.length > page.data.length);
      assert.equal(page.pagination.hasNextPage, seen.length < ACCOUNTS);
      assertWithinBudget(page, page.pagination.hasNextPage);
      if (!page.pagination.hasNextPage) break;
    }
    assert.deepEqual(
      seen,
      accounts.map((account) => account.id),
    );
  });

  it('hold up to `limit` rows while they stay under the budget', async () => {
    const small = await search('', 3);
    assert.equal(small.data.length, 3);
    assert.deepEqual(
      small.data.map((row) => row.id),
      accounts.slice(0, 3).map((account) => account.id),
    );
  });
});
