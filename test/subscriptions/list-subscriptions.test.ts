import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { createSubscription, EVENT_TYPE, errorPaths } from './fixtures.ts';

let t: TestApp;
let token: string;
/** The client's subscriptions in creation order, and which are INACTIVE. */
let ids: string[];
let inactive: Set<string>;
let legacy: string;

before(async () => {
  t = await startTestApp();
  const clientId = `client-${randomUUID()}`;
  token = await t.token({ clientId });
  ids = [];
  for (const status of ['ACTIVE', 'INACTIVE', 'ACTIVE', 'INACTIVE', 'ACTIVE']) {
    ids.push(
      (await createSubscription(t, token, { status, endpointUrl: `https://example.com/${ids.length}` })).data.id,
    );
  }
  inactive = new Set([ids[1] as string, ids[3] as string]);
  // A subscription to a type the registry no longer has (as after a type is retired).
  const [row] = await t.db.query<{ id: string }>(
    `INSERT INTO subscriptions (owner, companies, status, event_types, endpoint_url)
     VALUES ($1, '{}', 'ACTIVE', ARRAY['v0.retired.type'], 'https://example.com/legacy') RETURNING id`,
    [clientId],
  );
  legacy = row?.id as string;
  ids.push(legacy);
  // Another client's subscriptions, never listed.
  const other = await t.token();
  await createSubscription(t, other);
  await createSubscription(t, other, { status: 'INACTIVE' });
});
after(() => t.close());

const list = async (query = '', as = token) => {
  const response = await t.request('GET', `/v1/subscriptions${query}`, { token: as });
  assert.equal(response.status, 200, response.text);
  return response.body;
};
const listIds = async (query = '') => (await list(query)).data.map((s: { id: string }) => s.id);

describe('GET /v1/subscriptions', () => {
  it("lists the caller's own subscriptions in creation order, in the subscription shape", async () => {
    const page = await list();
    assert.deepEqual(
      page.data.map((s: { id: string }) => s.id),
      ids,
    );
    assert.equal(page.pagination.total, ids.length);
    assert.equal(page.pagination.hasNextPage, false);
    const first = await t.request('GET', `/v1/subscriptions/${ids[0]}`, { token });
    assert.deepEqual(page.data[0], first.body.data);
    assert.deepEqual(await listIds('?sorting_keys=createdAt&sorting_order=DESC'), [...ids].reverse());
    assert.deepEqual(await listIds('?sorting_keys=id'), [...ids].sort());
  });

  it('lists nothing for a caller without subscriptions', async () => {
    const page = await list('', await t.token());
    assert.deepEqual(page.data, []);
    assert.equal(page.pagination.total, 0);
  });

  it('filters by status', async () => {
    assert.deepEqual(await listIds('?status=INACTIVE'), [...inactive]);
    assert.deepEqual(
      await listIds('?status=ACTIVE'),
      ids.filter((id) => !inactive.has(id)),
    );
    assert.deepEqual(errorPaths(await t.request('GET', '/v1/subscriptions?status=PAUSED', { token })), ['/status']);
  });

  it('filters by any of event_types, repeated or as a comma list; unknown types are 400', async () => {
    const current = ids.filter((id) => id !== legacy);
    assert.deepEqual(await listIds(`?event_types=${EVENT_TYPE}`), current);
    assert.deepEqual(await listIds(`?event_types=${EVENT_TYPE}&event_types=${EVENT_TYPE}`), current);
    assert.deepEqual(await listIds(`?event_types=${EVENT_TYPE},${EVENT_TYPE}&status=INACTIVE`), [...inactive]);
    const unknown = await t.request('GET', `/v1/subscriptions?event_types=${EVENT_TYPE},v1.nope`, { token });
    assert.deepEqual(errorPaths(unknown), ['/event_types/1']);
  });

  it('pages with limit and cursors, and echoes the request', async () => {
    const first = await list('?limit=2');
    assert.deepEqual(
      first.data.map((s: { id: string }) => s.id),
      ids.slice(0, 2),
    );
    assert.equal(first.pagination.hasNextPage, true);
    assert.equal(first.pagination.hasPreviousPage, false);
    assert.equal(first.pagination.total, ids.length);
    assert.deepEqual(first.pagination.currentRequestPagination, {
      parameters: { limit: ['2'] },
      limit: 2,
      sortingKeys: ['createdAt'],
      sortingOrder: ['ASC'],
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(`?limit=2${cursor ? `&after=${cursor}` : ''}`);
      seen.push(...page.data.map((s: { id: string }) => s.id));
      cursor = page.pagination.hasNextPage ? page.pagination.endCursor : undefined;
    } while (cursor);
    assert.deepEqual(seen, ids);
    const second = await list(`?limit=2&after=${first.pagination.endCursor}`);
    const back = await list(`?limit=2&before=${second.pagination.startCursor}`);
    assert.deepEqual(back.data, first.data);
    assert.deepEqual(
      (await list('?limit=2&offset=4')).data.map((s: { id: string }) => s.id),
      ids.slice(4),
    );
  });

  it('refuses cursors of other filters, unknown sort keys and mixed paging parameters', async () => {
    const { pagination } = await list('?limit=2');
    const other = await t.request('GET', `/v1/subscriptions?status=ACTIVE&after=${pagination.endCursor}`, { token });
    assert.equal(other.status, 400, other.text);
    assert.equal(other.body.type, 'INVALID_CURSOR');
    assert.deepEqual(errorPaths(await t.request('GET', '/v1/subscriptions?sorting_keys=status', { token })), [
      '/sorting_keys/0',
    ]);
    const mixed = await t.request('GET', `/v1/subscriptions?offset=1&after=${pagination.endCursor}`, { token });
    assert.deepEqual(errorPaths(mixed), ['/after', '/offset']);
    assert.deepEqual(errorPaths(await t.request('GET', '/v1/subscriptions?limit=1001', { token })), ['/limit']);
  });
});
