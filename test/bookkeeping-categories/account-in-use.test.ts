import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Queryable } from '../../src/db/database.ts';
import type { TestResponse } from '../support/harness.ts';
import { CATEGORIES, startBookkeepingTestApp } from './support.ts';

// An account a category books to cannot be deleted (409 ACCOUNT_IN_USE naming it), and a delete
// racing a create that references the account never leaves a category pointing at a deleted
// account (docs/decisions/bookkeeping.md). On PostgreSQL the racing requests run on separate
// connections; on PGlite they take turns between statements.

const { t, company, token, make } = await startBookkeepingTestApp();
let group: { id: string };

before(async () => {
  group = await make.group();
});

const deleteAccount = (id: string, version = 'v1-beta') =>
  t.request('DELETE', version === 'v1' ? `/v1/chart-of-accounts/${id}` : `/v1-beta/accounts/${id}`, { token });

describe('deleting an account a category uses', () => {
  it('answers 409 ACCOUNT_IN_USE naming the categories, archived ones too, on v1-beta and v1, and keeps the account', async () => {
    const account = await make.account();
    const active = await make.category(group.id, account.id);
    const archived = await make.category(group.id, account.id, { archived: true });
    for (const version of ['v1-beta', 'v1']) {
      const response = await deleteAccount(account.id, version);
      assert.equal(response.status, 409, response.text);
      assert.equal(response.body.type, 'ACCOUNT_IN_USE');
      assert.equal(response.body.title, 'The account is in use');
      assert.deepEqual(response.body.usedBy, [
        { resource: 'bookkeeping-categories', ids: [active.id, archived.id].sort() },
      ]);
      assert.match(response.body.detail, /is used by bookkeeping categories \(/);
    }
    assert.equal((await t.request('GET', `/v1-beta/accounts/${account.id}`, { token })).status, 200);
    for (const category of [active, archived]) {
      assert.equal((await t.request('DELETE', `${CATEGORIES}/${category.id}`, { token })).status, 204);
    }
    assert.equal((await deleteAccount(account.id)).status, 204);
  });

  it('names accounting entries and categories together, at most 10 ids of each', async () => {
    const account = await make.account();
    for (let i = 0; i < 11; i++) await make.category(group.id, account.id);
    const entry = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: { companyId: company, accountId: account.id, amount: '10.00', currency: 'EUR', date: '2026-11-01' },
    });
    assert.equal(entry.status, 201, entry.text);
    const response = await deleteAccount(account.id);
    assert.equal(response.status, 409);
    assert.deepEqual(
      response.body.usedBy.map((u: { resource: string; ids: string[] }) => [u.resource, u.ids.length]),
      [
        ['accounting-entries', 1],
        ['bookkeeping-categories', 10],
      ],
    );
    assert.equal(response.body.usedBy[0].ids[0], entry.body.data.id);
    assert.match(response.body.detail, /accounting entries \(.*\) and bookkeeping categories \(.*, …\)/);
  });

  it('lets the category move to another account, which frees the first', async () => {
    const [first, second] = [await make.account(), await make.account()];
    const category = await make.category(group.id, first.id);
    const moved = await t.request('PUT', `${CATEGORIES}/${category.id}`, {
      token,
      body: { name: 'Flights', groupId: group.id, accountId: second.id, archived: false },
    });
    assert.equal(moved.status, 200);
    assert.equal((await deleteAccount(first.id)).status, 204);
    assert.equal((await deleteAccount(second.id)).status, 409);
  });
});

/** Categories whose account no longer exists: there must never be one. */
async function danglingCategories(): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM bookkeeping_categories c WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = c.account_id)',
  );
  return row?.n ?? -1;
}

describe('a delete of an account racing a create of a category that uses it', () => {
  it('ends as one of two outcomes every time: deleted and 400, or 409 and created', async () => {
    const accounts = await Promise.all(Array.from({ length: 20 }, () => make.account()));
    const outcomes = await Promise.all(
      accounts.map(async (account, i) => {
        const body = {
          companyId: company,
          name: `Race ${i}`,
          groupId: group.id,
          accountId: account.id,
          archived: false,
        };
        const create = t.request('POST', CATEGORIES, { token, body });
        const [created, deleted] = await Promise.all([create, deleteAccount(account.id)]);
        return `${deleted.status} ${created.status} ${deleted.body?.type ?? ''} ${created.body.type ?? ''}`.trim();
      }),
    );
    for (const outcome of outcomes) {
      assert.ok(['204 400  UNKNOWN_ACCOUNT', '409 201 ACCOUNT_IN_USE'].includes(outcome), outcomes.join('\n'));
    }
    assert.equal(await danglingCategories(), 0);
  });

  it('a delete still uncommitted when the create starts: the create waits and answers 400 once it commits', async () => {
    const account = await make.account();
    let create: Promise<TestResponse> | undefined;
    await t.db.transaction(async (tx) => {
      await tx.query('DELETE FROM accounts WHERE id = $1', [account.id]);
      create = t.request('POST', CATEGORIES, {
        token,
        body: { companyId: company, name: 'Late', groupId: group.id, accountId: account.id, archived: false },
      });
      await untilBlockedBy(tx);
    });
    const response = await (create as Promise<TestResponse>);
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.type, 'UNKNOWN_ACCOUNT');
    assert.equal(await danglingCategories(), 0);
  });

  it('a category still uncommitted when the delete starts: the delete waits and answers 409 naming it', async () => {
    const account = await make.account();
    let remove: Promise<TestResponse> | undefined;
    const categoryId = await t.db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: string }>(
        `INSERT INTO bookkeeping_categories (company_id, name, group_id, account_id, archived)
         VALUES ($1, 'Early', $2, $3, false) RETURNING id`,
        [company, group.id, account.id],
      );
      remove = deleteAccount(account.id);
      await untilBlockedBy(tx);
      return row?.id;
    });
    const response = await (remove as Promise<TestResponse>);
    assert.equal(response.status, 409, response.text);
    assert.deepEqual(response.body.usedBy, [{ resource: 'bookkeeping-categories', ids: [categoryId] }]);
  });
});

/**
 * Resolves once another session waits for a lock `tx` holds. On PGlite, with one session, a
 * request sent during a transaction simply runs after it, so there is nothing to wait for.
 */
async function untilBlockedBy(tx: Queryable): Promise<void> {
  if (t.db.kind !== 'postgres') return;
  const [self] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  for (;;) {
    const blocked = await t.db.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [
      self?.pid,
    ]);
    if (blocked.length > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
