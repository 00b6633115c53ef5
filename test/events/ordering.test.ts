// The order a receiver can trust (docs/decisions/events.md, "What each event carries"): each event
// of a resource carries a `sequence` larger than its earlier events', however the changes raced and
// whatever order retries deliver them in.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { EventPayload } from '../../src/webhooks/event-payload.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { eventsOfCompany } from '../support/events.ts';
import { type Recorded, startReceiver } from '../support/receiver.ts';
import { taxCodeBody } from '../tax-codes/fixtures.ts';
import { startTestWorker } from '../webhooks/delivery/fixtures.ts';

const { t, company, token } = await startCompanyTestApp();

async function createTaxCode(name: string) {
  const created = await t.request('POST', '/v0/tax-codes', { token, body: taxCodeBody(company, { name }) });
  assert.equal(created.status, 201, created.text);
  return created.body.data as { id: string; code: string };
}

const rename = (taxCode: { id: string; code: string }, name: string) =>
  t.request('PUT', `/v0/tax-codes/${taxCode.id}`, { token, body: taxCodeBody(company, { code: taxCode.code, name }) });

async function updatesOf(id: string): Promise<EventPayload[]> {
  const events = await eventsOfCompany(t.db, company);
  return events
    .filter((e) => e.eventType === 'v1.tax-code.updated' && (e.data as { id: string }).id === id)
    .sort((a, b) => a.sequence - b.sequence);
}

describe('the order of one resource’s events', () => {
  it('follows the order the racing changes were made in: each event’s previous values are the one before’s data', async () => {
    const taxCode = await createTaxCode('name 0');
    const names = Array.from({ length: 12 }, (_, i) => `name ${i + 1}`);
    const answers = await Promise.all(names.map((name) => rename(taxCode, name)));
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);

    const updates = await updatesOf(taxCode.id);
    assert.equal(updates.length, names.length);
    let previousName = 'name 0';
    for (const update of updates) {
      assert.equal(update.previousAttributes?.name, previousName, `sequence ${update.sequence}`);
      previousName = (update.data as { name: string }).name;
    }
    const now = await t.request('GET', `/v0/tax-codes/${taxCode.id}`, { token });
    assert.deepEqual(updates.at(-1)?.data, now.body.data, 'the largest sequence carries the state that stayed');
  });

  it('lets a receiver that keeps the largest sequence end on the latest state when a retry delivers an older change last', async () => {
    let failedOnce = false;
    const receiver = await startReceiver({
      // The older change's first attempt fails, so its retry arrives after the newer change.
      respond: (request: Recorded) => {
        const { payload } = JSON.parse(request.body) as { payload: EventPayload };
        if ((payload.data as { name: string }).name === 'older' && !failedOnce) {
          failedOnce = true;
          return { status: 503 };
        }
        return { status: 204 };
      },
    });
    const worker = await startTestWorker(t.db, { scheduleMs: [300, 300, 300, 300, 300, 300, 300] });
    after(async () => {
      await worker.stop();
      await receiver.close();
    });
    const subscribed = await t.request('POST', '/v1/subscriptions', {
      token,
      body: { eventTypes: ['v1.tax-code.updated'], endpointUrl: receiver.url },
    });
    assert.equal(subscribed.status, 200, subscribed.text);
    const taxCode = await createTaxCode('original');

    assert.equal((await rename(taxCode, 'older')).status, 200);
    assert.equal((await rename(taxCode, 'newer')).status, 200);
    await receiver.waitFor(3);

    const delivered = receiver.requests
      .filter((r) => r.status === 204)
      .map((r) => JSON.parse(r.body).payload as EventPayload);
    const names = delivered.map((payload) => (payload.data as { name: string }).name);
    assert.deepEqual(names, ['newer', 'older'], 'the retry of the older change was delivered last');
    // Applied in delivery order, a receiver that compares sequences keeps the newer state …
    const kept = new Map<string, EventPayload>();
    for (const payload of delivered) {
      const id = (payload.data as { id: string }).id;
      const held = kept.get(id);
      if (!held || payload.sequence > held.sequence) kept.set(id, payload);
    }
    assert.equal((kept.get(taxCode.id)?.data as { name: string } | undefined)?.name, 'newer');
    // … where one that applies every event as it comes would have kept the older.
    assert.equal(names.at(-1), 'older');
  });
});
