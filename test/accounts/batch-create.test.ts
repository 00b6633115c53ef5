import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createAccountsBatch } from '../../src/accounts/batch-create.ts';
import type { Database } from '../../src/db/database.ts';
import { BODY_LIMIT } from '../../src/http/json-body.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { assertMatchesReference } from '../support/reference-schemas.ts';

// POST /v1/chart-of-accounts/batch (docs/decisions/chart-of-accounts-v1.md): each item created or
// failed on its own; a replayed batch reports no false failures; concurrent batches make one row
// per externalId and never a 5xx.

let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const BATCH = '/v1/chart-of-accounts/batch';

async function newCompany() {
  const company = randomUUID();
  return { company, token: await t.token({ companies: [company] }) };
}

const item = (fields: Record<string, unknown> = {}) => ({
  externalId: `ext-${randomUUID()}`,
  name: 'Office supplies',
  archived: false,
  code: '6100',
  taxCodeExternalId: 'IVA 20',
  metadata: { erp: { id: 1 } },
  ...fields,
});

async function rowCount(company: string): Promise<number> {
  const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE company_id = $1', [
    company,
  ]);
  return row?.n ?? -1;
}

describe('POST /v1/chart-of-accounts/batch', () => {
  it('creates every valid item, in item order, readable through v1 and v1-beta', async () => {
    const { company, token } = await newCompany();
    const items = [item(), item({ code: null, metadata: null, taxCodeExternalId: null }), item({ archived: true })];
    const response = await t.request('POST', BATCH, {
      token,
      body: JSON.stringify({ companyId: company, items }),
      headers: { 'content-type': 'application/json;charset=UTF-8' },
    });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.headers['content-type'], 'application/json;charset=UTF-8');
    assertMatchesReference('DataResponseBookkeepingAccountBatchCreateResponseV1', response.body);
    const { created, failed } = response.body.data;
    assert.deepEqual(failed, []);
    assert.deepEqual(
      created.map(({ id: _id, ...fields }: { id: string }) => fields),
      items.map((i) => ({ ...i, companyId: company })),
    );
    for (const account of created) {
      assert.deepEqual((await t.request('GET', `/v1/chart-of-accounts/${account.id}`, { token })).body.data, account);
      assert.deepEqual((await t.request('GET', `/v1-beta/accounts/${account.id}`, { token })).body.data, account);
    }
    assert.equal(await rowCount(company), 3);
  });

  it('stores the token’s accountingSystem: search items carry it, the batch’s answer does not', async () => {
    const company = randomUUID();
    const sage = await t.token({ companies: [company], accountingSystem: 'Sage "50"' });
    const items = [item(), item({ archived: true })];
    const response = await t.request('POST', BATCH, { token: sage, body: { companyId: company, items } });
    assert.equal(response.status, 201, response.text);
    const { created } = response.body.data;
    for (const account of created) assert.equal('accountingSystem' in account, false);
    // A replay through a token of another system answers and keeps the stored account.
    const xero = await t.token({ companies: [company], accountingSystem: 'xero' });
    const replay = await t.request('POST', BATCH, { token: xero, body: { companyId: company, items } });
    assert.deepEqual(replay.body.data, { created, failed: [] });
    const found = await t.request('POST', '/v1/chart-of-accounts:search?sorting_keys=externalId', {
      token: xero,
      body: { companyId: company },
    });
    const byExternalId = (a: { externalId: string }, b: { externalId: string }) =>
      a.externalId < b.externalId ? -1 : 1;
    assert.deepEqual(
      found.body.data,
      [...created].sort(byExternalId).map((account) => ({ ...account, accountingSystem: 'Sage "50"' })),
    );
  });

  const cases: [string, Record<string, unknown> | unknown, string[]][] = [
    ['an empty externalId', { externalId: '' }, ['EXTERNAL_ID_EMPTY']],
    ['no externalId', { externalId: undefined }, ['EXTERNAL_ID_EMPTY']],
    ['an externalId of 256 characters', { externalId: 'é'.repeat(256) }, ['EXTERNAL_ID_TOO_LONG']],
    ['an empty name', { name: '' }, ['NAME_EMPTY']],
    ['no name', { name: undefined }, ['NAME_EMPTY']],
    ['a name of 256 characters', { name: 'n'.repeat(256) }, ['NAME_TOO_LONG']],
    ['a code of 256 characters', { code: 'c'.repeat(256) }, ['CODE_TOO_LONG']],
    ['no archived', { archived: undefined }, ['OTHER']],
    ['archived as text', { archived: 'false' }, ['OTHER']],
    ['a numeric name', { name: 12 }, ['OTHER']],
    ['metadata that is not an object', { metadata: [1] }, ['OTHER']],
    ['metadata over 64 KiB', { metadata: { blob: 'x'.repeat(65 * 1024) } }, ['OTHER']],
    ['a taxCodeExternalId of 256 characters', { taxCodeExternalId: 't'.repeat(256) }, ['OTHER']],
    [
      'several faults',
      { externalId: '', name: '', code: 'c'.repeat(300), archived: 1 },
      ['EXTERNAL_ID_EMPTY', 'NAME_EMPTY', 'CODE_TOO_LONG', 'OTHER'],
    ],
  ];
  for (const [what, fields, reasons] of cases) {
    it(`fails an item with ${what} (${reasons.join(', ')}) and creates the others`, async () => {
      const { company, token } = await newCompany();
      const bad = JSON.parse(JSON.stringify(item(fields as Record<string, unknown>)));
      const good = item();
      const response = await t.request('POST', BATCH, { token, body: { companyId: company, items: [good, bad] } });
      assert.equal(response.status, 201, response.text);
      assert.deepEqual(response.body.data.failed, [{ reasons, request: bad }]);
      assert.deepEqual(
        response.body.data.created.map((a: { externalId: string }) => a.externalId),
        [good.externalId],
      );
      assert.equal(await rowCount(company), 1);
    });
  }

  it('fails items that are not objects with OTHER, echoing them', async () => {
    const { company, token } = await newCompany();
    const response = await t.request('POST', BATCH, { token, body: { companyId: company, items: [5, null, 'x', []] } });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body.data, {
      created: [],
      failed: [5, null, 'x', []].map((request) => ({ reasons: ['OTHER'], request })),
    });
  });

  it('answers a whole replayed batch with the stored accounts and no failures, creating nothing', async () => {
    const { company, token } = await newCompany();
    const items = Array.from({ length: 20 }, (_, i) =>
      item({ code: String(i), metadata: i % 2 ? null : { a: { i } } }),
    );
    const body = { companyId: company, items };
    const first = await t.request('POST', BATCH, { token, body });
    const replay = await t.request('POST', BATCH, { token, body });
    assert.equal(replay.status, 201);
    assert.deepEqual(replay.body, first.body);
    assert.equal(replay.body.data.created.length, 20);
    assert.equal(await rowCount(company), 20);
  });

  it('after a partial success, a replay creates the rest and reports the first ones as created', async () => {
    const { company, token } = await newCompany();
    const items = [item(), item(), item()];
    const first = await t.request('POST', BATCH, { token, body: { companyId: company, items: items.slice(0, 2) } });
    const whole = await t.request('POST', BATCH, { token, body: { companyId: company, items } });
    assert.deepEqual(whole.body.data.failed, []);
    assert.deepEqual(whole.body.data.created.slice(0, 2), first.body.data.created);
    assert.equal(await rowCount(company), 3);
  });

  it('fails an item whose externalId a different stored account has, and adds it to an invalid item’s reasons', async () => {
    const { company, token } = await newCompany();
    const stored = item();
    await t.request('POST', BATCH, { token, body: { companyId: company, items: [stored] } });
    const changed = { ...stored, name: 'Renamed' };
    const invalid = { ...stored, name: '' };
    const response = await t.request('POST', BATCH, { token, body: { companyId: company, items: [changed, invalid] } });
    assert.deepEqual(response.body.data, {
      created: [],
      failed: [
        { reasons: ['EXTERNAL_ID_ALREADY_EXISTS'], request: changed },
        { reasons: ['EXTERNAL_ID_ALREADY_EXISTS', 'NAME_EMPTY'], request: invalid },
      ],
    });
    assertMatchesReference('DataResponseBookkeepingAccountBatchCreateResponseV1', response.body);
  });

  it('creates the first valid item of a repeated externalId: identical repeats are answered once, different ones fail', async () => {
    const { company, token } = await newCompany();
    const invalidFirst = item({ externalId: 'dup', name: 'n'.repeat(256) });
    const winner = item({ externalId: 'dup', name: 'Winner' });
    const same = { ...winner, metadata: { erp: { id: 1 } } };
    const different = { ...winner, name: 'Loser' };
    const response = await t.request('POST', BATCH, {
      token,
      body: { companyId: company, items: [invalidFirst, winner, same, different] },
    });
    const { created, failed } = response.body.data;
    assert.equal(created.length, 1);
    assert.equal(created[0].name, 'Winner');
    assert.deepEqual(failed, [
      { reasons: ['EXTERNAL_ID_ALREADY_EXISTS', 'NAME_TOO_LONG'], request: invalidFirst },
      { reasons: ['EXTERNAL_ID_ALREADY_EXISTS'], request: different },
    ]);
    assert.equal(await rowCount(company), 1);
  });

  it('takes 1,000 items with metadata in one request under the body limit', async () => {
    const { company, token } = await newCompany();
    const items = Array.from({ length: 1000 }, (_, i) =>
      item({
        externalId: `acc-${i}`,
        name: `Account ${i} ${'n'.repeat(200)}`,
        metadata: { erp: { ref: 'r'.repeat(400) } },
      }),
    );
    const body = JSON.stringify({ companyId: company, items });
    assert.ok(body.length < BODY_LIMIT, `${body.length} bytes`);
    const response = await t.request('POST', BATCH, { token, body, headers: { 'content-type': 'application/json' } });
    assert.equal(response.status, 201);
    assert.equal(response.body.data.created.length, 1000);
    assert.equal(await rowCount(company), 1000);
  });
});

