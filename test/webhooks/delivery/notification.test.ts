// What a receiver gets (docs/decisions/webhook-delivery.md): the exact body and headers, signatures
// that svix and standardwebhooks verify (also during a rotation), Basic auth and custom headers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import type { Database } from '../../../src/db/database.ts';
import { VERSION } from '../../../src/version.ts';
import { generateSecret } from '../../../src/webhooks/signature.ts';
import { openTestDatabase } from '../../support/database.ts';
import {
  EVENT_TYPE,
  emitEvent,
  insertSubscription,
  messagesOf,
  startReceiver,
  startTestWorker,
  type TestReceiver,
  type TestWorker,
} from './fixtures.ts';

let db: Database;
let worker: TestWorker;
let receiver: TestReceiver;

before(async () => {
  db = await openTestDatabase();
  worker = await startTestWorker(db);
  receiver = await startReceiver();
});
after(async () => {
  await worker.stop();
  await receiver.close();
  await db.close();
});

const verifyHeaders = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

describe('a notification', { timeout: 20_000 }, () => {
  it('carries the exact body and headers of a notification, verified by svix and standardwebhooks', async () => {
    const company = randomUUID();
    const subscription = await insertSubscription(db, { endpointUrl: receiver.url, companies: [company] });
    const data = { id: randomUUID(), companyId: company, note: 'é ✓ "quoted"', numberOfItems: 3 };
    const before = Math.floor(Date.now() / 1000);
    const { eventId, sequence } = await emitEvent(db, company, data);
    const request = await receiver.nth(receiver.requests.length + 1);
    const [message] = await messagesOf(db, subscription.id);

    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/hook');
    // Exactly this shape, compact: the interface's three members, then the sequence (a created event
    // has no previousAttributes); `data` is the stored resource (jsonb orders its keys its own way).
    const parsed = JSON.parse(request.body);
    assert.equal(typeof sequence, 'number');
    assert.equal(
      request.body,
      `{"payload":{"data":${JSON.stringify(parsed.payload.data)},"eventId":"${eventId}","eventType":"${EVENT_TYPE}","sequence":${sequence}}}`,
    );
    assert.deepEqual(parsed.payload.data, data);
    const h = request.headers;
    assert.equal(h['content-type'], 'application/json');
    assert.equal(h['user-agent'], `ledgerhook/${VERSION}`);
    assert.match(String(h['webhook-id']), /^msg_[a-z2-7]{26}$/);
    assert.equal(h['webhook-id'], message?.id);
    const timestamp = Number(h['webhook-timestamp']);
    assert.ok(timestamp >= before && timestamp <= Math.ceil(Date.now() / 1000), `timestamp ${timestamp}`);
    assert.match(String(h['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.equal(h.authorization, undefined);

    const secret = subscription.secrets[0] as string;
    const expected = { payload: { data, eventId, eventType: EVENT_TYPE, sequence } };
    assert.deepEqual(new SvixWebhook(secret).verify(request.body, verifyHeaders(h)), expected);
    assert.deepEqual(new StandardWebhook(secret).verify(request.body, verifyHeaders(h)), expected);
    const altered = request.body.replace('numberOfItems":3', 'numberOfItems":4');
    assert.notEqual(altered, request.body);
    assert.throws(() => new SvixWebhook(secret).verify(altered, verifyHeaders(h)));
    assert.throws(() => new StandardWebhook(secret).verify(altered, verifyHeaders(h)));
    assert.throws(() => new StandardWebhook(generateSecret()).verify(request.body, verifyHeaders(h)));

    const [recorded] = await worker.recorded(1, message?.id);
    assert.equal(recorded?.recorded?.status, 'delivered');
    const [stored] = await messagesOf(db, subscription.id);
    assert.deepEqual({ status: stored?.status, attempts: stored?.attempts }, { status: 'delivered', attempts: 1 });
  });

  it('is signed with every active secret during a rotation, and verifies with each', async () => {
    const company = randomUUID();
    const [previous, current] = [generateSecret(), generateSecret()];
    const subscription = await insertSubscription(db, {
      endpointUrl: receiver.url,
      companies: [company],
      secrets: [previous, current],
    });
    // An expired secret no longer signs.
    const expired = generateSecret();
    await db.query(
      `INSERT INTO subscription_secrets (subscription_id, secret, created_at, expires_at)
       VALUES ($1, $2, now() - interval '2 days', now() - interval '1 day')`,
      [subscription.id, expired],
    );
    const n = receiver.requests.length + 1;
    await emitEvent(db, company);
    const request = await receiver.nth(n);
    const signatures = String(request.headers['webhook-signature']).split(' ');
    assert.equal(signatures.length, 2);
    for (const secret of [previous, current]) {
      assert.ok(new SvixWebhook(secret).verify(request.body, verifyHeaders(request.headers)));
      assert.ok(new StandardWebhook(secret).verify(request.body, verifyHeaders(request.headers)));
    }
    assert.throws(() => new StandardWebhook(expired).verify(request.body, verifyHeaders(request.headers)));
  });

  it('carries Basic authorization and the custom headers, which may replace content-type and user-agent but never webhook-*', async () => {
    const company = randomUUID();
    const subscription = await insertSubscription(db, {
      endpointUrl: receiver.url,
      companies: [company],
      basic: { username: 'hook-user', password: 'pä:ss' },
      customHeaders: { 'X-Api-Key': 'key-123', 'User-Agent': 'custom-agent/1', 'webhook-id': 'msg_forged' },
    });
    const n = receiver.requests.length + 1;
    await emitEvent(db, company);
    const request = await receiver.nth(n);
    const [message] = await messagesOf(db, subscription.id);
    assert.equal(request.headers.authorization, `Basic ${Buffer.from('hook-user:pä:ss').toString('base64')}`);
    assert.equal(request.headers['x-api-key'], 'key-123');
    assert.equal(request.headers['user-agent'], 'custom-agent/1');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['webhook-id'], message?.id);
    assert.ok(
      new StandardWebhook(subscription.secrets[0] as string).verify(request.body, verifyHeaders(request.headers)),
    );

    const other = randomUUID();
    await insertSubscription(db, {
      endpointUrl: receiver.url,
      companies: [other],
      customHeaders: { Authorization: 'Bearer abc', 'Content-Type': 'application/vnd.hook+json' },
    });
    const m = receiver.requests.length + 1;
    await emitEvent(db, other);
    const second = await receiver.nth(m);
    assert.equal(second.headers.authorization, 'Bearer abc');
    assert.equal(second.headers['content-type'], 'application/vnd.hook+json');
  });
});
