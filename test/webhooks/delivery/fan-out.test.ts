// Fan-out in the event's transaction (docs/decisions/webhook-delivery.md): one message per ACTIVE
// subscription of the event's type whose companies include the event's company; nothing for the
// others; nothing at all when the transaction rolls back. And the wake-up channel both databases
// provide.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { EVENTS_CHANNEL, recordEvent } from '../../../src/webhooks/record-event.ts';
import { openTestDatabase } from '../../support/database.ts';
import { EVENT_TYPE, emitEvent, insertSubscription, messagesOf } from './fixtures.ts';

let db: Database;

before(async () => {
  db = await openTestDatabase();
});
after(() => db.close());

const URL = 'https://hooks.example.com/in';

describe('fan-out', { timeout: 20_000 }, () => {
  it('gives each matching ACTIVE subscription one message, and no other company or INACTIVE one any', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const ofA = await insertSubscription(db, { endpointUrl: URL, companies: [a] });
    const ofBoth = await insertSubscription(db, { endpointUrl: URL, companies: [b, a] });
    const ofB = await insertSubscription(db, { endpointUrl: URL, companies: [b] });
    const inactive = await insertSubscription(db, { endpointUrl: URL, companies: [a], status: 'INACTIVE' });
    const otherType = await insertSubscription(db, {
      endpointUrl: URL,
      companies: [a],
      eventTypes: ['v9.other.thing'],
    });

    const { eventId } = await emitEvent(db, a);
    const count = async (id: string) => (await messagesOf(db, id)).filter((m) => m.eventId === eventId).length;
    assert.equal(await count(ofA.id), 1);
    assert.equal(await count(ofBoth.id), 1);
    assert.equal(await count(ofB.id), 0);
    assert.equal(await count(inactive.id), 0);
    assert.equal(await count(otherType.id), 0);

    const ids = [...(await messagesOf(db, ofA.id)), ...(await messagesOf(db, ofBoth.id))].map((m) => m.id);
    assert.equal(new Set(ids).size, 2);
    for (const id of ids) assert.match(id, /^msg_[a-z2-7]{26}$/);
  });

  it('writes no message when the event transaction rolls back', async () => {
    const company = randomUUID();
    const subscription = await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    await assert.rejects(
      db.transaction(async (tx) => {
        await recordEvent(tx, { eventType: EVENT_TYPE, companyId: company, data: {} });
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    assert.deepEqual(await messagesOf(db, subscription.id), []);
  });

  it('draws distinct webhook-ids for many subscriptions in one statement', async () => {
    const company = randomUUID();
    for (let i = 0; i < 30; i++) await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    const { eventId } = await emitEvent(db, company);
    const rows = await db.query<{ id: string }>('SELECT id FROM messages WHERE event_id = $1', [eventId]);
    assert.equal(rows.length, 30);
    assert.equal(new Set(rows.map((r) => r.id)).size, 30);
  });
});

describe('database wake-up', { timeout: 20_000 }, () => {
  it('hears a committed event on the events channel, not a rolled-back one, and stops when asked', async () => {
    // Only an event that made a message wakes the workers: the company has a subscriber.
    const company = randomUUID();
    await insertSubscription(db, { endpointUrl: URL, companies: [company] });
    // On PostgreSQL other test files notify the same channel of the same database: look for ours only.
    const heard = new Set<string>();
    let expected = '';
    let resolveHeard: (() => void) | undefined;
    const unlisten = await db.listen(EVENTS_CHANNEL, (payload) => {
      heard.add(payload);
      if (payload === expected) resolveHeard?.();
    });
    let rolledBack = '';
    await db
      .transaction(async (tx) => {
        rolledBack = (await recordEvent(tx, { eventType: EVENT_TYPE, companyId: company, data: {} })).eventId;
        throw new Error('rolled back');
      })
      .catch(() => {});
    const arrived = new Promise<void>((resolve) => {
      resolveHeard = resolve;
    });
    const committed = db.transaction(async (tx) => {
      const event = await recordEvent(tx, { eventType: EVENT_TYPE, companyId: company, data: {} });
      expected = event.eventId;
      return event;
    });
    const { eventId } = await committed;
    await arrived;
    assert.ok(heard.has(eventId));
    assert.ok(rolledBack && !heard.has(rolledBack));
    await unlisten();
    // A listener that stays hears the next event; the one that stopped must not have.
    let witnessed: (() => void) | undefined;
    let later = '';
    const unwitness = await db.listen(EVENTS_CHANNEL, (payload) => {
      if (payload === later) witnessed?.();
    });
    try {
      const witnessedLater = new Promise<void>((resolve) => {
        witnessed = resolve;
      });
      later = (await emitEvent(db, company)).eventId;
      await witnessedLater;
      assert.ok(!heard.has(later));
    } finally {
      await unwitness();
    }
  });

  it('is not sent for events no subscription takes: a company without subscribers wakes no worker', async () => {
    const heard = new Set<string>();
    let expected = '';
    let resolveHeard: (() => void) | undefined;
    const arrived = new Promise<void>((resolve) => {
      resolveHeard = resolve;
    });
    const unlisten = await db.listen(EVENTS_CHANNEL, (payload) => {
      heard.add(payload);
      if (payload === expected) resolveHeard?.();
    });
    try {
      const unheard = await emitEvent(db, randomUUID());
      const company = randomUUID();
      await insertSubscription(db, { endpointUrl: URL, companies: [company] });
      const sent = await emitEvent(db, company);
      expected = sent.eventId;
      if (heard.has(expected)) resolveHeard?.();
      // Notifications arrive in commit order: once the second is heard, the first would have been.
      await arrived;
      assert.ok(!heard.has(unheard.eventId));
    } finally {
      await unlisten();
    }
  });
});
