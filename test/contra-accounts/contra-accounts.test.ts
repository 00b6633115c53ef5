import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { itEnforcesAccess } from '../support/security.ts';
import { whileLocked } from '../support/while-locked.ts';

const { t, company, token, freshCompany } = await startCompanyTestApp();
const otherCompany = randomUUID();

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

async function createAccount(companyId: string = company) {
  const as = companyId === company ? token : await t.token({ companies: [companyId] });
  const response = await t.request('POST', '/v1-beta/accounts', {
    token: as,
    body: { companyId, externalId: `ext-${randomUUID()}`, name: 'Wallet', archived: false },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.data.id as string;
}

function post(body: Record<string, unknown>, as = token) {
  return t.request('POST', '/v1-beta/contra-accounts', { token: as, body });
}

async function create(fields: Record<string, unknown> = {}, as = token) {
  const companyId = (fields.companyId as string | undefined) ?? company;
  const body = { companyId, kind: 'WALLET', accountId: await createAccount(companyId), ...fields };
  const response = await post(body, as);
  assert.equal(response.status, 201, response.text);
  return response.body.data;
}

const paths = (body: { errors: { path: string }[] }) => [...new Set(body.errors.map((e) => e.path))].sort();

async function contraAccountsOf(companyId: string, as: string) {
  const response = await t.request('POST', '/v1-beta/contra-accounts:search', { token: as, body: { companyId } });
  assert.equal(response.status, 200, response.text);
  return response.body.data as { id: string; kind: string; currency: string | null; accountId: string }[];
}

describe('POST /v1-beta/contra-accounts', () => {
  it('creates a contra account and returns every field, unset ones as null', async () => {
    const c = await freshCompany();
    const accountId = await createAccount(c.companyId);
    const body = { companyId: c.companyId, kind: 'REIMBURSEMENT', accountId, metadata: { erp: 'x' } };
    const response = await post(body, c.token);
    assert.equal(response.status, 201, response.text);
    const { id, createdAt, updatedAt, ...rest } = response.body.data;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(createdAt, TIMESTAMP);
    assert.equal(updatedAt, createdAt);
    assert.deepEqual(rest, { ...body, externalId: null, currency: null });
  });

  it('takes one wallet per additional currency, each naming its currency', async () => {
    const c = await freshCompany();
    const usd = await create({ companyId: c.companyId, kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'USD' }, c.token);
    const sek = await create({ companyId: c.companyId, kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'SEK' }, c.token);
    await create({ companyId: c.companyId, kind: 'WALLET' }, c.token);
    assert.equal(usd.currency, 'USD');
    assert.equal(sek.currency, 'SEK');
    const again = await post(
      { companyId: c.companyId, kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'USD', accountId: sek.accountId },
      c.token,
    );
    assert.equal(again.status, 409);
    assert.equal(again.body.type, 'CONTRA_ACCOUNT_ALREADY_EXISTS');
    assert.equal(again.body.existingId, usd.id);
  });

  it('answers 200 with the stored contra account for a replay, 409 with existingId for a different one', async () => {
    const c = await freshCompany();
    const stored = await create(
      { companyId: c.companyId, kind: 'ACCOUNTS_PAYABLE', metadata: { a: 1, b: [2] } },
      c.token,
    );
    const replay = await post(
      { companyId: c.companyId, kind: 'ACCOUNTS_PAYABLE', accountId: stored.accountId, metadata: { b: [2], a: 1 } },
      c.token,
    );
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(replay.body.data, stored);
    const other = await post(
      { companyId: c.companyId, kind: 'ACCOUNTS_PAYABLE', accountId: await createAccount(c.companyId) },
      c.token,
    );
    assert.equal(other.status, 409);
    assert.equal(other.body.type, 'CONTRA_ACCOUNT_ALREADY_EXISTS');
    assert.equal(other.body.existingId, stored.id);
    assert.deepEqual(
      (await contraAccountsOf(c.companyId, c.token)).map((x) => x.id),
      [stored.id],
    );
  });

  it('keeps an externalId unique per company: another kind with a taken one answers 409 with existingId', async () => {
    const c = await freshCompany();
    const externalId = `ERP-${randomUUID()}`;
    const stored = await create({ companyId: c.companyId, kind: 'WALLET', externalId }, c.token);
    assert.equal(stored.externalId, externalId);
    const replay = await post(
      { companyId: c.companyId, kind: 'WALLET', externalId, accountId: stored.accountId },
      c.token,
    );
    assert.equal(replay.status, 200, replay.text);
    const taken = await post(
      { companyId: c.companyId, kind: 'REIMBURSEMENT', externalId, accountId: stored.accountId },
      c.token,
    );
    assert.equal(taken.status, 409);
    assert.equal(taken.body.type, 'CONTRA_ACCOUNT_ALREADY_EXISTS');
    assert.equal(taken.body.existingId, stored.id);
    const both = await t.token({ companies: [otherCompany] });
    await create({ companyId: otherCompany, kind: 'REIMBURSEMENT', externalId }, both);
    const found = await t.request('POST', '/v1-beta/contra-accounts:search', {
      token: c.token,
      body: { companyId: c.companyId, externalId },
    });
    assert.deepEqual(
      found.body.data.map((x: { id: string }) => x.id),
      [stored.id],
    );
  });

  it('lets each company have its own contra account of a kind', async () => {
    const both = await t.token({ companies: [company, otherCompany] });
    const ours = await create({ kind: 'EXTERNAL_REIMBURSEMENT' }, both);
    const theirs = await create({ kind: 'EXTERNAL_REIMBURSEMENT', companyId: otherCompany }, both);
    assert.notEqual(ours.id, theirs.id);
  });

  it('answers 400 UNKNOWN_ACCOUNT naming accountId for an account of another company or none, creating nothing', async () => {
    const c = await freshCompany();
    for (const accountId of [await createAccount(otherCompany), randomUUID()]) {
      const response = await post({ companyId: c.companyId, kind: 'WALLET', accountId }, c.token);
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, 'UNKNOWN_ACCOUNT');
      assert.deepEqual(paths(response.body), ['/accountId']);
      assert.doesNotMatch(response.text, new RegExp(otherCompany));
    }
    assert.deepEqual(await contraAccountsOf(c.companyId, c.token), []);
  });

  it('requires a currency for ADDITIONAL_CURRENCY_WALLET and refuses one for other kinds', async () => {
    const accountId = await createAccount();
    for (const body of [
      { kind: 'ADDITIONAL_CURRENCY_WALLET' },
      { kind: 'ADDITIONAL_CURRENCY_WALLET', currency: null },
      { kind: 'WALLET', currency: 'EUR' },
    ]) {
      const response = await post({ companyId: company, accountId, ...body });
      assert.equal(response.status, 400, response.text);
      assert.deepEqual(paths(response.body), ['/currency']);
    }
  });

  it('lists every missing required field', async () => {
    const response = await post({});
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(paths(response.body), ['/accountId', '/companyId', '/kind']);
  });

  for (const [field, value] of [
    ['kind', 'BANK'],
    ['kind', 1],
    ['currency', 'usd'],
    ['currency', 'EURO'],
    ['accountId', 'not-a-uuid'],
    ['externalId', ''],
    ['externalId', 'x'.repeat(256)],
    ['companyId', 'not-a-uuid'],
    ['metadata', 'text'],
    ['metadata', [1]],
    ['metadata', { big: 'x'.repeat(64 * 1024) }],
  ] as const) {
    it(`answers 400 for ${field} = ${JSON.stringify(value).slice(0, 30)}`, async () => {
      const body = { companyId: company, kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'NOK', accountId: randomUUID() };
      const response = await post({ ...body, [field]: value });
      assert.equal(response.status, 400, response.text);
      assert.deepEqual(paths(response.body), [`/${field}`]);
    });
  }

  it('makes one winner of concurrent creates of the same kind: the other answers 409', async () => {
    for (let round = 0; round < 5; round++) {
      const c = await freshCompany();
      const accounts = [await createAccount(c.companyId), await createAccount(c.companyId)];
      const answers = await Promise.all(
        accounts.map((accountId) => post({ companyId: c.companyId, kind: 'WALLET', accountId }, c.token)),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409], answers.map((a) => a.text).join('\n'));
      const winner = answers.find((a) => a.status === 201)?.body.data;
      assert.equal(answers.find((a) => a.status === 409)?.body.existingId, winner.id);
      assert.deepEqual(
        (await contraAccountsOf(c.companyId, c.token)).map((x) => x.id),
        [winner.id],
      );
    }
  });

  it('answers identical concurrent creates with one 201 and one 200 of the same contra account', async () => {
    const c = await freshCompany();
    const body = { companyId: c.companyId, kind: 'WALLET', accountId: await createAccount(c.companyId) };
    const answers = await Promise.all([post(body, c.token), post(body, c.token)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 201]);
    assert.equal(answers[0]?.body.data.id, answers[1]?.body.data.id);
  });
});

