import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { base32 } from 'rfc4648';
import { startTestApp, type TestApp } from '../support/harness.ts';

// POST /v1-beta/accounts:search (docs/decisions/pagination.md): filters, parameters, cursors and
// page info.

let t: TestApp;
let token: string;
const companies: string[] = [];

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** A company of its own, so that totals and orders only see this test's rows. */
async function newCompany(): Promise<string> {
  const company = randomUUID();
  companies.push(company);
  token = await t.token({ companies });
  return company;
}

async function create(company: string, fields: Record<string, unknown> = {}) {
  const response = await t.request('POST', '/v1-beta/accounts', {
    token,
    body: { companyId: company, externalId: `ext-${randomUUID()}`, name: 'Account', archived: false, ...fields },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.data as { id: string; name: string; externalId: string; code: string | null };
}

/** `count` accounts in one statement: names n000, n001, … and externalIds e000, e001, …. */
async function insertMany(company: string, count: number): Promise<void> {
  await t.db.query(
    `INSERT INTO accounts (company_id, external_id, name, archived)
     SELECT $1, 'e' || lpad(i::text, 3, '0'), 'n' || lpad(i::text, 3, '0'), false FROM generate_series(0, $2 - 1) AS i`,
    [company, count],
  );
}

function search(company: string, query = '', body: Record<string, unknown> = {}) {
  return t.request('POST', `/v1-beta/accounts:search${query}`, { token, body: { companyId: company, ...body } });
}

async function ok(company: string, query = '', body: Record<string, unknown> = {}) {
  const response = await search(company, query, body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const names = (page: { data: { name: string }[] }) => page.data.map((a) => a.name);

async function assertProblem(
  response: Promise<{ status: number; body: any; text: string }>,
  type: string,
  path?: string,
): Promise<void> {
  const { status, body, text } = await response;
  assert.equal(status, 400, text);
  assert.equal(body.type, type, text);
  if (path)
    assert.ok(
      body.errors?.some((e: { path: string }) => e.path === path),
      text,
    );
}

describe('search filters', () => {
  let company: string;
  const made: Record<string, { id: string; externalId: string }> = {};
  before(async () => {
    company = await newCompany();
    for (const [name, code, archived] of [
      ['École normale', 'A1', false],
      ['école', 'a1', false],
      ['ecole', 'A10', true],
      ['Bank charges', null, false],
      ['100% rent', 'A1', true],
      ['100 rent', null, false],
      ['a_b', null, false],
      ['axb', null, false],
      ['back\\slash', null, false],
      ['backslash', null, false],
    ] as const) {
      made[name] = await create(company, { name, code, archived });
    }
  });

  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'no filter',
      {},
      [
        '100 rent',
        '100% rent',
        'Bank charges',
        'a_b',
        'axb',
        'back\\slash',
        'backslash',
        'ecole',
        'École normale',
        'école',
      ],
    ],
    ['name, case-insensitive beyond ASCII', { name: 'éco' }, ['École normale', 'école']],
    ['name in capitals', { name: 'ÉCOLE' }, ['École normale', 'école']],
    ['name, ASCII e is not é', { name: 'ECO' }, ['ecole']],
    ['name with % taken literally', { name: '%' }, ['100% rent']],
    ['name with _ taken literally', { name: 'a_' }, ['a_b']],
    ['name with \\ taken literally', { name: 'k\\s' }, ['back\\slash']],
    [
      'empty name matches all',
      { name: '' },
      [
        '100 rent',
        '100% rent',
        'Bank charges',
        'a_b',
        'axb',
        'back\\slash',
        'backslash',
        'ecole',
        'École normale',
        'école',
      ],
    ],
    ['code exact and case-sensitive', { code: 'A1' }, ['100% rent', 'École normale']],
    ['code with no match', { code: 'A' }, []],
    ['archived true', { archived: true }, ['100% rent', 'ecole']],
    [
      'archived false',
      { archived: false },
      ['100 rent', 'Bank charges', 'a_b', 'axb', 'back\\slash', 'backslash', 'École normale', 'école'],
    ],
    [
      'null filters are no filters',
      { name: null, code: null, externalId: null, archived: null, ids: null },
      [
        '100 rent',
        '100% rent',
        'Bank charges',
        'a_b',
        'axb',
        'back\\slash',
        'backslash',
        'ecole',
        'École normale',
        'école',
      ],
    ],
    ['filters are ANDed', { name: 'rent', code: 'A1' }, ['100% rent']],
    ['filters are ANDed (no row)', { name: 'rent', code: 'A1', archived: false }, []],
  ];
  for (const [title, body, expected] of cases) {
    it(`filters by ${title}`, async () => {
      const page = await ok(company, '', body);
      assert.deepEqual(names(page), expected);
      assert.equal(page.pagination.total, expected.length);
    });
  }

  it('finds a name by any of its substrings in any case, Greek sigmas too (Σ, σ and final ς)', async () => {
    const greek = await newCompany();
    for (const name of ['ΛΟΓΑΡΙΑΣΜΟΣ ΤΑΜΕΙΟΥ', 'Φόρος εισοδήματος', 'σίσυφος']) await create(greek, { name });
    for (const [typed, expected] of [
      ['ΛΟΓΑΡΙΑΣ', ['ΛΟΓΑΡΙΑΣΜΟΣ ΤΑΜΕΙΟΥ']], // a Σ that ends the typed text is not a final ς
      ['λογαριασ', ['ΛΟΓΑΡΙΑΣΜΟΣ ΤΑΜΕΙΟΥ']],
      ['ΦΌΡΟΣ', ['Φόρος εισοδήματος']], // a final ς in the name
      ['ΣΊΣ', ['σίσυφος']],
      ['ΦΟΣ', ['σίσυφος']],
      ['σ ', ['ΛΟΓΑΡΙΑΣΜΟΣ ΤΑΜΕΙΟΥ', 'Φόρος εισοδήματος']],
    ] as const) {
      assert.deepEqual(names(await ok(greek, '', { name: typed })).sort(), [...expected].sort(), typed);
    }
  });

  it('filters by externalId exactly', async () => {
    const target = made.axb!;
    assert.deepEqual(names(await ok(company, '', { externalId: target.externalId })), ['axb']);
    assert.deepEqual(names(await ok(company, '', { externalId: target.externalId.toUpperCase() })), []);
    assert.deepEqual(names(await ok(company, '', { externalId: target.externalId.slice(0, -1) })), []);
  });

  it('filters by a set of ids, ANDed with the other filters', async () => {
    const ids = [made.a_b!.id, made.ecole!.id, made['100% rent']!.id, randomUUID()];
    assert.deepEqual(names(await ok(company, '', { ids })), ['100% rent', 'a_b', 'ecole']);
    assert.deepEqual(names(await ok(company, '', { ids: ids.map((id) => id.toUpperCase()) })), [
      '100% rent',
      'a_b',
      'ecole',
    ]);
    assert.deepEqual(names(await ok(company, '', { ids, archived: true })), ['100% rent', 'ecole']);
    assert.deepEqual(names(await ok(company, '', { ids: [] })), []);
  });

  it("takes null among the ids, as the reference's search request declares each id nullable: it matches no account", async () => {
    assert.deepEqual(names(await ok(company, '', { ids: [null, made.a_b!.id] })), ['a_b']);
    assert.deepEqual(names(await ok(company, '', { ids: [null] })), []);
    await assertProblem(search(company, '', { ids: [null, null] }), 'VALIDATION_FAILED', '/ids');
  });

  it('never returns the accounts of another company', async () => {
    const other = await newCompany();
    await create(other, { name: 'École normale' });
    assert.deepEqual(names(await ok(company, '', { name: 'éco' })), ['École normale', 'école']);
    assert.deepEqual(names(await ok(other, '', { name: 'éco' })), ['École normale']);
  });

  it('refuses invalid filters with 400', async () => {
    await assertProblem(search(company, '', { ids: ['nope'] }), 'VALIDATION_FAILED', '/ids/0');
    await assertProblem(search(company, '', { archived: 'true' }), 'VALIDATION_FAILED', '/archived');
    await assertProblem(search(company, '', { name: 'x'.repeat(256) }), 'VALIDATION_FAILED', '/name');
    // PostgreSQL text cannot hold NUL: invalid input, not a failed query.
    await assertProblem(search(company, '', { name: 'a\u0000' }), 'VALIDATION_FAILED', '/name');
    await assertProblem(search(company, '', { code: '\u0000' }), 'VALIDATION_FAILED', '/code');
    await assertProblem(search(company, '', { externalId: '\u0000' }), 'VALIDATION_FAILED', '/externalId');
    await assertProblem(
      t.request('POST', '/v1-beta/accounts:search', { token, body: {} }),
      'VALIDATION_FAILED',
      '/companyId',
    );
  });
});

describe('search parameters', () => {
  let company: string;
  before(async () => {
    company = await newCompany();
    await insertMany(company, 101);
  });

  it('returns 100 rows by default and takes a limit of 1 to 1000', async () => {
    const page = await ok(company);
    assert.equal(page.data.length, 100);
    assert.equal(page.pagination.hasNextPage, true);
    assert.equal(page.pagination.currentRequestPagination.limit, 100);
    assert.equal((await ok(company, '?limit=1')).data.length, 1);
    assert.equal((await ok(company, '?limit=1000')).data.length, 101);
    for (const limit of ['0', '1001', '-1', 'abc', '1.5']) {
      await assertProblem(search(company, `?limit=${limit}`), 'VALIDATION_FAILED', '/limit');
    }
  });

  it('refuses unknown sorting keys and orders, repeated keys, and one order per key otherwise', async () => {
    await assertProblem(search(company, '?sorting_keys=archived'), 'VALIDATION_FAILED');
    await assertProblem(search(company, '?sorting_keys=name,colour'), 'VALIDATION_FAILED');
    await assertProblem(search(company, '?sorting_keys=name&sorting_order=UP'), 'VALIDATION_FAILED');
    await assertProblem(search(company, '?sorting_keys=name,name'), 'VALIDATION_FAILED', '/sorting_keys');
    await assertProblem(
      search(company, '?sorting_keys=name,code&sorting_order=ASC'),
      'VALIDATION_FAILED',
      '/sorting_order',
    );
    await assertProblem(search(company, '?sorting_order=ASC,DESC'), 'VALIDATION_FAILED', '/sorting_order');
  });

  it('accepts comma lists and repeated parameters alike, and echoes each as sent', async () => {
    const comma = await ok(company, '?sorting_keys=code,externalId&sorting_order=DESC_NULLS_LAST,DESC&limit=5');
    const repeated = await ok(
      company,
      '?sorting_keys=code&sorting_keys=externalId&sorting_order=DESC_NULLS_LAST&sorting_order=DESC&limit=5',
    );
    assert.deepEqual(names(comma), ['n100', 'n099', 'n098', 'n097', 'n096']);
    assert.deepEqual(names(repeated), names(comma));
    assert.deepEqual(comma.pagination.currentRequestPagination, {
      parameters: { sorting_keys: ['code,externalId'], sorting_order: ['DESC_NULLS_LAST,DESC'], limit: ['5'] },
      limit: 5,
      sortingKeys: ['code', 'externalId'],
      sortingOrder: ['DESC_NULLS_LAST', 'DESC'],
    });
    assert.deepEqual(repeated.pagination.currentRequestPagination, {
      parameters: {
        sorting_keys: ['code', 'externalId'],
        sorting_order: ['DESC_NULLS_LAST', 'DESC'],
        limit: ['5'],
      },
      limit: 5,
      sortingKeys: ['code', 'externalId'],
      sortingOrder: ['DESC_NULLS_LAST', 'DESC'],
    });
    // A cursor of one spelling is valid for the other: both are the same sort.
    const next = await ok(
      company,
      `?sorting_keys=code&sorting_keys=externalId&sorting_order=DESC_NULLS_LAST&sorting_order=DESC&limit=2&after=${comma.pagination.endCursor}`,
    );
    assert.deepEqual(names(next), ['n095', 'n094']);
  });

  it('echoes the effective request: defaults, offset and cursors, parameters as strings', async () => {
    const first = await ok(company);
    assert.deepEqual(first.pagination.currentRequestPagination, {
      parameters: {},
      limit: 100,
      sortingKeys: ['name'],
      sortingOrder: ['ASC'],
    });
    const keysOnly = await ok(company, '?sorting_keys=externalId&offset=3&limit=2&extra=a%20b&extra=c');
    assert.deepEqual(keysOnly.pagination.currentRequestPagination, {
      parameters: { sorting_keys: ['externalId'], offset: ['3'], limit: ['2'], extra: ['a b', 'c'] },
      limit: 2,
      offset: 3,
      sortingKeys: ['externalId'],
      sortingOrder: ['ASC'],
    });
    const cursor = first.pagination.endCursor as string;
    const afterPage = await ok(company, `?after=${cursor}&limit=10`);
    assert.deepEqual(afterPage.pagination.currentRequestPagination, {
      parameters: { after: [cursor], limit: ['10'] },
      after: cursor,
      limit: 10,
      sortingKeys: ['name'],
      sortingOrder: ['ASC'],
    });
    const beforePage = await ok(company, `?before=${cursor}&sorting_order=ASC`);
    assert.deepEqual(beforePage.pagination.currentRequestPagination, {
      parameters: { before: [cursor], sorting_order: ['ASC'] },
      before: cursor,
      limit: 100,
      sortingKeys: ['name'],
      sortingOrder: ['ASC'],
    });
  });

  it('refuses before, after and offset together', async () => {
    const cursor = (await ok(company, '?limit=2')).pagination.endCursor;
    await assertProblem(search(company, `?before=${cursor}&after=${cursor}`), 'VALIDATION_FAILED', '/after');
    await assertProblem(search(company, `?after=${cursor}&offset=2`), 'VALIDATION_FAILED', '/offset');
    await assertProblem(search(company, `?before=${cursor}&offset=0`), 'VALIDATION_FAILED', '/before');
    await assertProblem(search(company, '?offset=-1'), 'VALIDATION_FAILED', '/offset');
  });

  it('pages by offset', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 101; offset += 30) {
      const page = await ok(company, `?offset=${offset}&limit=30&sorting_keys=externalId`);
      seen.push(...names(page));
      assert.equal(page.pagination.hasPreviousPage, offset > 0);
      assert.equal(page.pagination.hasNextPage, offset + 30 < 101);
      assert.equal(page.pagination.total, 101);
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 101 }, (_, i) => `n${String(i).padStart(3, '0')}`),
    );
    const beyond = await ok(company, '?offset=500');
    assert.deepEqual(beyond.data, []);
    assert.equal(beyond.pagination.hasNextPage, false);
    assert.equal(beyond.pagination.hasPreviousPage, true);
    assert.equal(beyond.pagination.total, 101);
    assert.equal('startCursor' in beyond.pagination, false);
    assert.equal('endCursor' in beyond.pagination, false);
  });
});

