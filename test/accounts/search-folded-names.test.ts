// The name search through the stored folded names (migration 0037) and both of its plans: a text
// that most accounts match walks the sort index, one that few match sorts the matches found, and a
// text without a trigram reads the company's own rows. Whichever runs, the pages are the matches in
// sort order, cursors lead forwards and back across them, and total is exact. The expected matches
// are folded here by the database's ICU lower(), not read from the stored column.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type AccountFilters,
  insertAccount,
  insertAccounts,
  searchAccounts,
  updateAccount,
} from '../../src/accounts/store.ts';
import type { Database } from '../../src/db/database.ts';
import type { PagePosition } from '../../src/db/keyset-page.ts';
import { openTestDatabase } from '../support/database.ts';

let db: Database;
const companyId = randomUUID();
const LIMIT = 10;

// 400 accounts: √(10·400) = 20, so more than 21 matches walk the sort index and fewer are sorted.
const NAMES = [
  ...Array.from({ length: 300 }, (_, i) => `Kasse ${String(i).padStart(3, '0')}`),
  ...Array.from({ length: 85 }, (_, i) => `Bank ${String(i).padStart(3, '0')}`),
  'ΛΟΓΑΡΙΑΣΜΟΣ ΤΑΜΕΙΟΥ',
  'Φόρος εισοδήματος',
  'σίσυφος',
  'İstanbul şube',
  'istanbul merkez',
  'Zz 50% off',
  'Zz 50_off',
  ...Array.from({ length: 8 }, (_, i) => `Bank kasse ${i}`),
];

const account = (name: string, i: number) => ({
  externalId: `EXT-${String(i).padStart(4, '0')}`,
  name,
  archived: i % 7 === 0,
  code: null,
  taxCodeExternalId: null,
  metadata: null,
  accountingSystem: null,
});

before(async () => {
  db = await openTestDatabase();
  // Most in one batch, a few one by one: both write paths keep the folded name.
  await insertAccounts(db, companyId, NAMES.slice(0, 390).map(account));
  for (const [i, name] of NAMES.entries()) {
    if (i >= 390) await insertAccount(db, { companyId, ...account(name, i) });
  }
});
after(() => db.close());

const filtersOf = (name: string, archived: boolean | null = null): AccountFilters => ({
  companyId,
  ids: null,
  name,
  code: null,
  codes: null,
  externalId: null,
  archived,
  excludeIfAssignedToContraAccount: false,
  excludeIfAssignedToCategory: false,
});

