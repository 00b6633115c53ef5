// The aggregated view's answers are bounded (docs/decisions/bounded-answers.md): a group shows at most
// CATEGORIES_PER_GROUP categories and says whether it has more, the category search lists the rest
// in the same order, and a page of groups ends at the page budget.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CATEGORIES_PER_GROUP, GROUPS_PER_PAGE } from '../../src/bookkeeping-categories/aggregated-store.ts';
import { PAGE_BYTE_BUDGET } from '../../src/db/page-statement.ts';
import { AGGREGATED, CATEGORIES, startBookkeepingTestApp } from './support.ts';

const { t, company, token, make } = await startBookkeepingTestApp();

// "Big": 5,000 categories, every third archived. "Full": exactly CATEGORIES_PER_GROUP. "Wide 00".."Wide 39":
// CATEGORIES_PER_GROUP + 1 categories of 200-character names each, 40 × ~40 KB: more than a page holds.
const BIG = 5000;
const WIDE_GROUPS = 40;
const groups: Record<string, string> = {};
/** The Big group's category ids, in name-then-id order, and those not archived. */
let bigIds: string[] = [];
let bigActiveIds: string[] = [];

before(async () => {
  const account = await make.account({ name: 'Expenses', code: '6000' });
  await t.db.query(
    `INSERT INTO bookkeeping_category_groups (company_id, name, type, archived)
     SELECT $1::uuid, name, 'OTHER', false
     FROM unnest(ARRAY['Big', 'Full'] || ARRAY(SELECT 'Wide ' || lpad(i::text, 2, '0') FROM generate_series(0, $2 - 1) AS i)) AS name`,
    [company, WIDE_GROUPS],
  );
  // GROUPS_PER_PAGE + 20 travel groups without categories: small enough for 1,000 a page.
  await t.db.query(
    `INSERT INTO bookkeeping_category_groups (company_id, name, type, archived)
     SELECT $1::uuid, 'Trip ' || lpad(i::text, 3, '0'), 'TRAVEL', false FROM generate_series(1, $2) AS i`,
    [company, GROUPS_PER_PAGE + 20],
  );
  const rows = await t.db.query<{ id: string; name: string }>(
    'SELECT id, name FROM bookkeeping_category_groups WHERE company_id = $1',
    [company],
  );
  for (const row of rows) groups[row.name] = row.id;
  // Category names repeat (i % 1000), so that the id breaks ties in the order.
  await t.db.query(
    `INSERT INTO bookkeeping_categories (company_id, name, group_id, account_id, archived)
     SELECT $1::uuid, 'Category ' || lpad((i % 1000)::text, 4, '0'), $2::uuid, $3::uuid, i % 3 = 0
     FROM generate_series(1, $4) AS i
     UNION ALL
     SELECT $1, 'Category ' || lpad(i::text, 4, '0'), $5::uuid, $3, false FROM generate_series(1, $6) AS i
     UNION ALL
     SELECT $1, lpad(i::text, 200, 'x'), g.id, $3, false
     FROM bookkeeping_category_groups g, generate_series(1, $6 + 1) AS i
     WHERE g.company_id = $1 AND g.name LIKE 'Wide %'`,
    [company, groups.Big, account.id, BIG, groups.Full, CATEGORIES_PER_GROUP],
  );
  const big = await t.db.query<{ id: string; archived: boolean }>(
    'SELECT id, archived FROM bookkeeping_categories WHERE group_id = $1 ORDER BY name, id',
    [groups.Big],
  );
  bigIds = big.map((c) => c.id);
  bigActiveIds = big.filter((c) => !c.archived).map((c) => c.id);
});

interface AggregatedPage {
  data: { id: string; name: string; categories: { id: string }[]; hasMoreCategories: boolean }[];
  pagination: { hasNextPage: boolean; endCursor?: string };
}

async function aggregated(body: Record<string, unknown>, query = '') {
  const response = await t.request<AggregatedPage>('POST', `${AGGREGATED}${query}`, {
    token,
    body: { companyId: company, ...body },
  });
  assert.equal(response.status, 200, response.text);
  return { page: response.body, bytes: Buffer.byteLength(response.text) };
}

