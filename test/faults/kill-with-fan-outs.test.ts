// A service killed while the fan-outs of large changes wait for its workers, then started again on
// the same data (docs/decisions/events.md, "Large changes are fanned out by the workers"): each
// waiting fan-out makes its messages exactly once, before the kill or after the restart, and a fan-out
// is never half made. Runs on PostgreSQL (TEST_DATABASE_URL: a database of its own) and on a
// temporary DATA_DIR.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../src/db/database.ts';
import { type NewEvent, recordEvents } from '../../src/webhooks/record-event.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { EVENT_TYPE } from '../support/delivery-fixtures.ts';
import { waitFor } from '../support/outage-requests.ts';
import { SERVICE_ENV, SeededService } from './seeded-service.ts';

const FAN_OUT_DONE = 'fan-out made its messages';
const DATABASE = TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded';
const CHANGES = 12;
const EVENTS_PER_CHANGE = 500;

describe(`a service killed with fan-outs waiting (${DATABASE})`, { timeout: 180_000 }, () => {
  const fixture = new SeededService('ledgerhook_kill_fan_out');
  before(() => fixture.setUp());
  after(() => fixture.tearDown());

  it("makes each waiting fan-out's messages once, across a kill and a restart", async (t) => {
    // The changes committed while no worker ran, as after a crash right after their commit.
    const { subscriptionId } = await fixture.seed(async (db, subscription) => {
      const [row] = await db.query<{ company: string }>(
        'SELECT companies[1] AS company FROM subscriptions WHERE id = $1',
        [subscription],
      );
      const companyId = row?.company as string;
      for (let change = 0; change < CHANGES; change++) {
        const events: NewEvent[] = Array.from({ length: EVENTS_PER_CHANGE }, () => ({
          eventType: EVENT_TYPE,
          companyId,
          data: { id: randomUUID(), companyId },
        }));
        // One statement: atomic without a transaction.
        await recordEvents(db, events);
      }
    });
    assert.deepEqual(await fixture.inspect(fanOutState), { waiting: CHANGES, messages: 0, distinct: 0 });

    const first = await fixture.start(SERVICE_ENV);
    await waitFor(
      async () => (await fixture.firstMessage(first, subscriptionId, 'pending')) !== undefined,
      'a fan-out has made its messages',
    );
    await first.kill();

    const killed = await fixture.inspect(fanOutState);
    t.diagnostic(`killed with ${killed.waiting} of ${CHANGES} fan-outs waiting`);
    assert.ok(killed.waiting < CHANGES, 'a fan-out had made its messages before the kill');
    assert.deepEqual(
      killed,
      { waiting: killed.waiting, messages: (CHANGES - killed.waiting) * EVENTS_PER_CHANGE, distinct: killed.messages },
      'each fan-out made all its messages or none, once',
    );

    const second = await fixture.start(SERVICE_ENV);
    await waitFor(
      async () => second.output().split(FAN_OUT_DONE).length - 1 >= killed.waiting,
      'the restarted service ran the waiting fan-outs',
    );
    await second.stop();
    const total = CHANGES * EVENTS_PER_CHANGE;
    assert.deepEqual(await fixture.inspect(fanOutState), { waiting: 0, messages: total, distinct: total });
  });
});

/** Fan-outs waiting, the messages made, and the distinct events among them. */
async function fanOutState(db: Queryable) {
  const [row] = await db.query<{ waiting: number; messages: number; distinct: number }>(
    `SELECT (SELECT count(*)::int FROM event_fan_outs) AS waiting,
       (SELECT count(*)::int FROM messages) AS messages,
       (SELECT count(DISTINCT event_id)::int FROM messages) AS distinct`,
  );
  return row as { waiting: number; messages: number; distinct: number };
}
