import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';

// Keyset pagination against an in-memory sort of the same rows (docs/decisions/pagination.md): for
// every sort key and order, walking all pages forwards with `after` and backwards with `before`
// yields every row exactly once, in order. Names and codes come from small sets so that ties are
// common, and rows are inserted in batches so that many share created_at and updated_at. Set SEED
// to replay.

const SEED = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 32));
const ORDERS = ['ASC', 'ASC_NULLS_FIRST', 'ASC_NULLS_LAST', 'DESC', 'DESC_NULLS_FIRST', 'DESC_NULLS_LAST'] as const;
const KEYS = ['name', 'code', 'externalId', 'id', 'createdAt', 'updatedAt'] as const;
// ASCII only, so that JavaScript's < is PostgreSQL's COLLATE "C": capitals sort before small letters.
const NAMES = ['alpha', 'Alpha', 'beta', 'Beta', 'gamma', 'a', 'b b'];
const CODES = ['', '10', '2', 'A', 'a', 'B'];
const LIMIT = 7;

type Key = (typeof KEYS)[number];
type Order = (typeof ORDERS)[number];
interface Sort {
  key: Key;
  order: Order;
}

/** The sort values of one account, read from the database. */
interface Row {
  id: string;
  name: string;
  code: string | null;
  externalId: string;
  createdAt: bigint;
  updatedAt: bigint;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const randomCode = () => (random() < 0.4 ? null : pick(CODES));
let serial = 0;
const randomExternalId = () => `${pick(['x', 'X', 'y', 'x-'])}${Math.floor(random() * 50)}-${serial++}`;

/** The order the API promises: nulls as PostgreSQL places them, then `id` ASC breaks ties. */
function compareRows(sort: Sort[]): (a: Row, b: Row) => number {
  const keys = sort.some((s) => s.key === 'id') ? sort : [...sort, { key: 'id' as const, order: 'ASC' as const }];
  return (a, b) => {
    for (const { key, order } of keys) {
      const [x, y] = [a[key], b[key]];
      if (x === y) continue;
      const nullsFirst = order === 'DESC' || order.endsWith('NULLS_FIRST');
      if (x === null) return nullsFirst ? -1 : 1;
      if (y === null) return nullsFirst ? 1 : -1;
      const ascending = x < y ? -1 : 1;
      return order.startsWith('DESC') ? -ascending : ascending;
    }
    return 0;
  };
}

let t: TestApp;
let token: string;

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

async function newCompany(): Promise<string> {
  const company = randomUUID();
  token = await t.token({ companies: [company] });
  return company;
}

/** Inserts `count` random accounts in one statement, so they share created_at and updated_at. */
async function insertBatch(company: string, count: number): Promise<void> {
  const rows = Array.from({ length: count }, () => ({
    name: pick(NAMES),
    code: randomCode(),
    externalId: randomExternalId(),
    archived: random() < 0.2,
  }));
  await t.db.query(
    `INSERT INTO accounts (company_id, external_id, name, code, archived)
     SELECT $1, r.external_id, r.name, r.code, r.archived
     FROM unnest($2::text[], $3::text[], $4::text[], $5::boolean[]) AS r(external_id, name, code, archived)`,
    [
      company,
      rows.map((r) => r.externalId),
      rows.map((r) => r.name),
      rows.map((r) => r.code),
      rows.map((r) => r.archived),
    ],
  );
}

async function createThroughApi(company: string): Promise<string> {
  const response = await t.request('POST', '/v1-beta/accounts', {
    token,
    body: {
      companyId: company,
      externalId: randomExternalId(),
      name: pick(NAMES),
      code: randomCode(),
      archived: random() < 0.2,
    },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.data.id;
}

async function readRows(company: string, archived?: boolean): Promise<Row[]> {
  const rows = await t.db.query<Omit<Row, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string }>(
    `SELECT id, name, code, external_id AS "externalId",
       (extract(epoch FROM created_at) * 1000000)::bigint::text AS "createdAt",
       (extract(epoch FROM updated_at) * 1000000)::bigint::text AS "updatedAt"
     FROM accounts WHERE company_id = $1 AND ($2::boolean IS NULL OR archived = $2)`,
    [company, archived ?? null],
  );
  return rows.map((r) => ({ ...r, createdAt: BigInt(r.createdAt), updatedAt: BigInt(r.updatedAt) }));
}

interface PageBody {
  data: { id: string }[];
  pagination: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string; endCursor?: string };
}

async function fetchPage(company: string, sort: Sort[], cursor: string, filters = {}): Promise<PageBody> {
  const keys = sort.map((s) => `sorting_keys=${s.key}`).join('&');
  const orders = sort.map((s) => `sorting_order=${s.order}`).join('&');
  const response = await t.request('POST', `/v1-beta/accounts:search?${keys}&${orders}&limit=${LIMIT}${cursor}`, {
    token,
    body: { companyId: company, ...filters },
  });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const describeSort = (sort: Sort[]) => sort.map((s) => `${s.key} ${s.order}`).join(', ');

/** Walks forwards with `after` from the start and backwards with `before` from the last row. */
async function assertWalks(company: string, sort: Sort[], expected: Row[], filters = {}): Promise<void> {
  const label = `${describeSort(sort)} (SEED=${SEED})`;
  const expectedIds = expected.map((r) => r.id);
  const pages = Math.ceil(expected.length / LIMIT);

  const forwards: string[] = [];
  let cursor = '';
  for (let n = 0; ; n++) {
    assert.ok(n < pages, `${label}: more than ${pages} pages forwards`);
    const page = await fetchPage(company, sort, cursor, filters);
    forwards.push(...page.data.map((a) => a.id));
    assert.equal(page.data.length, Math.min(LIMIT, expected.length - n * LIMIT), `${label}: page ${n} size`);
    assert.equal(page.pagination.hasPreviousPage, n > 0, `${label}: hasPreviousPage of page ${n} forwards`);
    assert.equal(page.pagination.hasNextPage, n < pages - 1, `${label}: hasNextPage of page ${n} forwards`);
    if (!page.pagination.hasNextPage) break;
    cursor = `&after=${page.pagination.endCursor}`;
  }
  assert.deepEqual(forwards, expectedIds, `${label}: forwards`);

  // The last row's cursor, from a page that holds it; every row before it comes back by `before`.
  const lastPage = await fetchPage(company, sort, `&offset=${expected.length - 1}`, filters);
  assert.deepEqual(
    lastPage.data.map((a) => a.id),
    expectedIds.slice(-1),
    `${label}: last row`,
  );
  const backwards: string[] = [];
  cursor = `&before=${lastPage.pagination.startCursor}`;
  const before = expected.length - 1;
  for (let n = 0; ; n++) {
    assert.ok(n < Math.ceil(before / LIMIT), `${label}: too many pages backwards`);
    const page = await fetchPage(company, sort, cursor, filters);
    backwards.unshift(...page.data.map((a) => a.id));
    assert.equal(page.data.length, Math.min(LIMIT, before - n * LIMIT), `${label}: page ${n} size backwards`);
    assert.equal(page.pagination.hasNextPage, true, `${label}: hasNextPage of page ${n} backwards`);
    assert.equal(
      page.pagination.hasPreviousPage,
      backwards.length < before,
      `${label}: hasPreviousPage of page ${n} backwards`,
    );
    if (!page.pagination.hasPreviousPage) break;
    cursor = `&before=${page.pagination.startCursor}`;
  }
  assert.deepEqual([...backwards, ...expectedIds.slice(-1)], expectedIds, `${label}: backwards`);

  // Offset pages are the same slices of the same order, up to and past the end.
  const count = expected.length;
  for (const offset of [1, LIMIT + 3, Math.floor(count / 2), count - 2, count, count + 5]) {
    const page = await fetchPage(company, sort, `&offset=${offset}`, filters);
    const at = `${label}: offset ${offset}`;
    assert.deepEqual(
      page.data.map((a) => a.id),
      expectedIds.slice(offset, offset + LIMIT),
      at,
    );
    assert.equal(page.pagination.hasPreviousPage, count > 0, `${at}: hasPreviousPage`);
    assert.equal(page.pagination.hasNextPage, offset + LIMIT < count, `${at}: hasNextPage`);
  }
}

describe(`keyset pagination matches an in-memory sort (SEED=${SEED})`, () => {
  let company: string;
  let rows: Row[];
  before(async () => {
    company = await newCompany();
    await insertBatch(company, 60);
    for (let i = 0; i < 30; i++) await createThroughApi(company);
    await insertBatch(company, 60);
    rows = await readRows(company);
    assert.equal(rows.length, 150);
    // The data has the ties and nulls the test is about.
    assert.ok(rows.filter((r) => r.code === null).length > 20);
    assert.ok(new Set(rows.map((r) => r.createdAt)).size < 40);
  });

  for (const key of KEYS) {
    it(`sorts by ${key} in every order`, async () => {
      for (const order of ORDERS) {
        const sort = [{ key, order }];
        await assertWalks(company, sort, rows.toSorted(compareRows(sort)));
      }
    });
  }

  const pairs: Sort[][] = [
    [
      { key: 'code', order: 'DESC_NULLS_LAST' },
      { key: 'name', order: 'ASC' },
    ],
    [
      { key: 'name', order: 'DESC' },
      { key: 'code', order: 'ASC_NULLS_FIRST' },
    ],
    [
      { key: 'createdAt', order: 'DESC' },
      { key: 'code', order: 'ASC' },
      { key: 'id', order: 'DESC' },
    ],
  ];
  for (const sort of pairs) {
    it(`sorts by ${describeSort(sort)}`, async () => {
      await assertWalks(company, sort, rows.toSorted(compareRows(sort)));
    });
  }

  it('pages the same way under a filter', async () => {
    const sort: Sort[] = [
      { key: 'code', order: 'ASC' },
      { key: 'updatedAt', order: 'DESC' },
    ];
    const active = await readRows(company, false);
    assert.ok(active.length < rows.length);
    await assertWalks(company, sort, active.toSorted(compareRows(sort)), { archived: false });
  });

  // Archived accounts this few are found first and sorted (searchAccounts' hasFewArchived).
  it('pages the same way for the archived accounts', async () => {
    const sort: Sort[] = [
      { key: 'name', order: 'DESC' },
      { key: 'code', order: 'ASC_NULLS_FIRST' },
    ];
    const archived = await readRows(company, true);
    assert.ok(archived.length > LIMIT && archived.length < rows.length);
    await assertWalks(company, sort, archived.toSorted(compareRows(sort)), { archived: true });
  });

  // A name substring pages through the matches it finds first (fetchPage's matchesFirst).
  it('pages the same way under a name substring', async () => {
    const sort: Sort[] = [
      { key: 'code', order: 'DESC_NULLS_LAST' },
      { key: 'name', order: 'ASC' },
    ];
    const matching = rows.filter((r) => r.name.toLowerCase().includes('lph'));
    assert.ok(matching.length > LIMIT && matching.length < rows.length);
    await assertWalks(company, sort, matching.toSorted(compareRows(sort)), { name: 'LPH' });
  });

  it('pages the same way under a code', async () => {
    const sort: Sort[] = [{ key: 'updatedAt', order: 'ASC' }];
    // The commonest code, so that its accounts fill several pages whatever the seed.
    const withCode = (code: string) => rows.filter((r) => r.code === code);
    const code = CODES.toSorted((a, b) => withCode(b).length - withCode(a).length)[0] as string;
    assert.ok(withCode(code).length > LIMIT);
    await assertWalks(company, sort, withCode(code).toSorted(compareRows(sort)), { code });
  });
});

describe(`keyset pagination under concurrent inserts (SEED=${SEED})`, () => {
  for (const sort of [
    [{ key: 'name', order: 'ASC' }],
    [
      { key: 'code', order: 'DESC_NULLS_LAST' },
      { key: 'name', order: 'ASC' },
    ],
    [{ key: 'createdAt', order: 'DESC' }],
  ] as Sort[][]) {
    it(`never repeats nor skips a row, by ${describeSort(sort)}`, async () => {
      const label = `${describeSort(sort)} (SEED=${SEED})`;
      const company = await newCompany();
      await insertBatch(company, 40);
      const compare = compareRows(sort);
      const initial = new Set((await readRows(company)).map((r) => r.id));

      const seen: string[] = [];
      /** The rows inserted while walking, each with the boundary row it was inserted after. */
      const inserted: { id: string; boundary: string }[] = [];
      let cursor = '';
      for (let n = 0; n < 100; n++) {
        const page = await fetchPage(company, sort, cursor);
        seen.push(...page.data.map((a) => a.id));
        if (!page.pagination.hasNextPage) break;
        cursor = `&after=${page.pagination.endCursor}`;
        // New rows land before and after the position: random names and codes, three batches
        // through the API and one by SQL (createdAt ties), some later than every row so far.
        const boundary = seen.at(-1) as string;
        const before = new Set((await readRows(company)).map((r) => r.id));
        if (n % 2 === 0) await insertBatch(company, 3);
        else for (let i = 0; i < 2; i++) await createThroughApi(company);
        for (const row of await readRows(company)) if (!before.has(row.id)) inserted.push({ id: row.id, boundary });
      }

      assert.equal(new Set(seen).size, seen.length, `${label}: a row came twice`);
      const all = new Map((await readRows(company)).map((r) => [r.id, r]));
      for (const id of initial) assert.ok(seen.includes(id), `${label}: row ${id} was skipped`);
      // Exactly the rows that existed, plus those inserted past the position they were inserted at.
      const expected = [...all.values()]
        .filter((row) => {
          const late = inserted.find((i) => i.id === row.id);
          return !late || compare(row, all.get(late.boundary) as Row) > 0;
        })
        .toSorted(compare)
        .map((r) => r.id);
      assert.deepEqual(seen, expected, label);
      assert.ok(inserted.length > 10 && expected.length < all.size, `${label}: inserts landed on both sides`);
    });
  }
});

// A cursor holds its row's sort values. When that row is deleted, or an update moves it elsewhere in
// the order, the pages either side of the cursor are still the rows either side of those values.
describe(`keyset pagination from a cursor whose row is gone (SEED=${SEED})`, () => {
  const filterings: { name: string; filters: { archived?: boolean; name?: string }; keep: (r: Row) => boolean }[] = [
    { name: 'no filter', filters: {}, keep: () => true },
    { name: 'archived: false', filters: { archived: false }, keep: () => true },
    { name: 'name contains "a"', filters: { name: 'a' }, keep: (r) => r.name.toLowerCase().includes('a') },
  ];

  it('answers the rows after and before the cursor’s values, their neighbours and their cursors', async () => {
    const company = await newCompany();
    await insertBatch(company, 40);
    for (let i = 0; i < 10; i++) await createThroughApi(company);
    await insertBatch(company, 30);
    for (let trial = 0; trial < 12; trial++) {
      const sort: Sort[] = [{ key: pick(KEYS), order: pick(ORDERS) }];
      const second = pick(KEYS.filter((key) => key !== sort[0]?.key));
      if (random() < 0.5) sort.push({ key: second, order: pick(ORDERS) });
      const filtering = pick(filterings);
      const change = pick(['deleted', 'moved', 'kept'] as const);
      const label = `${describeSort(sort)}, ${filtering.name}, row ${change} (SEED=${SEED})`;
      const compare = compareRows(sort);
      const matching = async () =>
        (await readRows(company, filtering.filters.archived)).filter(filtering.keep).toSorted(compare);

      const before = await matching();
      const index = Math.floor(random() * before.length);
      const row = before[index] as Row;
      const holding = await fetchPage(company, sort, `&offset=${index}`, filtering.filters);
      assert.equal(holding.data[0]?.id, row.id, `${label}: the row at offset ${index}`);
      const cursor = holding.pagination.startCursor as string;
      if (change === 'deleted') await t.db.query('DELETE FROM accounts WHERE id = $1', [row.id]);
      if (change === 'moved') {
        await t.db.query('UPDATE accounts SET name = $2, code = $3, updated_at = now() WHERE id = $1', [
          row.id,
          pick(NAMES),
          randomCode(),
        ]);
      }
      const now = await matching();
      const after = now.filter((r) => compare(r, row) > 0);
      const ahead = now.filter((r) => compare(r, row) < 0);
      const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

      const next = await fetchPage(company, sort, `&after=${cursor}`, filtering.filters);
      assert.deepEqual(ids(next.data), ids(after.slice(0, LIMIT)), `${label}: after`);
      assert.deepEqual(
        [next.pagination.hasPreviousPage, next.pagination.hasNextPage],
        [now.some((r) => compare(r, row) <= 0), after.length > LIMIT],
        `${label}: after's neighbours`,
      );
      const previous = await fetchPage(company, sort, `&before=${cursor}`, filtering.filters);
      assert.deepEqual(ids(previous.data), ids(ahead.slice(-LIMIT)), `${label}: before`);
      assert.deepEqual(
        [previous.pagination.hasPreviousPage, previous.pagination.hasNextPage],
        [ahead.length > LIMIT, now.some((r) => compare(r, row) >= 0)],
        `${label}: before's neighbours`,
      );
      // The far cursors lead on, also from a page cut short by the end of the rows.
      if (next.data.length > 0) {
        const further = await fetchPage(company, sort, `&after=${next.pagination.endCursor}`, filtering.filters);
        assert.deepEqual(ids(further.data), ids(after.slice(LIMIT, 2 * LIMIT)), `${label}: after the after page`);
      }
      if (previous.data.length > 0) {
        const further = await fetchPage(company, sort, `&before=${previous.pagination.startCursor}`, filtering.filters);
        const rest = ahead.slice(0, -LIMIT);
        assert.deepEqual(ids(further.data), ids(rest.slice(-LIMIT)), `${label}: before the before page`);
      }
    }
  });
});