/** The group's categories from `offset` on, through the category search, page after page. */
async function restOfGroup(groupId: string, archived: boolean | null, offset: number): Promise<string[]> {
  const ids: string[] = [];
  let query = `?limit=1000&offset=${offset}`;
  for (;;) {
    const response = await t.request('POST', `${CATEGORIES}:search${query}`, {
      token,
      body: { companyId: company, groupIds: [groupId], archived },
    });
    assert.equal(response.status, 200, response.text);
    ids.push(...response.body.data.map((c: { id: string }) => c.id));
    if (!response.body.pagination.hasNextPage) return ids;
    query = `?limit=1000&after=${response.body.pagination.endCursor}`;
  }
}

describe('the aggregated view of a group with many categories', { timeout: 60_000 }, () => {
  it(`shows its first ${CATEGORIES_PER_GROUP} and says it has more; the category search lists the rest in the same order`, async () => {
    const { page, bytes } = await aggregated({ ids: [groups.Big] });
    const [big] = page.data;
    assert.ok(big);
    assert.deepEqual(
      big.categories.map((c) => c.id),
      bigIds.slice(0, CATEGORIES_PER_GROUP),
    );
    assert.equal(big.hasMoreCategories, true);
    // 5,000 categories were about 1 MB in one group; 100 are about 20 KB.
    assert.ok(bytes < 64 * 1024, `${bytes} bytes`);
    const rest = await restOfGroup(groups.Big as string, null, big.categories.length);
    assert.deepEqual([...big.categories.map((c) => c.id), ...rest], bigIds);
  });

  it('counts only the categories categoryArchived picks, and the rest are found with the same filter', async () => {
    const { page } = await aggregated({ ids: [groups.Big], categoryArchived: false });
    const [big] = page.data;
    assert.ok(big);
    assert.deepEqual(
      big.categories.map((c) => c.id),
      bigActiveIds.slice(0, CATEGORIES_PER_GROUP),
    );
    assert.equal(big.hasMoreCategories, true);
    const rest = await restOfGroup(groups.Big as string, false, CATEGORIES_PER_GROUP);
    assert.deepEqual([...big.categories.map((c) => c.id), ...rest], bigActiveIds);
  });

  it(`has no more with exactly ${CATEGORIES_PER_GROUP}, and more with one beyond`, async () => {
    const { page } = await aggregated({ ids: [groups.Full, groups['Wide 00']] });
    const byName = Object.fromEntries(page.data.map((g) => [g.name, g]));
    assert.equal(byName.Full?.categories.length, CATEGORIES_PER_GROUP);
    assert.equal(byName.Full?.hasMoreCategories, false);
    assert.equal(byName['Wide 00']?.categories.length, CATEGORIES_PER_GROUP);
    assert.equal(byName['Wide 00']?.hasMoreCategories, true);
  });

  it(`holds at most ${GROUPS_PER_PAGE} groups a page whatever the limit, and pages on exactly`, async () => {
    const first = await aggregated({ types: ['TRAVEL'] }, '?limit=1000');
    assert.equal(first.page.data.length, GROUPS_PER_PAGE);
    assert.equal(first.page.pagination.hasNextPage, true);
    const second = await aggregated({ types: ['TRAVEL'] }, `?limit=1000&after=${first.page.pagination.endCursor}`);
    assert.equal(second.page.data.length, 20);
    assert.equal(second.page.pagination.hasNextPage, false);
  });

  it('pages groups within the byte budget at limit=1000, every group once', async () => {
    const seen: string[] = [];
    let query = '?limit=1000';
    let pages = 0;
    for (;;) {
      const { page, bytes } = await aggregated({}, query);
      pages++;
      // A page holds groups while those before hold less than the budget: at most the budget, one
      // group of 100 categories of 200-character names (about 40 KB) and the envelope.
      assert.ok(bytes <= PAGE_BYTE_BUDGET + 48 * 1024, `page ${pages}: ${bytes} bytes`);
      seen.push(...page.data.map((g) => g.name));
      if (!page.pagination.hasNextPage) break;
      query = `?limit=1000&after=${page.pagination.endCursor}`;
    }
    assert.deepEqual(seen, Object.keys(groups).sort());
    assert.ok(pages >= 2, `${pages} pages`);
  });
});
