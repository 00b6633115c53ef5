// GET /v1/events (docs/decisions/events.md, "The feed"): a company's events in (transaction, sequence)
// order, paged by cursors, filtered by type and time, read under each type's read scope, and never
// an event of a transaction that may still be followed by an older one's commit.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { EVENT_TYPES } from '../../src/webhooks/event-types.ts';
import { listFeed, readFeed } from '../../src/webhooks/feed-store.ts';
import { type NewEvent, type RecordedEvent, recordEvents } from '../../src/webhooks/record-event.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { eventsOfCompany, feedCaughtUp } from '../support/events.ts';
import { insertSubscription, startReceiver, startTestWorker } from '../webhooks/delivery/fixtures.ts';

const { t, company, token } = await startCompanyTestApp();

type Event = Pick<NewEvent, 'eventType'> & Partial<NewEvent>;

/** Records the events of `companyId` in one transaction, as a change would. */
async function record(companyId: string, events: Event[]): Promise<RecordedEvent[]> {
  return t.db.transaction((tx) =>
    recordEvents(
      tx,
      events.map((event) => ({ companyId, data: { id: randomUUID(), companyId }, ...event })),
    ),
  );
}

async function feed(query: string, as = token) {
  await feedCaughtUp(t.db);
  return t.request('GET', `/v1/events?${query}`, { token: as });
}

