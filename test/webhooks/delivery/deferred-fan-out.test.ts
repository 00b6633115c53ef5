// A change of many events leaves its fan-out to the workers (src/webhooks/fan-out.ts,
// docs/decisions/events.md): it makes no message itself, one fan-out row names its events, and
// running that row makes each event's messages once, whoever runs it and however many at a time.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { fanOutNext, INLINE_FAN_OUT_MAX_EVENTS } from '../../../src/webhooks/fan-out.ts';
import { type NewEvent, recordEvents } from '../../../src/webhooks/record-event.ts';
import { deleteUnneededEvents } from '../../../src/webhooks/retention-store.ts';
import { openTestDatabase } from '../../support/database.ts';
import { EVENT_TYPE, emitEvent, insertSubscription, startReceiver, startTestWorker } from './fixtures.ts';

const URL = 'https://hooks.example.com/in';
const LARGE = INLINE_FAN_OUT_MAX_EVENTS + 1;

let db: Database;
before(async () => {
  db = await openTestDatabase();
});
after(() => db.close());

/** Records `count` events of `company` in one change, as a batch create does; answers their ids. */
async function recordChange(company: string, count: number): Promise<string[]> {
  const events: NewEvent[] = Array.from({ length: count }, (_, i) => ({
    eventType: EVENT_TYPE,
    companyId: company,
    data: { id: randomUUID(), companyId: company, position: i },
  }));
  const recorded = await db.transaction((tx) => recordEvents(tx, events));
  return recorded.map((event) => event.eventId);
}

/** Messages of these events: in all, and distinct (event, subscription) pairs. */
async function messagesOfEvents(eventIds: string[]): Promise<{ all: number; distinct: number }> {
  const [row] = await db.query<{ all: number; distinct: number }>(
    `SELECT count(*)::int AS all, count(DISTINCT (event_id, subscription_id))::int AS distinct
     FROM messages WHERE event_id = ANY($1::uuid[])`,
    [eventIds],
  );
  return row ?? { all: -1, distinct: -1 };
}

async function waitingFanOuts(eventIds: string[]): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM event_fan_outs WHERE event_ids && $1::uuid[]',
    [eventIds],
  );
  return row?.n ?? -1;
}