describe('search cursors', () => {
  let company: string;
  before(async () => {
    company = await newCompany();
    await insertMany(company, 10);
  });

  it('are opaque strings over A-Z2-7=~', async () => {
    const page = await ok(company, '?limit=3&sorting_keys=name,code,createdAt,updatedAt,id');
    for (const cursor of [page.pagination.startCursor, page.pagination.endCursor]) {
      assert.match(cursor, /^[A-Z2-7=~]+$/);
    }
  });

  it('answer 400 INVALID_CURSOR when malformed', async () => {
    const { endCursor } = (await ok(company, '?limit=3')).pagination;
    const [print, body] = (endCursor as string).split('~') as [string, string];
    const forge = (values: unknown) => `${print}~${base32.stringify(Buffer.from(JSON.stringify(values)))}`;
    const malformed = [
      'garbage',
      '',
      `${print}`,
      `${print}~`,
      `${print}~${body}~${body}`,
      `${print}~${body.slice(0, -3)}`,
      `${print}~1${body.slice(1)}`,
      `${print}~${base32.stringify(Buffer.from('not json'))}`,
      forge({ a: 1 }),
      forge(['n002']),
      forge(['n002', randomUUID(), 'extra']),
      forge([2, randomUUID()]),
      forge(['n002', 'not-a-uuid']),
      forge(['n\u0000', randomUUID()]),
      endCursor.toLowerCase(),
    ];
    for (const cursor of malformed) {
      for (const name of ['after', 'before']) {
        const response = await search(company, `?limit=3&${name}=${encodeURIComponent(cursor)}`);
        assert.equal(response.status, 400, `${name}=${cursor}: ${response.text}`);
        assert.equal(response.body.type, 'INVALID_CURSOR', `${name}=${cursor}: ${response.text}`);
      }
    }
    // The same cursor, well formed, is fine.
    assert.equal((await search(company, `?limit=3&after=${forge(['n002', randomUUID()])}`)).status, 200);
  });

  it('answer 400 INVALID_CURSOR when reused with other filters or another sort', async () => {
    const cursor = (await ok(company, '?limit=3', { archived: false })).pagination.endCursor;
    assert.equal((await search(company, `?limit=3&after=${cursor}`, { archived: false })).status, 200);
    const reuses: [string, Record<string, unknown>][] = [
      ['', {}],
      ['', { archived: true }],
      ['', { archived: false, name: 'n' }],
      ['', { archived: false, ids: [randomUUID()] }],
      ['&sorting_keys=code', { archived: false }],
      ['&sorting_order=DESC', { archived: false }],
      ['&sorting_order=ASC_NULLS_FIRST', { archived: false }],
      ['&sorting_keys=name,id', { archived: false }],
    ];
    for (const [query, body] of reuses) {
      for (const name of ['after', 'before']) {
        const response = await search(company, `?limit=3&${name}=${cursor}${query}`, body);
        assert.equal(response.status, 400, `${query} ${JSON.stringify(body)}: ${response.text}`);
        assert.equal(response.body.type, 'INVALID_CURSOR');
      }
    }
    const otherCompany = await newCompany();
    const response = await search(otherCompany, `?limit=3&after=${cursor}`, { archived: false });
    assert.equal(response.body.type, 'INVALID_CURSOR');
  });

  it('page forwards with after and backwards with before, with exact hasNextPage/hasPreviousPage', async () => {
    const all = Array.from({ length: 10 }, (_, i) => `n${String(i).padStart(3, '0')}`);
    const first = await ok(company, '?limit=4');
    assert.deepEqual(names(first), all.slice(0, 4));
    assert.deepEqual([first.pagination.hasPreviousPage, first.pagination.hasNextPage], [false, true]);

    const second = await ok(company, `?limit=4&after=${first.pagination.endCursor}`);
    assert.deepEqual(names(second), all.slice(4, 8));
    assert.deepEqual([second.pagination.hasPreviousPage, second.pagination.hasNextPage], [true, true]);

    const last = await ok(company, `?limit=4&after=${second.pagination.endCursor}`);
    assert.deepEqual(names(last), all.slice(8));
    assert.deepEqual([last.pagination.hasPreviousPage, last.pagination.hasNextPage], [true, false]);

    // Exactly filling the last page still knows there is nothing after it.
    const exact = await ok(company, `?limit=2&after=${second.pagination.endCursor}`);
    assert.deepEqual([exact.pagination.hasPreviousPage, exact.pagination.hasNextPage], [true, false]);

    const pastTheEnd = await ok(company, `?limit=4&after=${last.pagination.endCursor}`);
    assert.deepEqual(pastTheEnd.data, []);
    assert.deepEqual([pastTheEnd.pagination.hasPreviousPage, pastTheEnd.pagination.hasNextPage], [true, false]);
    assert.equal('startCursor' in pastTheEnd.pagination, false);
    assert.equal('endCursor' in pastTheEnd.pagination, false);
    assert.equal(pastTheEnd.pagination.total, 10);

    const back = await ok(company, `?limit=4&before=${last.pagination.startCursor}`);
    assert.deepEqual(names(back), all.slice(4, 8));
    assert.deepEqual([back.pagination.hasPreviousPage, back.pagination.hasNextPage], [true, true]);
    assert.equal(back.pagination.startCursor, second.pagination.startCursor);
    assert.equal(back.pagination.endCursor, second.pagination.endCursor);

    const backToStart = await ok(company, `?limit=6&before=${back.pagination.startCursor}`);
    assert.deepEqual(names(backToStart), all.slice(0, 4));
    assert.deepEqual([backToStart.pagination.hasPreviousPage, backToStart.pagination.hasNextPage], [false, true]);

    const beforeTheStart = await ok(company, `?limit=4&before=${first.pagination.startCursor}`);
    assert.deepEqual(beforeTheStart.data, []);
    assert.deepEqual([beforeTheStart.pagination.hasPreviousPage, beforeTheStart.pagination.hasNextPage], [false, true]);
    assert.equal('startCursor' in beforeTheStart.pagination, false);
  });

  it('count the boundary row itself as a neighbour of the page next to it', async () => {
    const own = await newCompany();
    await create(own, { name: 'only' });
    const page = await ok(own);
    assert.equal(page.pagination.startCursor, page.pagination.endCursor);
    const afterIt = await ok(own, `?after=${page.pagination.endCursor}`);
    assert.deepEqual(
      [afterIt.data.length, afterIt.pagination.hasPreviousPage, afterIt.pagination.hasNextPage],
      [0, true, false],
    );
    const beforeIt = await ok(own, `?before=${page.pagination.startCursor}`);
    assert.deepEqual(
      [beforeIt.data.length, beforeIt.pagination.hasPreviousPage, beforeIt.pagination.hasNextPage],
      [0, false, true],
    );
    await create(own, { name: 'other' });
    const second = await ok(own, `?limit=1&after=${page.pagination.endCursor}`);
    assert.deepEqual(names(second), ['other']);
    assert.deepEqual([second.pagination.hasPreviousPage, second.pagination.hasNextPage], [true, false]);
    const first = await ok(own, `?limit=1&before=${second.pagination.startCursor}`);
    assert.deepEqual(names(first), ['only']);
    assert.deepEqual([first.pagination.hasPreviousPage, first.pagination.hasNextPage], [false, true]);
  });

  it('answer an empty page of an empty company with no cursors and no neighbours', async () => {
    const empty = await newCompany();
    const page = await ok(empty);
    assert.deepEqual(page.data, []);
    assert.deepEqual(
      { ...page.pagination, currentRequestPagination: undefined },
      { currentRequestPagination: undefined, hasNextPage: false, hasPreviousPage: false, total: 0 },
    );
  });

  it('keep working after the boundary row is deleted', async () => {
    const own = await newCompany();
    const rows: { id: string }[] = [];
    for (const name of ['a', 'b', 'c', 'd']) rows.push(await create(own, { name }));
    const page = await ok(own, '?limit=2');
    await t.request('DELETE', `/v1-beta/accounts/${rows[1]!.id}`, { token });
    const next = await ok(own, `?limit=2&after=${page.pagination.endCursor}`);
    assert.deepEqual(names(next), ['c', 'd']);
    assert.deepEqual([next.pagination.hasPreviousPage, next.pagination.hasNextPage], [true, false]);
    const previous = await ok(own, `?limit=2&before=${next.pagination.startCursor}`);
    assert.deepEqual(names(previous), ['a']);
    // b is gone: the page before c is only a, and nothing lies before it.
    assert.deepEqual([previous.pagination.hasPreviousPage, previous.pagination.hasNextPage], [false, true]);
    const emptyAfterDeleted = await ok(own, `?limit=2&before=${page.pagination.startCursor}`);
    assert.deepEqual(emptyAfterDeleted.data, []);
    assert.equal(emptyAfterDeleted.pagination.hasNextPage, true);
  });

  it('keep to the cursor’s values when its row moves just past them', async () => {
    const own = await newCompany();
    await create(own, { name: 'b' });
    const moving = await create(own, { name: 'a' });
    const page = await ok(own, '?limit=1');
    assert.deepEqual(names(page), ['a']);
    // Renamed, the row keeps its id and now sorts after its old cursor, before b.
    await t.db.query("UPDATE accounts SET name = 'a2' WHERE id = $1", [moving.id]);
    const next = await ok(own, `?limit=1&after=${page.pagination.endCursor}`);
    assert.deepEqual(names(next), ['a2']);
    assert.deepEqual([next.pagination.hasPreviousPage, next.pagination.hasNextPage], [false, true]);
    const previous = await ok(own, `?limit=1&before=${page.pagination.startCursor}`);
    assert.deepEqual([previous.data, previous.pagination.hasNextPage], [[], true]);
  });
});