/** Every event id of the query, page after page of `limit`. */
async function walk(query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const response = await feed(`${query}&limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
    assert.equal(response.status, 200, response.text);
    pages++;
    ids.push(...response.body.data.map((item: { payload: { eventId: string } }) => item.payload.eventId));
    assert.equal(response.body.pagination.total, undefined);
    if (!response.body.pagination.hasNextPage) return { ids, pages };
    cursor = response.body.pagination.endCursor;
  }
}

describe('GET /v1/events', () => {
  let recorded: RecordedEvent[];

  before(async () => {
    recorded = [
      ...(await record(company, [
        { eventType: 'v1.account.created' },
        { eventType: 'v1.tax-code.created' },
        { eventType: 'v1.account.updated', previousAttributes: { name: 'Old' } },
      ])),
      ...(await record(company, [{ eventType: 'v1.account.deleted' }])),
      ...(await record(company, [{ eventType: 'v1.export-job.created' }, { eventType: 'v1.tax-code.deleted' }])),
    ];
  });

  it('lists the events oldest first, each with its payload as recorded and its time', async () => {
    const response = await feed(`company_id=${company}`);
    assert.equal(response.status, 200, response.text);
    const expected = await eventsOfCompany(t.db, company);
    assert.deepEqual(
      response.body.data.map((item: { payload: unknown }) => item.payload),
      expected,
    );
    assert.deepEqual(
      response.body.data.map((item: { createdAt: string }) => item.createdAt),
      recorded.map((event) => event.createdAt),
    );
    // The member order of a notification's payload.
    assert.deepEqual(Object.keys(response.body.data[2].payload), [
      'data',
      'eventId',
      'eventType',
      'previousAttributes',
      'sequence',
    ]);
    assert.equal(response.body.pagination.hasNextPage, false);
    assert.equal(response.body.pagination.hasPreviousPage, false);
    assert.equal(response.body.pagination.total, undefined);
  });

  it('pages forward and back with cursors', async () => {
    const ids = recorded.map((event) => event.eventId);
    const forward = await walk(`company_id=${company}`, 2);
    assert.deepEqual(forward.ids, ids);
    assert.equal(forward.pages, 3);

    const last = await feed(`company_id=${company}&limit=2&after=${(await lastCursorOfPage(2, 2)) as string}`);
    assert.deepEqual(ids.slice(4), pageIds(last.body));
    assert.equal(last.body.pagination.hasPreviousPage, true);
    assert.equal(last.body.pagination.hasNextPage, false);

    const back = await feed(`company_id=${company}&limit=2&before=${last.body.pagination.startCursor}`);
    assert.deepEqual(pageIds(back.body), ids.slice(2, 4));
    assert.equal(back.body.pagination.hasPreviousPage, true);
    assert.equal(back.body.pagination.hasNextPage, true);
    const first = await feed(`company_id=${company}&limit=2&before=${back.body.pagination.startCursor}`);
    assert.deepEqual(pageIds(first.body), ids.slice(0, 2));
    assert.equal(first.body.pagination.hasPreviousPage, false);
    assert.equal(first.body.pagination.hasNextPage, true);
  });

  /** The endCursor of the n-th page of `limit` events. */
  async function lastCursorOfPage(n: number, limit: number): Promise<string | undefined> {
    let cursor: string | undefined;
    for (let page = 0; page < n; page++) {
      const response = await feed(`company_id=${company}&limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      cursor = response.body.pagination.endCursor;
    }
    return cursor;
  }

  function pageIds(body: { data: { payload: { eventId: string } }[] }): string[] {
    return body.data.map((item) => item.payload.eventId);
  }

  it('filters by event types, as a comma list or repeated', async () => {
    const taxCodes = recorded.filter((event) => event.eventType.startsWith('v1.tax-code.')).map((e) => e.eventId);
    for (const query of [
      'event_types=v1.tax-code.created,v1.tax-code.deleted',
      'event_types=v1.tax-code.deleted&event_types=v1.tax-code.created',
    ]) {
      const response = await feed(`company_id=${company}&${query}`);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(pageIds(response.body), taxCodes);
    }
    const paged = await walk(
      `company_id=${company}&event_types=v1.account.created,v1.account.updated,v1.account.deleted`,
      1,
    );
    assert.deepEqual(
      paged.ids,
      recorded.filter((event) => event.eventType.startsWith('v1.account.')).map((e) => e.eventId),
    );
  });

  it('filters by the time the events were recorded', async () => {
    const { companyId, token: own } = await freshCompanyWithEvents();
    const [early, late] = await Promise.all([
      t.db.query<{ id: string }>(
        "UPDATE events SET created_at = now() - interval '2 days' WHERE company_id = $1 AND event_type = 'v1.account.created' RETURNING id",
        [companyId],
      ),
      t.db.query<{ id: string }>("SELECT id FROM events WHERE company_id = $1 AND event_type <> 'v1.account.created'", [
        companyId,
      ]),
    ]);
    const since = new Date(Date.now() - 86_400_000).toISOString();
    const after = await feed(`company_id=${companyId}&created_after=${since}`, own);
    assert.deepEqual(pageIds(after.body).sort(), late.map((row) => row.id).sort());
    const before = await feed(`company_id=${companyId}&created_before=${since}`, own);
    assert.deepEqual(
      pageIds(before.body),
      early.map((row) => row.id),
    );
    const window = await feed(
      `company_id=${companyId}&created_after=${new Date(Date.now() - 3 * 86_400_000).toISOString()}&created_before=${since}`,
      own,
    );
    assert.deepEqual(
      pageIds(window.body),
      early.map((row) => row.id),
    );
  });

  async function freshCompanyWithEvents() {
    const fresh = await startFresh();
    await record(fresh.companyId, [{ eventType: 'v1.account.created' }, { eventType: 'v1.tax-code.created' }]);
    return fresh;
  }

  async function startFresh() {
    const companyId = randomUUID();
    return { companyId, token: await t.token({ companies: [companyId] }) };
  }

  it('answers 403 naming the scopes a token lacks for an asked type, 400 for an unknown one', async () => {
    const accountsOnly = await t.token({ companies: [company], scopes: ['accounts:read'] });
    const forbidden = await feed(
      `company_id=${company}&event_types=v1.account.created,v1.tax-code.created`,
      accountsOnly,
    );
    assert.equal(forbidden.status, 403, forbidden.text);
    assert.equal(forbidden.body.type, 'FORBIDDEN');
    assert.deepEqual(forbidden.body.missingScopes, ['tax-codes:read']);

    for (const type of ['v1.nothing.created', 'v1.subscription.disabled']) {
      const unknown = await feed(`company_id=${company}&event_types=${type}`);
      assert.equal(unknown.status, 400, unknown.text);
    }
  });

  it('lists without event_types only the types the token reads, and 403 when it reads none', async () => {
    const accountsOnly = await t.token({ companies: [company], scopes: ['accounts:read'] });
    const response = await feed(`company_id=${company}`, accountsOnly);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      pageIds(response.body),
      recorded.filter((event) => event.eventType.startsWith('v1.account.')).map((e) => e.eventId),
    );
    const exportItemsOnly = await t.token({ companies: [company], scopes: ['export-items:read'] });
    const none = await feed(`company_id=${company}`, exportItemsOnly);
    assert.equal(none.status, 403, none.text);
    const readScopes = [...new Set(EVENT_TYPES.flatMap((d) => (d.readScope ? [d.readScope] : [])))].sort();
    assert.deepEqual(none.body.missingScopes, readScopes);
  });

  it("never shows another company's events, and answers 403 for a company the token does not list", async () => {
    const other = randomUUID();
    await record(other, [{ eventType: 'v1.account.created' }]);
    const forbidden = await feed(`company_id=${other}`);
    assert.equal(forbidden.status, 403, forbidden.text);
    const own = await walk(`company_id=${company}`, 100);
    assert.deepEqual(
      own.ids,
      recorded.map((event) => event.eventId),
    );
  });

  it('never shows an operational event or a test event (no company)', async () => {
    const { companyId, token: own } = await startFresh();
    await t.db.transaction((tx) =>
      recordEvents(tx, [
        {
          eventType: 'v1.subscription.disabled',
          companyId: null,
          owner: randomUUID(),
          data: { subscriptionId: companyId },
        },
        { eventType: 'v1.account.created', companyId: null, data: { id: companyId } },
      ]),
    );
    const response = await feed(`company_id=${companyId}`, own);
    assert.deepEqual(response.body.data, []);
    const [{ count }] = (await t.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM events WHERE company_id IS NULL AND (data->>'id' = $1 OR data->>'subscriptionId' = $1)",
      [companyId],
    )) as [{ count: number }];
    assert.equal(count, 2);
  });

  it('answers 410 for a cursor of an event older than the retention', async () => {
    const { companyId, token: own } = await startFresh();
    await record(companyId, [{ eventType: 'v1.account.created' }, { eventType: 'v1.account.deleted' }]);
    await t.db.query(
      "UPDATE events SET created_at = now() - interval '31 days' WHERE company_id = $1 AND event_type = 'v1.account.created'",
      [companyId],
    );
    const first = await feed(`company_id=${companyId}&limit=1`, own);
    assert.equal(first.status, 200, first.text);
    const expired = await feed(`company_id=${companyId}&limit=1&after=${first.body.pagination.endCursor}`, own);
    assert.equal(expired.status, 410, expired.text);
    assert.equal(expired.body.type, 'EVENT_CURSOR_EXPIRED');
    assert.match(expired.body.detail, /created_after/);
  });

  it('refuses a cursor made for other filters, and a malformed one', async () => {
    const first = await feed(`company_id=${company}&limit=1`);
    const other = await feed(
      `company_id=${company}&limit=1&event_types=v1.account.created&after=${first.body.pagination.endCursor}`,
    );
    assert.equal(other.status, 400, other.text);
    assert.equal(other.body.type, 'INVALID_CURSOR');
    const malformed = await feed(`company_id=${company}&after=AAAAAAAA~MFRGG===`);
    assert.equal(malformed.body.type, 'INVALID_CURSOR');
  });
});