describe('a malformed batch', () => {
  const malformed: [string, (company: string) => unknown][] = [
    ['no companyId', () => ({ items: [item()] })],
    ['a companyId that is no uuid', () => ({ companyId: 'acme', items: [item()] })],
    ['no items', (company) => ({ companyId: company })],
    ['items that are not an array', (company) => ({ companyId: company, items: item() })],
    ['0 items', (company) => ({ companyId: company, items: [] })],
    ['1,001 items', (company) => ({ companyId: company, items: Array.from({ length: 1001 }, () => item()) })],
    ['an array body', () => [item()]],
    [
      'an item naming another listed company',
      (company) => ({ companyId: company, items: [item(), item({ companyId: LISTED })] }),
    ],
  ];
  const LISTED = randomUUID();
  for (const [what, body] of malformed) {
    it(`answers 400 for ${what}, creating nothing`, async () => {
      const company = randomUUID();
      const token = await t.token({ companies: [company, LISTED] });
      const response = await t.request('POST', BATCH, { token, body: body(company) });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, 'VALIDATION_FAILED');
      assert.equal(await rowCount(company), 0);
    });
  }

  it('answers 403 for an item naming a company the token does not list, creating nothing', async () => {
    const { company, token } = await newCompany();
    const items = [item(), item({ companyId: randomUUID() })];
    const response = await t.request('POST', BATCH, { token, body: { companyId: company, items } });
    assert.equal(response.status, 403, response.text);
    assert.equal(await rowCount(company), 0);
  });

  it('reads a key sent twice in one object as its last value, the company’s access checked on that one', async () => {
    const { company, token } = await newCompany();
    const other = randomUUID();
    const twice = '{"externalId":"first","name":"Sales","externalId":"last","archived":false}';
    const send = (body: string) =>
      t.request('POST', BATCH, { token, body, headers: { 'content-type': 'application/json' } });
    const created = await send(`{"companyId":"${other}","items":[${twice}],"companyId":"${company}"}`);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(
      created.body.data.created.map((a: { externalId: string; companyId: string }) => [a.companyId, a.externalId]),
      [[company, 'last']],
    );
    const refused = await send(`{"companyId":"${company}","items":[${twice}],"companyId":"${other}"}`);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(await rowCount(company), 1);
    assert.equal(await rowCount(other), 0);
  });

  it('accepts items that repeat the batch’s companyId, in any case', async () => {
    const { company, token } = await newCompany();
    const items = [item({ companyId: company.toUpperCase() })];
    const response = await t.request('POST', BATCH, { token, body: { companyId: company, items } });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.data.created.length, 1);
  });

  it('answers 413 over 1 MiB, 415 for another content type, 400 for malformed JSON', async () => {
    const { company, token } = await newCompany();
    const huge = JSON.stringify({
      companyId: company,
      items: [item({ metadata: { blob: { x: 'x'.repeat(BODY_LIMIT) } } })],
    });
    const cases: [string, string, number][] = [
      [huge, 'application/json', 413],
      ['companyId=x', 'text/plain', 415],
      ['{"companyId":', 'application/json;charset=UTF-8', 400],
    ];
    for (const [body, type, status] of cases) {
      const response = await t.request('POST', BATCH, { token, body, headers: { 'content-type': type } });
      assert.equal(response.status, status, response.text);
      assert.equal(response.headers['content-type'], 'application/json;charset=UTF-8');
    }
    assert.equal(await rowCount(company), 0);
  });
});

