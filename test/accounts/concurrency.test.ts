import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';

// Concurrent writes to accounts (docs/decisions/api-conventions.md): creates of one (companyId,
// externalId) make one row and never a 5xx; archiving in parallel keeps the search total exact. On
// PostgreSQL the requests run on separate connections at once; on PGlite they interleave between
// statements.

let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const N = 50;

async function rowsWithExternalId(company: string, externalId: string): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM accounts WHERE company_id = $1 AND external_id = $2',
    [company, externalId],
  );
  return row?.n ?? -1;
}

describe('concurrent creates of one externalId', () => {
  it('make exactly one row: one 201, and 200 for every identical request', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    const body = { companyId: company, externalId: 'same', name: 'Sales', archived: false, metadata: { n: 1 } };
    const responses = await Promise.all(
      Array.from({ length: N }, () => t.request('POST', '/v1-beta/accounts', { token, body })),
    );
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join());
    assert.equal(statuses.filter((s) => s === 200).length, N - 1, statuses.join());
    const ids = new Set(responses.map((r) => r.body.data.id));
    assert.equal(ids.size, 1);
    for (const response of responses)
      assert.deepEqual(response.body.data, { ...body, id: [...ids][0], code: null, taxCodeExternalId: null });
    assert.equal(await rowsWithExternalId(company, 'same'), 1);
  });

  it('answer 409 with the winner as existingId to every request that differs from it', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    // Two thirds ask for the same account; the others each for a name of their own.
    const bodies = Array.from({ length: N }, (_, i) => ({
      companyId: company,
      externalId: 'contested',
      name: i % 3 === 0 ? `Other ${i}` : 'Sales',
      archived: false,
    }));
    const responses = await Promise.all(bodies.map((body) => t.request('POST', '/v1-beta/accounts', { token, body })));
    for (const response of responses) assert.ok(response.status < 500, response.text);
    const winners = responses.filter((r) => r.status === 201);
    assert.equal(winners.length, 1, responses.map((r) => r.status).join());
    const winner = winners[0]!.body.data;
    responses.forEach((response, i) => {
      const body = bodies[i]!;
      if (response.status === 201) return;
      if (body.name === winner.name) {
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(response.body.data, winner);
      } else {
        assert.equal(response.status, 409, response.text);
        assert.equal(response.body.type, 'ACCOUNT_ALREADY_EXISTS');
        assert.equal(response.body.existingId, winner.id);
      }
    });
    const stored = await t.request('GET', `/v1-beta/accounts/${winner.id}`, { token });
    assert.deepEqual(stored.body.data, winner);
    assert.equal(await rowsWithExternalId(company, 'contested'), 1);
  });
});

describe('concurrent archiving', () => {
  it('never fails and keeps the search total exact', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    const accounts: { id: string; name: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await t.request('POST', '/v1-beta/accounts', {
        token,
        body: { companyId: company, externalId: `a${i}`, name: `Account ${i}`, archived: i % 2 === 0 },
      });
      accounts.push(response.body.data);
    }

    // Every account archived and unarchived many times at once, alongside creates and deletes.
    const puts = Array.from({ length: 120 }, (_, i) => {
      const account = accounts[i % accounts.length]!;
      return t.request('PUT', `/v1-beta/accounts/${account.id}`, {
        token,
        body: { name: account.name, archived: Math.floor(i / accounts.length) % 2 === 0 },
      });
    });
    const creates = Array.from({ length: 10 }, (_, i) =>
      t.request('POST', '/v1-beta/accounts', {
        token,
        body: { companyId: company, externalId: `b${i}`, name: `New ${i}`, archived: i % 3 === 0 },
      }),
    );
    const deletes = accounts.slice(0, 2).map((a) => t.request('DELETE', `/v1-beta/accounts/${a.id}`, { token }));
    const responses = await Promise.all([...puts, ...creates, ...deletes]);

    for (const response of responses) assert.ok(response.status < 500, response.text);
    for (const response of creates) assert.equal((await response).status, 201);
    for (const response of deletes) assert.equal((await response).status, 204);
    // A PUT that lost the race to its account's delete finds it gone; every other one applies.
    for (const response of await Promise.all(puts)) assert.ok([200, 404].includes(response.status), response.text);

    const actual = await t.db.query<{ archived: boolean; n: number }>(
      'SELECT archived, count(*)::int AS n FROM accounts WHERE company_id = $1 GROUP BY archived',
      [company],
    );
    const count = (archived: boolean) => actual.find((r) => r.archived === archived)?.n ?? 0;
    assert.equal(count(true) + count(false), 16);
    const total = async (body: Record<string, unknown>) => {
      const response = await t.request('POST', '/v1-beta/accounts:search?limit=1', {
        token,
        body: { companyId: company, ...body },
      });
      assert.equal(response.status, 200, response.text);
      return response.body.pagination.total;
    };
    assert.equal(await total({}), 16);
    assert.equal(await total({ archived: true }), count(true));
    assert.equal(await total({ archived: false }), count(false));
  });
});