describe('a transaction that commits late', () => {
  it('keeps its event and every later one out of the feed until it commits, then shows them in order', {
    skip: TEST_DATABASE_URL ? false : 'PGlite has one connection: see the next test',
  }, async () => {
    const { companyId, token: own } = await startFresh();
    const [before] = await record(companyId, [{ eventType: 'v1.account.created' }]);
    const seen = await feed(`company_id=${companyId}`, own);
    assert.deepEqual(pageIds(seen.body), [before?.eventId]);
    const cursor = seen.body.pagination.endCursor;

    let commit!: () => void;
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let recordedLate!: (events: RecordedEvent[]) => void;
    const late = new Promise<RecordedEvent[]>((resolve) => {
      recordedLate = resolve;
    });
    const slow = t.db.transaction(async (tx) => {
      recordedLate(await recordEvents(tx, [{ eventType: 'v1.account.updated', companyId, data: { id: 1 } }]));
      await held;
    });
    try {
      const [lateEvent] = await late;
      // Committed after the slow transaction took its id: a larger one.
      const [quick] = await record(companyId, [{ eventType: 'v1.account.deleted' }]);
      const whileHeld = await t.request('GET', `/v1/events?company_id=${companyId}&after=${cursor}`, { token: own });
      assert.equal(whileHeld.status, 200, whileHeld.text);
      assert.deepEqual(whileHeld.body.data, []);
      assert.equal(whileHeld.body.pagination.hasNextPage, false);
      commit();
      await slow;
      const after = await feed(`company_id=${companyId}&after=${cursor}`, own);
      assert.deepEqual(pageIds(after.body), [lateEvent?.eventId, quick?.eventId]);
    } finally {
      commit();
      await slow;
    }
  });

  it("does not show a transaction's own event to a read in that transaction", async () => {
    const { companyId } = await startFresh();
    const filters = { companyId, eventTypes: null, createdAfter: null, createdBefore: null };
    const inside = await t.db.transaction(async (tx) => {
      await recordEvents(tx, [{ eventType: 'v1.account.created', companyId, data: {} }]);
      return readFeed(tx, filters, { limit: 10 });
    });
    assert.deepEqual(inside.items, []);
    await feedCaughtUp(t.db);
    assert.equal((await listFeed(t.db, filters, { limit: 10 })).items.length, 1);
  });

  function pageIds(body: { data: { payload: { eventId: string } }[] }): string[] {
    return body.data.map((item) => item.payload.eventId);
  }

  async function startFresh() {
    const companyId = randomUUID();
    return { companyId, token: await t.token({ companies: [companyId] }) };
  }
});

describe('a feed item and a webhook of the same event', () => {
  const receiverCompany = randomUUID();
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    worker = await startTestWorker(t.db);
    receiver = await startReceiver();
    await insertSubscription(t.db, {
      endpointUrl: receiver.url,
      companies: [receiverCompany],
      eventTypes: ['v1.account.updated'],
    });
  });
  after(async () => {
    await worker.stop();
    await receiver.close();
  });

  it('carry the same payload, eventId included', async () => {
    const [event] = await record(receiverCompany, [
      { eventType: 'v1.account.updated', previousAttributes: { name: 'Before' } },
    ]);
    const delivered = await receiver.nth(1);
    const own = await t.token({ companies: [receiverCompany] });
    const response = await feed(`company_id=${receiverCompany}`, own);
    const [item] = response.body.data;
    assert.equal(item.payload.eventId, event?.eventId);
    assert.deepEqual(JSON.parse(delivered.body).payload, item.payload);
  });
});