describe('concurrent batches', () => {
  it('sharing externalIds make one row each and never a 5xx; each item is created or fails as taken', async () => {
    const { company, token } = await newCompany();
    const N = 8;
    const ids = Array.from({ length: 600 }, (_, i) => `shared-${i}`);
    // Every batch holds the same externalIds, half of them in reverse order; a third of the batches
    // name them differently.
    const batches = Array.from({ length: N }, (_, b) => {
      const items = ids.map((externalId) => ({
        externalId,
        name: b % 3 === 0 ? `Other ${b}` : 'Same',
        archived: false,
      }));
      return { companyId: company, items: b % 2 ? items.reverse() : items };
    });
    const responses = await Promise.all(batches.map((body) => t.request('POST', BATCH, { token, body })));
    for (const response of responses) assert.equal(response.status, 201, response.text);
    assert.equal(await rowCount(company), ids.length);
    const stored = new Map<string, { id: string; name: string }>();
    const rows = await t.db.query<{ id: string; externalId: string; name: string }>(
      'SELECT id, external_id AS "externalId", name FROM accounts WHERE company_id = $1',
      [company],
    );
    for (const row of rows) stored.set(row.externalId, row);
    responses.forEach((response, b) => {
      const { created, failed } = response.body.data;
      assert.equal(created.length + failed.length, ids.length);
      for (const account of created) assert.equal(account.id, stored.get(account.externalId)?.id);
      for (const account of created) assert.equal(account.name, batches[b]?.items[0]?.name);
      for (const failure of failed) {
        assert.deepEqual(failure.reasons, ['EXTERNAL_ID_ALREADY_EXISTS']);
        assert.notEqual(stored.get(failure.request.externalId)?.name, failure.request.name);
      }
    });
  });
});