/** The names that hold `text`, folded by ICU, in the order of `sort`. */
async function expectedNames(text: string, sort: string, archived: boolean | null = null): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT name FROM accounts WHERE company_id = $1 AND ($3::boolean IS NULL OR archived = $3)
       AND strpos(translate(lower(name COLLATE "und-x-icu"), 'ς', 'σ'), translate(lower($2::text COLLATE "und-x-icu"), 'ς', 'σ')) > 0
     ORDER BY ${sort}`,
    [companyId, text, archived],
  );
  return rows.map((row) => row.name);
}

const namesOf = (json: string) => (JSON.parse(json) as { name: string }[]).map((a) => a.name);

/** Every page of the search forwards by `after` cursors, then back by `before` cursors. */
async function walk(filters: AccountFilters, sort: PagePosition['sort']) {
  const forwards: string[] = [];
  const totals = new Set<number | undefined>();
  let position: PagePosition = { sort, limit: LIMIT };
  let last: string[] | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await searchAccounts(db, filters, position);
    totals.add(page.total);
    forwards.push(...namesOf(page.json));
    last = page.last;
    if (!page.hasNextPage || !page.last) break;
    position = { sort, limit: LIMIT, after: page.last };
  }
  // From the last row back: the pages before it, to the first.
  const backwards = forwards.slice(-1);
  let before = last;
  for (let pages = 0; before && pages < 100; pages++) {
    const page = await searchAccounts(db, filters, { sort, limit: LIMIT, before });
    totals.add(page.total);
    backwards.unshift(...namesOf(page.json));
    if (!page.hasPreviousPage) break;
    before = page.first;
  }
  return { forwards, backwards, totals: [...totals] };
}

describe('name search through the folded names', { timeout: 60_000 }, () => {
  const cases: [string, string][] = [
    ['kasse', 'many matches: the sort index is walked'],
    ['BANK', 'fewer matches than a walk would read: they are sorted'],
    ['bank kas', 'few matches'],
    ['ΛΟΓΑΡΙΑΣ', 'Greek: a Σ that ends the text is no final ς'],
    ['ΦΌΡΟΣ', 'Greek: a final ς in the name'],
    ['İSTANBUL', 'Turkish dotted capital I'],
    ['as', 'shorter than a trigram: the company’s rows'],
    ['50%', 'LIKE’s wildcards are plain characters'],
    ['0_', 'LIKE’s wildcards are plain characters'],
    ['nothing like it', 'no match'],
  ];
  for (const [text, what] of cases) {
    it(`answers "${text}" (${what}) in sort order across pages, with an exact total`, async () => {
      for (const [key, order, sql] of [
        ['name', 'ASC', 'name COLLATE "C", id'],
        ['externalId', 'DESC', 'external_id COLLATE "C" DESC, id DESC'],
      ] as const) {
        const expected = await expectedNames(text, sql);
        const { forwards, backwards, totals } = await walk(filtersOf(text), [{ key, order }]);
        assert.deepEqual(forwards, expected, `forwards by ${key} ${order}`);
        assert.deepEqual(backwards, expected, `backwards by ${key} ${order}`);
        assert.deepEqual(totals, [expected.length], `total by ${key} ${order}`);
      }
    });
  }

  it('counts with the archived filter and pages by offset', async () => {
    const expected = await expectedNames('kasse', 'name COLLATE "C", id', false);
    const page = await searchAccounts(db, filtersOf('kasse', false), {
      sort: [{ key: 'name', order: 'ASC' }],
      limit: LIMIT,
      offset: 40,
    });
    assert.equal(page.total, expected.length);
    assert.deepEqual(namesOf(page.json), expected.slice(40, 40 + LIMIT));
  });

  it('finds an account by its new name after a rename, and not by its old one', async () => {
    const [renamed] = await db.query<{ id: string }>(
      `SELECT id FROM accounts WHERE company_id = $1 AND name = 'σίσυφος'`,
      [companyId],
    );
    assert.ok(renamed);
    await updateAccount(db, renamed.id, {
      name: 'ΠΑΓΙΟ ΕΝΕΡΓΗΤΙΚΟ',
      archived: false,
      code: null,
      taxCodeExternalId: null,
      metadata: null,
    });
    const [stored] = await db.query<{ name_folded: string }>('SELECT name_folded FROM accounts WHERE id = $1', [
      renamed.id,
    ]);
    assert.equal(stored?.name_folded, 'παγιο ενεργητικο');
    assert.equal(
      (await searchAccounts(db, filtersOf('σίσυφ'), { sort: [{ key: 'name', order: 'ASC' }], limit: LIMIT })).total,
      0,
    );
    const found = await searchAccounts(db, filtersOf('Παγιο'), { sort: [{ key: 'name', order: 'ASC' }], limit: LIMIT });
    assert.deepEqual(namesOf(found.json), ['ΠΑΓΙΟ ΕΝΕΡΓΗΤΙΚΟ']);
  });

  it('keeps the folded name of batch and single creates', async () => {
    const rows = await db.query<{ name: string; name_folded: string }>(
      `SELECT name, name_folded FROM accounts WHERE company_id = $1 AND external_id IN ('EXT-0385', 'EXT-0388', 'EXT-0392')`,
      [companyId],
    );
    assert.deepEqual(
      rows.map((row) => [row.name, row.name_folded]).sort(),
      [
        ['Bank kasse 0', 'bank kasse 0'],
        ['ΛΟΓΑΡΙΑΣΜΟΣ ΤΑΜΕΙΟΥ', 'λογαριασμοσ ταμειου'],
        ['İstanbul şube', 'i̇stanbul şube'],
      ].sort(),
    );
  });
});
