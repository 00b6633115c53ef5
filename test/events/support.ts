// What every test of a resource's events asks (docs/decisions/events.md): each change records
// exactly one event whose data is what GET answers, an update's previousAttributes are the changed
// fields before, a change that changes nothing records nothing, a subscriber gets a message, and a
// credential without the read scope cannot subscribe.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Scope } from '../../src/auth/principal.ts';
import type { EventPayload } from '../../src/webhooks/event-payload.ts';
import { eventsDuring } from '../support/events.ts';
import { ALL_SCOPES, type TestApp, type TestResponse } from '../support/harness.ts';

type Fields = Record<string, unknown>;

/** Runs `change` and answers its response and the events it recorded for `company`. */
export async function changeAndEvents(
  t: TestApp,
  company: string,
  change: () => Promise<TestResponse>,
): Promise<{ response: TestResponse; events: EventPayload[] }> {
  let response: TestResponse | undefined;
  const events = await eventsDuring(t.db, company, async () => {
    response = await change();
  });
  assert.ok(response);
  return { response, events };
}

/** Asserts exactly one event, of `eventType`, and answers it. */
export function theOnlyEvent(events: EventPayload[], eventType: string): EventPayload {
  assert.deepEqual(
    events.map((event) => event.eventType),
    [eventType],
  );
  return events[0] as EventPayload;
}

/** Subscribes to `eventTypes` with a token of `company` holding only `scopes`; answers the response. */
export async function subscribe(t: TestApp, company: string, scopes: Scope[], eventTypes: string[]) {
  const token = await t.token({ companies: [company], scopes });
  return t.request('POST', '/v1/subscriptions', {
    token,
    body: { eventTypes, endpointUrl: 'https://example.com/webhook' },
  });
}

/** How many messages of the event the subscription has. */
export async function messageCount(t: TestApp, subscriptionId: string, eventId: string): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM messages WHERE subscription_id = $1 AND event_id = $2',
    [subscriptionId, eventId],
  );
  return row?.n ?? -1;
}

/** The previousAttributes of an update from `before` that changed `fields` (and moved updatedAt). */
export function expectedPrevious(before: Fields, after: Fields, fields: string[]): Fields {
  const previous: Fields = Object.fromEntries(fields.map((field) => [field, before[field]]));
  if (after.updatedAt !== before.updatedAt) previous.updatedAt = before.updatedAt;
  return previous;
}

/** A resource with a create, GET, full-replacement PUT and DELETE at `${path}/:id`. */
export interface LifecycleResource {
  /** The `<resource>` of its event types `v1.<resource>.<verb>`. */
  resource: string;
  path: string;
  scopes: { read: Scope; write: Scope };
  t: () => TestApp;
  company: string;
  token: () => string;
  /** A body that creates a new one in `company`. */
  newBody: () => Promise<Fields>;
  /** The PUT body that sets every field as `created` has it: an update that changes nothing. */
  sameBody: (created: Fields) => Fields;
  /** A PUT body that changes `changedFields` of `created`, and only them; what it creates records no event of `company` later. */
  changedBody: (created: Fields) => Promise<Fields>;
  changedFields: string[];
}

/** The created, updated and deleted events of `r`, recorded as docs/decisions/events.md says. */
export function itRecordsLifecycleEvents(r: LifecycleResource): void {
  const type = (verb: string) => `v1.${r.resource}.${verb}`;
  const send = (method: string, url: string, body?: unknown) =>
    r.t().request(method, url, { token: r.token(), ...(body !== undefined && { body }) });
  const during = (change: () => Promise<TestResponse>) => changeAndEvents(r.t(), r.company, change);
  const current = async (id: string) => {
    const got = await send('GET', `${r.path}/${id}`);
    assert.equal(got.status, 200, got.text);
    return got.body.data as Fields;
  };
  const create = async () => {
    const body = await r.newBody();
    const { response, events } = await during(() => send('POST', r.path, body));
    assert.equal(response.status, 201, response.text);
    return { created: response.body.data as Fields, events };
  };

  describe(`v1.${r.resource} events`, () => {
    it(`records ${type('created')} once, its data what GET answers`, async () => {
      const { created, events } = await create();
      const event = theOnlyEvent(events, type('created'));
      assert.deepEqual(event.data, await current(created.id as string));
      assert.deepEqual(event.data, created);
      assert.equal(event.previousAttributes, undefined);
    });

    it(`records ${type('updated')} with the changed fields before, and nothing for a PUT that changes nothing`, async () => {
      const { created } = await create();
      const id = created.id as string;
      const same = await during(() => send('PUT', `${r.path}/${id}`, r.sameBody(created)));
      assert.equal(same.response.status, 200, same.response.text);
      assert.notEqual(same.response.body.data.updatedAt, created.updatedAt, 'the PUT did write');
      assert.deepEqual(same.events, []);

      const before = await current(id);
      const body = await r.changedBody(before);
      const { response, events } = await during(() => send('PUT', `${r.path}/${id}`, body));
      assert.equal(response.status, 200, response.text);
      const event = theOnlyEvent(events, type('updated'));
      const after = await current(id);
      assert.deepEqual(event.data, after);
      assert.deepEqual(event.previousAttributes, expectedPrevious(before, after, r.changedFields));
      for (const field of r.changedFields) assert.notDeepEqual(after[field], before[field], field);
    });

    it(`records ${type('deleted')} once with the last state, and nothing for a delete of no one`, async () => {
      const { created } = await create();
      const id = created.id as string;
      await send('PUT', `${r.path}/${id}`, await r.changedBody(created));
      const last = await current(id);
      const { response, events } = await during(() => send('DELETE', `${r.path}/${id}`));
      assert.equal(response.status, 204, response.text);
      assert.deepEqual(theOnlyEvent(events, type('deleted')).data, last);
      const again = await during(() => send('DELETE', `${r.path}/${id}`));
      assert.equal(again.response.status, 404, again.response.text);
      assert.deepEqual(again.events, []);
    });

    it(`sends each event to a subscriber holding only ${r.scopes.read}`, async () => {
      const types = ['created', 'updated', 'deleted'].map(type);
      const subscribed = await subscribe(r.t(), r.company, [r.scopes.read], types);
      assert.equal(subscribed.status, 200, subscribed.text);
      const {
        created,
        events: [createdEvent],
      } = await create();
      const id = created.id as string;
      const changed = await r.changedBody(created);
      const {
        events: [updatedEvent],
      } = await during(() => send('PUT', `${r.path}/${id}`, changed));
      const {
        events: [deletedEvent],
      } = await during(() => send('DELETE', `${r.path}/${id}`));
      const recorded = [createdEvent, updatedEvent, deletedEvent];
      assert.deepEqual(
        recorded.map((event) => event?.eventType),
        types,
      );
      for (const event of recorded) {
        assert.equal(await messageCount(r.t(), subscribed.body.data.id, event?.eventId as string), 1);
      }
    });

    it(`refuses a subscription to its events without ${r.scopes.read} (403)`, async () => {
      // The write scope grants the read scope too: a token lacks it only when it has neither.
      const others = ALL_SCOPES.filter((scope) => scope !== r.scopes.read && scope !== r.scopes.write);
      for (const verb of ['created', 'updated', 'deleted']) {
        const refused = await subscribe(r.t(), r.company, others, [type(verb)]);
        assert.equal(refused.status, 403, refused.text);
      }
    });
  });
}