describe('an account deleted between the insert and the read', () => {
  it('is inserted in a second round, beside the accounts the first round inserted or found', async () => {
    const { company, token } = await newCompany();
    const gone = item({ name: 'Deleted meanwhile' });
    const kept = item();
    await t.request('POST', BATCH, { token, body: { companyId: company, items: [gone, kept] } });
    const remade = { ...gone, name: 'Made again' };
    const fresh = item();
    const invalid = { ...gone, name: '' };
    // The batch's first insert skips `gone`, whose row is deleted as soon as that insert commits.
    let inserts = 0;
    const db: Database = {
      ...t.db,
      transaction: async (work) => {
        const inserted = await t.db.transaction(work);
        if (++inserts === 1) {
          await t.db.query('DELETE FROM accounts WHERE company_id = $1 AND external_id = $2', [
            company,
            gone.externalId,
          ]);
        }
        return inserted;
      },
    };
    const principal = {
      subject: randomUUID(),
      clientId: undefined,
      scopes: new Set(['accounts:write']),
      companies: new Set([company]),
      accountingSystem: undefined,
    };
    const result = await createAccountsBatch(db, principal, {
      companyId: company,
      items: [remade, kept, fresh, invalid],
    });
    assert.equal(inserts, 2);
    const rows = await t.db.query<{ externalId: string; json: string }>(
      'SELECT external_id AS "externalId", api_json AS json FROM accounts WHERE company_id = $1',
      [company],
    );
    const stored = new Map(rows.map((row) => [row.externalId, row.json]));
    assert.equal(stored.size, 3);
    assert.equal(JSON.parse(stored.get(remade.externalId) ?? '{}').name, 'Made again');
    assert.deepEqual(result, {
      created: [remade, kept, fresh].map((account) => stored.get(account.externalId)),
      failed: [{ reasons: ['EXTERNAL_ID_ALREADY_EXISTS', 'NAME_EMPTY'], request: invalid }],
    });
  });
});

