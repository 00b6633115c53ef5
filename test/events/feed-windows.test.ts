// A feed window that starts at a time (`created_after`) starts its scan at the latest transaction
// watermark before that time (migration 0032, docs/decisions/events.md "The feed"), not at the
// company's first event: an event created after a watermark has a transaction id at or above it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { recordEvents } from '../../src/webhooks/record-event.ts';
import { recordTransactionWatermark } from '../../src/webhooks/transaction-watermarks.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { feedCaughtUp } from '../support/events.ts';

const { t, freshCompany } = await startCompanyTestApp();

async function recordAccountEvents(companyId: string, count: number): Promise<string[]> {
  const events = Array.from({ length: count }, () => ({
    eventType: 'v1.account.created' as const,
    companyId,
    data: { id: randomUUID(), companyId },
  }));
  return (await t.db.transaction((tx) => recordEvents(tx, events))).map((e) => e.eventId);
}

/** The latest watermark's time, to the microsecond, as the API reads a timestamp. */
async function latestWatermark(): Promise<string> {
  const [row] = await t.db.query<{ at: string }>(
    `SELECT to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
     FROM transaction_watermarks ORDER BY recorded_at DESC LIMIT 1`,
  );
  assert.ok(row);
  return row.at;
}

async function feedIds(companyId: string, companyToken: string, query: string): Promise<string[]> {
  await feedCaughtUp(t.db);
  const response = await t.request('GET', `/v1/events?company_id=${companyId}&limit=100${query}`, {
    token: companyToken,
  });
  assert.equal(response.status, 200, response.text);
  return response.body.data.map((item: { payload: { eventId: string } }) => item.payload.eventId);
}

describe('a feed window from a time', () => {
  it('holds exactly the events created from that time, read from the watermark on', async () => {
    const { companyId, token: companyToken } = await freshCompany();
    const earlier = await recordAccountEvents(companyId, 3);
    await recordTransactionWatermark(t.db);
    const from = await latestWatermark();
    const later = await recordAccountEvents(companyId, 3);

    assert.deepEqual(await feedIds(companyId, companyToken, ''), [...earlier, ...later]);
    assert.deepEqual(await feedIds(companyId, companyToken, `&created_after=${from}`), later);
  });

  it('starts the scan at the watermark: a row that broke the rule (a smaller transaction id) is not read', async () => {
    const { companyId, token: companyToken } = await freshCompany();
    await recordTransactionWatermark(t.db);
    const from = await latestWatermark();
    const [kept] = await recordAccountEvents(companyId, 1);
    // No transaction could write this: created after the watermark, with the first transaction id.
    const [planted] = await t.db.query<{ id: string }>(
      `INSERT INTO events (event_type, company_id, data, created_at, transaction_id)
       VALUES ('v1.account.created', $1, '{}', now() + interval '1 second', '3'::xid8) RETURNING id`,
      [companyId],
    );
    const everything = await feedIds(companyId, companyToken, '');
    assert.ok(everything.includes(planted?.id as string), 'the planted row is in the company’s feed');
    assert.deepEqual(await feedIds(companyId, companyToken, `&created_after=${from}`), [kept]);
  });

  it('holds every event of the window without a watermark before it, from the first event', async () => {
    const { companyId, token: companyToken } = await freshCompany();
    const ids = await recordAccountEvents(companyId, 2);
    assert.deepEqual(await feedIds(companyId, companyToken, '&created_after=2000-01-01T00:00:00Z'), ids);
  });
});