describe('a large change fanned out by the workers', { timeout: 30_000 }, () => {
  it(`makes no message itself past ${INLINE_FAN_OUT_MAX_EVENTS} events; its fan-out makes each once`, async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    await insertSubscription(db, { endpointUrl: URL, companies: [randomUUID()] });
    const eventIds = await recordChange(company, LARGE);
    assert.deepEqual(await messagesOfEvents(eventIds), { all: 0, distinct: 0 });
    assert.equal(await waitingFanOuts(eventIds), 1);

    let done = await fanOutNext(db);
    // Other tests' fan-outs in this database run first when older; this one's is among them.
    while (done && (await waitingFanOuts(eventIds)) > 0) done = await fanOutNext(db);
    assert.ok(done);
    assert.deepEqual(await messagesOfEvents(eventIds), { all: 2 * LARGE, distinct: 2 * LARGE });
    assert.equal(await waitingFanOuts(eventIds), 0);
  });

  it(`still makes the messages of ${INLINE_FAN_OUT_MAX_EVENTS} events in the change's own statement`, async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    const eventIds = await recordChange(company, INLINE_FAN_OUT_MAX_EVENTS);
    assert.deepEqual(await messagesOfEvents(eventIds), {
      all: INLINE_FAN_OUT_MAX_EVENTS,
      distinct: INLINE_FAN_OUT_MAX_EVENTS,
    });
    assert.equal(await waitingFanOuts(eventIds), 0);
  });

  it('leaves nothing to fan out when the change rolls back', async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    const before = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_fan_outs');
    await assert.rejects(
      db.transaction(async (tx) => {
        await recordEvents(
          tx,
          Array.from({ length: LARGE }, () => ({ eventType: EVENT_TYPE, companyId: company, data: {} })),
        );
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    const afterRollback = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_fan_outs');
    assert.deepEqual(afterRollback, before);
  });

  it('makes each message once when fan-outs run at the same time', async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    const eventIds = [...(await recordChange(company, LARGE)), ...(await recordChange(company, LARGE))];
    // On PostgreSQL the three run on three connections; on PGlite one after another.
    await Promise.all([fanOutNext(db), fanOutNext(db), fanOutNext(db)]);
    while ((await waitingFanOuts(eventIds)) > 0) await fanOutNext(db);
    assert.deepEqual(await messagesOfEvents(eventIds), { all: 4 * LARGE, distinct: 4 * LARGE });
  });

  it('makes nothing twice when run again over events that have their messages', async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    const eventIds = await recordChange(company, INLINE_FAN_OUT_MAX_EVENTS);
    await db.query('INSERT INTO event_fan_outs (event_ids) VALUES ($1::uuid[])', [eventIds]);
    while ((await waitingFanOuts(eventIds)) > 0) await fanOutNext(db);
    const counts = await messagesOfEvents(eventIds);
    assert.deepEqual(counts, { all: INLINE_FAN_OUT_MAX_EVENTS, distinct: INLINE_FAN_OUT_MAX_EVENTS });
  });

  it("dates each message by its event, and retention keeps a waiting fan-out's events", async () => {
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    const eventIds = await recordChange(company, LARGE);
    // Retention of 0: every event without a message is past it, but these are still owed theirs.
    await deleteUnneededEvents(db, 0, 10_000);
    const [kept] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE id = ANY($1::uuid[])', [
      eventIds,
    ]);
    assert.equal(kept?.n, LARGE);
    while ((await waitingFanOuts(eventIds)) > 0) await fanOutNext(db);
    const [dates] = await db.query<{ differing: number }>(
      `SELECT count(*)::int AS differing FROM messages m JOIN events e ON e.id = m.event_id
       WHERE m.event_id = ANY($1::uuid[]) AND m.created_at <> e.created_at`,
      [eventIds],
    );
    assert.equal(dates?.differing, 0);
  });

  it('never stops a worker delivering: a fan-out that fails waits for the next poll', async () => {
    await db.query('DELETE FROM messages');
    const receiver = await startReceiver();
    let failures = 0;
    const failingFanOuts: Database = {
      ...db,
      query: (sql, params, options) => {
        if (sql.includes('DELETE FROM event_fan_outs')) {
          failures++;
          return Promise.reject(new Error('the fan-out failed'));
        }
        return db.query(sql, params, options);
      },
    };
    const worker = await startTestWorker(failingFanOuts);
    try {
      const company = randomUUID();
      await insertSubscription(db, { endpointUrl: `${receiver.url}small`, companies: [company] });
      await emitEvent(db, company);
      await receiver.nth(1);
      assert.ok(failures > 0, 'the worker tried a fan-out');
    } finally {
      await worker.stop();
      await receiver.close();
    }
  });

  it('is run by a delivery worker, which then delivers every message', async () => {
    // The earlier tests' messages, to an address that answers nothing, would keep the worker busy.
    await db.query('DELETE FROM messages');
    const receiver = await startReceiver();
    const worker = await startTestWorker(db);
    try {
      const company = randomUUID();
      await insertSubscription(db, { endpointUrl: `${receiver.url}large`, companies: [company] });
      const eventIds = await recordChange(company, LARGE);
      await receiver.nth(LARGE);
      const ids = receiver.requests.map((request) => String(request.headers['webhook-id']));
      assert.equal(new Set(ids).size, LARGE, 'one notification per event');
      assert.deepEqual(await messagesOfEvents(eventIds), { all: LARGE, distinct: LARGE });
    } finally {
      await worker.stop();
      await receiver.close();
    }
  });
});