describe('GET /v1-beta/contra-accounts/{id}', () => {
  it('returns the contra account', async () => {
    const stored = await create({ kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'DKK' });
    const response = await t.request('GET', `/v1-beta/contra-accounts/${stored.id}`, { token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, stored);
  });

  it('answers 404 CONTRA_ACCOUNT_NOT_FOUND for an unknown id and 400 for a malformed one', async () => {
    const missing = await t.request('GET', `/v1-beta/contra-accounts/${randomUUID()}`, { token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.type, 'CONTRA_ACCOUNT_NOT_FOUND');
    assert.equal((await t.request('GET', '/v1-beta/contra-accounts/nope', { token })).status, 400);
  });
});

describe('PUT /v1-beta/contra-accounts/{id}', () => {
  it('replaces the account and metadata, keeping kind and currency; an omitted metadata becomes null', async () => {
    const stored = await create({ kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'GBP', metadata: { a: 1 } });
    const accountId = await createAccount();
    // kind and currency are not the update's to change: sent, they are unknown properties.
    const refused = await t.request('PUT', `/v1-beta/contra-accounts/${stored.id}`, {
      token,
      body: { accountId, kind: 'WALLET', currency: 'EUR' },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(paths(refused.body), ['/currency', '/kind']);
    const response = await t.request('PUT', `/v1-beta/contra-accounts/${stored.id}`, { token, body: { accountId } });
    assert.equal(response.status, 200, response.text);
    const { updatedAt, ...rest } = response.body.data;
    const { updatedAt: before, ...kept } = stored;
    assert.deepEqual(rest, { ...kept, accountId, metadata: null });
    assert.ok(updatedAt > before);
  });

  it('answers 400 UNKNOWN_ACCOUNT for an account of another company, changing nothing', async () => {
    const stored = await create({ kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'PLN' });
    const response = await t.request('PUT', `/v1-beta/contra-accounts/${stored.id}`, {
      token,
      body: { accountId: await createAccount(otherCompany) },
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.type, 'UNKNOWN_ACCOUNT');
    assert.deepEqual(paths(response.body), ['/accountId']);
    assert.deepEqual((await t.request('GET', `/v1-beta/contra-accounts/${stored.id}`, { token })).body.data, stored);
  });

  it('answers 404 for an unknown contra account and 400 without accountId', async () => {
    const unknown = await t.request('PUT', `/v1-beta/contra-accounts/${randomUUID()}`, {
      token,
      body: { accountId: await createAccount() },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.type, 'CONTRA_ACCOUNT_NOT_FOUND');
    const stored = await create({ kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'CHF' });
    const missing = await t.request('PUT', `/v1-beta/contra-accounts/${stored.id}`, { token, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(paths(missing.body), ['/accountId']);
  });
});

describe('DELETE /v1-beta/contra-accounts/{id}', () => {
  it('deletes the contra account (204), then answers 404', async () => {
    const stored = await create({ kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'JPY' });
    const response = await t.request('DELETE', `/v1-beta/contra-accounts/${stored.id}`, { token });
    assert.equal(response.status, 204);
    assert.equal((await t.request('GET', `/v1-beta/contra-accounts/${stored.id}`, { token })).status, 404);
    assert.equal((await t.request('DELETE', `/v1-beta/contra-accounts/${stored.id}`, { token })).status, 404);
  });
});

describe('the account a contra account uses', () => {
  it('cannot be deleted: 409 ACCOUNT_IN_USE names the contra account; once it is gone, the account can be', async () => {
    const stored = await create({ kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'ISK' });
    for (const base of ['/v1-beta/accounts', '/v1/chart-of-accounts']) {
      const refused = await t.request('DELETE', `${base}/${stored.accountId}`, { token });
      assert.equal(refused.status, 409, refused.text);
      assert.equal(refused.body.type, 'ACCOUNT_IN_USE');
      assert.deepEqual(refused.body.usedBy, [{ resource: 'contra-accounts', ids: [stored.id] }]);
      assert.match(refused.body.detail, new RegExp(stored.id));
    }
    assert.equal((await t.request('DELETE', `/v1-beta/contra-accounts/${stored.id}`, { token })).status, 204);
    assert.equal((await t.request('DELETE', `/v1-beta/accounts/${stored.accountId}`, { token })).status, 204);
  });

  it('names accounting entries and contra accounts together', async () => {
    const stored = await create({ kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'CAD' });
    const entry = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: { companyId: company, accountId: stored.accountId, amount: '-1.00', currency: 'CAD', date: '2026-11-24' },
    });
    assert.equal(entry.status, 201, entry.text);
    const refused = await t.request('DELETE', `/v1-beta/accounts/${stored.accountId}`, { token });
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body.usedBy, [
      { resource: 'accounting-entries', ids: [entry.body.data.id] },
      { resource: 'contra-accounts', ids: [stored.id] },
    ]);
  });

  it('is never deleted under a contra account created or moved to it at the same time', async () => {
    const c = await freshCompany();
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const accountId = await createAccount(c.companyId);
      const kind = round % 2 === 0 ? 'REIMBURSEMENT' : 'EXTERNAL_REIMBURSEMENT';
      const [existing] = (await contraAccountsOf(c.companyId, c.token)).filter((x) => x.kind === kind);
      const write = existing
        ? t.request('PUT', `/v1-beta/contra-accounts/${existing.id}`, { token: c.token, body: { accountId } })
        : post({ companyId: c.companyId, kind, accountId }, c.token);
      const [deleted, written] = await Promise.all([
        t.request('DELETE', `/v1-beta/accounts/${accountId}`, { token: c.token }),
        write,
      ]);
      const outcome = `${deleted.status}/${written.status}`;
      // The delete first: the write finds no account. The write first: the account is in use.
      assert.ok(['204/400', '409/200', '409/201'].includes(outcome), `${outcome}: ${deleted.text} ${written.text}`);
      if (written.status === 400) assert.equal(written.body.type, 'UNKNOWN_ACCOUNT');
      outcomes.add(outcome);
    }
    const [dangling] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM contra_accounts c WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = c.account_id)',
    );
    assert.equal(dangling?.n, 0);
  });
});

describe('an account deleted while a contra account is written to it', () => {
  it('refuses the contra account (400) when the delete commits while its insert waits', async () => {
    const c = await freshCompany();
    const accountId = await createAccount(c.companyId);
    const answer = await whileLocked(
      t.db,
      (tx) => tx.query('DELETE FROM accounts WHERE id = $1', [accountId]),
      () => post({ companyId: c.companyId, kind: 'WALLET', accountId }, c.token),
    );
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.type, 'UNKNOWN_ACCOUNT');
    assert.deepEqual(await contraAccountsOf(c.companyId, c.token), []);
  });

  it('refuses the delete (409) when a contra account using the account commits while the delete waits', async () => {
    const c = await freshCompany();
    const accountId = await createAccount(c.companyId);
    const answer = await whileLocked(
      t.db,
      (tx) =>
        tx.query(`INSERT INTO contra_accounts (company_id, kind, account_id) VALUES ($1, 'WALLET', $2)`, [
          c.companyId,
          accountId,
        ]),
      () => t.request('DELETE', `/v1-beta/accounts/${accountId}`, { token: c.token }),
    );
    assert.equal(answer.status, 409, answer.text);
    assert.equal(answer.body.type, 'ACCOUNT_IN_USE');
    assert.equal((await t.request('GET', `/v1-beta/accounts/${accountId}`, { token: c.token })).status, 200);
  });
});

describe('POST /v1-beta/contra-accounts:search', () => {
  let c: { companyId: string; token: string };
  let all: { id: string; kind: string; currency: string | null; accountId: string }[];

  before(async () => {
    c = await freshCompany();
    for (const [kind, currency] of [
      ['WALLET', null],
      ['ADDITIONAL_CURRENCY_WALLET', 'USD'],
      ['ADDITIONAL_CURRENCY_WALLET', 'EUR'],
      ['ACCOUNTS_PAYABLE', null],
      ['REIMBURSEMENT', null],
    ] as const) {
      await create({ companyId: c.companyId, kind, currency }, c.token);
    }
    // Another company's contra accounts never appear.
    await create({ companyId: otherCompany, kind: 'WALLET' }, await t.token({ companies: [otherCompany] }));
    all = await contraAccountsOf(c.companyId, c.token);
  });

  const search = (body: Record<string, unknown>, query = '') =>
    t.request('POST', `/v1-beta/contra-accounts:search${query}`, {
      token: c.token,
      body: { companyId: c.companyId, ...body },
    });

  it('sorts by kind, then currency, by default, and counts the total', async () => {
    assert.deepEqual(
      all.map((x) => [x.kind, x.currency]),
      [
        ['ACCOUNTS_PAYABLE', null],
        ['ADDITIONAL_CURRENCY_WALLET', 'EUR'],
        ['ADDITIONAL_CURRENCY_WALLET', 'USD'],
        ['REIMBURSEMENT', null],
        ['WALLET', null],
      ],
    );
    const response = await search({});
    assert.equal(response.body.pagination.total, 5);
    assert.deepEqual(response.body.pagination.currentRequestPagination.sortingKeys, ['kind', 'currency']);
  });

  it('filters by ids, kinds, currencies and accountIds', async () => {
    const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((x) => x.id);
    const [first, second] = all;
    assert.deepEqual(ids(await search({ ids: [second?.id] })), [second?.id]);
    assert.deepEqual(ids(await search({ kinds: ['WALLET', 'REIMBURSEMENT'] })), [all[3]?.id, all[4]?.id]);
    assert.deepEqual(ids(await search({ currencies: ['USD'] })), [all[2]?.id]);
    assert.deepEqual(ids(await search({ accountIds: [first?.accountId] })), [first?.id]);
    assert.deepEqual(ids(await search({ kinds: ['WALLET'], currencies: ['USD'] })), []);
  });

  it('pages with cursors and sorts by other keys', async () => {
    const first = await search({}, '?limit=2&sorting_keys=createdAt&sorting_order=DESC');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.length, 2);
    assert.equal(first.body.pagination.hasNextPage, true);
    const rest = await search(
      {},
      `?limit=10&sorting_keys=createdAt&sorting_order=DESC&after=${first.body.pagination.endCursor}`,
    );
    assert.equal(rest.body.data.length, 3);
    assert.equal(rest.body.pagination.hasPreviousPage, true);
    const walked = [...first.body.data, ...rest.body.data].map((x: { id: string }) => x.id);
    assert.deepEqual(new Set(walked), new Set(all.map((x) => x.id)));
  });

  it('answers 400 for an unknown sort key, a cursor of another sort and a bad filter', async () => {
    assert.equal((await search({}, '?sorting_keys=name')).status, 400);
    const page = await search({}, '?limit=1');
    const cursor = page.body.pagination.endCursor;
    const other = await search({}, `?sorting_keys=id&after=${cursor}`);
    assert.equal(other.status, 400);
    assert.equal(other.body.type, 'INVALID_CURSOR');
    assert.equal((await search({ kinds: ['BANK'] })).status, 400);
    assert.equal((await search({ currencies: ['usd'] })).status, 400);
    const noCompany = await t.request('POST', '/v1-beta/contra-accounts:search', { token: c.token, body: {} });
    assert.deepEqual(paths(noCompany.body), ['/companyId']);
  });
});