describe('the search total after batches', () => {
  const totals = async (company: string, token: string) => {
    const total = async (filters: Record<string, unknown>) => {
      const response = await t.request('POST', '/v1/chart-of-accounts:search?limit=1', {
        token,
        body: { companyId: company, ...filters },
      });
      assert.equal(response.status, 200, response.text);
      return response.body.pagination.total;
    };
    return {
      all: await total({}),
      archived: await total({ archived: true }),
      active: await total({ archived: false }),
    };
  };

  it('stays exact under 16 concurrent batches of 1,000 into one company, every batch created', async () => {
    const { company, token } = await newCompany();
    // Every twentieth account archived, so that each batch counts under both flags.
    const batches = Array.from({ length: 16 }, (_, b) =>
      Array.from({ length: 1000 }, (_, i) => ({
        externalId: `b${b}-${i}`,
        name: `Account ${b}-${i}`,
        archived: i % 20 === 0,
      })),
    );
    const responses = await Promise.all(
      batches.map((items) => t.request('POST', BATCH, { token, body: { companyId: company, items } })),
    );
    for (const response of responses) {
      assert.equal(response.status, 201, response.text);
      assert.equal(response.body.data.created.length, 1000);
    }
    assert.deepEqual(await totals(company, token), { all: 16_000, archived: 800, active: 15_200 });
    assert.equal(await rowCount(company), 16_000);
  });

  it('counts a batch once per archived flag, not once per account', async () => {
    const { company, token } = await newCompany();
    const items = Array.from({ length: 100 }, (_, i) => item({ archived: i < 10 }));
    // The first item again: not created, not counted.
    const response = await t.request('POST', BATCH, {
      token,
      body: { companyId: company, items: [...items, items[0]] },
    });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(await totals(company, token), { all: 100, archived: 10, active: 90 });
    // One counter row per flag: a batch locks two rows, whatever its size (migration 0023).
    const counters = await t.db.query<{ archived: boolean; n: string }>(
      'SELECT archived, n FROM account_counts WHERE company_id = $1 ORDER BY archived',
      [company],
    );
    assert.deepEqual(
      counters.map((c) => [c.archived, Number(c.n)]),
      [
        [false, 90],
        [true, 10],
      ],
    );
  });
});

describe('rate limit', () => {
  it('counts a batch as one request', async () => {
    const limited = await startTestApp({
      rateLimits: { max: 2, windowMs: 60_000, authFailureMax: 0, authFailureWindowMs: 1000 },
    });
    try {
      const company = randomUUID();
      const token = await limited.token({ companies: [company] });
      const items = Array.from({ length: 50 }, () => item());
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await limited.request('POST', BATCH, { token, body: { companyId: company, items } })).status);
      }
      assert.deepEqual(statuses, [201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});