describe('search total', () => {
  it('counts every matching row, with and without filters, through archive, unarchive and delete', async () => {
    const company = await newCompany();
    const accounts: { id: string; name: string }[] = [];
    for (let i = 0; i < 7; i++) accounts.push(await create(company, { name: `t${i}`, archived: i < 2 }));
    const totals = async () => {
      const [all, archived, active, named, ids] = await Promise.all([
        ok(company, '?limit=1'),
        ok(company, '?limit=1', { archived: true }),
        ok(company, '?limit=1', { archived: false }),
        ok(company, '?limit=1', { name: 'T', archived: false }),
        ok(company, '?limit=1', { ids: accounts.slice(0, 3).map((a) => a.id) }),
      ]);
      return [all, archived, active, named, ids].map((page) => page.pagination.total);
    };
    assert.deepEqual(await totals(), [7, 2, 5, 5, 3]);

    const put = async (account: { id: string; name: string }, archived: boolean) => {
      const response = await t.request('PUT', `/v1-beta/accounts/${account.id}`, {
        token,
        body: { name: account.name, archived },
      });
      assert.equal(response.status, 200, response.text);
    };
    await put(accounts[4]!, true);
    assert.deepEqual(await totals(), [7, 3, 4, 4, 3]);
    await put(accounts[0]!, false);
    await put(accounts[1]!, false);
    assert.deepEqual(await totals(), [7, 1, 6, 6, 3]);
    // An update that keeps archived as it was changes no count.
    await put(accounts[2]!, false);
    await put(accounts[4]!, true);
    assert.deepEqual(await totals(), [7, 1, 6, 6, 3]);

    assert.equal((await t.request('DELETE', `/v1-beta/accounts/${accounts[4]!.id}`, { token })).status, 204);
    assert.equal((await t.request('DELETE', `/v1-beta/accounts/${accounts[0]!.id}`, { token })).status, 204);
    assert.deepEqual(await totals(), [5, 0, 5, 5, 2]);
    await create(company, { name: 'late', archived: true });
    assert.deepEqual(await totals(), [6, 1, 5, 5, 2]);

    const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE company_id = $1', [
      company,
    ]);
    assert.equal(row?.n, 6);
  });
});