describe('access', () => {
  const app = () => t;
  let stored: { id: string; accountId: string };
  before(async () => {
    stored = await create({ kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'AUD' });
  });
  const companyOf = () => company;

  describe('create', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => '/v1-beta/contra-accounts',
      body: (c) => ({ companyId: c, kind: 'ADDITIONAL_CURRENCY_WALLET', currency: 'AUD', accountId: stored.accountId }),
      scope: 'contra-accounts:write',
      company: companyOf,
      companyInBody: true,
    }));
  describe('get', () =>
    itEnforcesAccess(app, {
      method: 'GET',
      url: () => `/v1-beta/contra-accounts/${stored.id}`,
      scope: 'contra-accounts:read',
      company: companyOf,
      resourceInPath: true,
    }));
  describe('update', () =>
    itEnforcesAccess(app, {
      method: 'PUT',
      url: () => `/v1-beta/contra-accounts/${stored.id}`,
      body: () => ({ accountId: stored.accountId }),
      scope: 'contra-accounts:write',
      company: companyOf,
      resourceInPath: true,
    }));
  describe('delete', () =>
    itEnforcesAccess(app, {
      method: 'DELETE',
      url: () => `/v1-beta/contra-accounts/${randomUUID()}`,
      scope: 'contra-accounts:write',
      company: companyOf,
      resourceInPath: true,
    }));
  describe('search', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => '/v1-beta/contra-accounts:search',
      body: (c) => ({ companyId: c }),
      scope: 'contra-accounts:read',
      company: companyOf,
      companyInBody: true,
    }));

  it('lets contra-accounts:read read but not write, and another company neither read nor delete', async () => {
    const reader = await t.token({ companies: [company], scopes: ['contra-accounts:read'] });
    assert.equal((await t.request('GET', `/v1-beta/contra-accounts/${stored.id}`, { token: reader })).status, 200);
    const write = await t.request('DELETE', `/v1-beta/contra-accounts/${stored.id}`, { token: reader });
    assert.equal(write.status, 403);
    const stranger = await t.token({ companies: [otherCompany] });
    const theirs = await t.request('DELETE', `/v1-beta/contra-accounts/${stored.id}`, { token: stranger });
    assert.equal(theirs.status, 404);
    const update = await t.request('PUT', `/v1-beta/contra-accounts/${stored.id}`, {
      token: stranger,
      body: { accountId: await createAccount(otherCompany) },
    });
    assert.equal(update.status, 404);
    assert.deepEqual((await t.request('GET', `/v1-beta/contra-accounts/${stored.id}`, { token })).body.data, stored);
  });
});
