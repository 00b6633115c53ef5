// verifyWebhook against notifications the service really sent (one secret, and two during a
// rotation), against the vectors of the standardwebhooks library's own tests, and against
// signatures that library makes; the payload it answers narrows by its eventType.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import {
  Ledgerhook,
  verifyWebhook,
  verifyWebhookSignature,
  type WebhookPayload,
  WebhookVerificationError,
} from '../../clients/typescript/src/index.ts';
import { type ReceivedRequest, startReceiver, type TestReceiver } from '../webhooks/delivery/fixtures.ts';
import { type ClientTestService, startClientTestService } from './support.ts';

/** What a receiver does with a verified payload: the switch narrows `data` to the event's own type. */
function describeEvent(payload: WebhookPayload): string {
  switch (payload.eventType) {
    case 'v1.account.created':
      // @ts-expect-error an account has no status: data is the account's type here
      void payload.data.status;
      return `account ${payload.data.externalId} created`;
    case 'v1.account.updated':
      return `account ${payload.data.externalId} renamed from ${String(payload.previousAttributes?.name)}`;
    case 'v1.export-job.created':
      return `export job ${payload.data.status}`;
    default:
      return payload.eventType;
  }
}

const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;

describe('verifyWebhook, with notifications the service sent', { timeout: 60_000 }, () => {
  let t: ClientTestService;
  const receivers: TestReceiver[] = [];
  let lh: Ledgerhook;
  let companyId: string;
  before(async () => {
    t = await startClientTestService({ worker: true });
    const application = await t.application();
    companyId = application.companyId;
    lh = new Ledgerhook({ baseUrl: t.baseUrl, apiKey: application.apiKey });
  });
  after(async () => {
    for (const receiver of receivers) await receiver.close();
    await t?.close();
  });
  /** A receiver of one subscription's notifications alone. */
  const receiverOfOne = async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    return receiver;
  };

  it('verifies one, answers its typed payload, and refuses it altered, late or with another secret', async () => {
    const receiver = await receiverOfOne();
    const subscription = await lh.subscriptions.create({
      eventTypes: ['v1.account.created', 'v1.account.updated'],
      endpointUrl: receiver.url,
    });
    const { secretKey } = await lh.subscriptions.secret(subscription.id);
    const account = await lh.accounts.create({ companyId, externalId: '1000', name: 'Cash', archived: false });
    const request = await receiver.nth(1);

    // The headers as Node's http module gives them.
    const payload = await verifyWebhook(request.body, request.headers, secretKey);
    assert.equal(payload.eventType, 'v1.account.created');
    assert.deepEqual(payload.data, account);
    assert.equal(describeEvent(payload), 'account 1000 created');
    // The same from the bytes and a Fetch API Headers, as an edge runtime has them.
    const fetchHeaders = new Headers(headersOf(request));
    assert.deepEqual(await verifyWebhook(Buffer.from(request.body), fetchHeaders, secretKey), payload);

    const refusals = [
      () => verifyWebhook(request.body.replace('Cash', 'Cask'), headersOf(request), secretKey),
      () => verifyWebhook(request.body, { ...headersOf(request), 'webhook-id': 'msg_other' }, secretKey),
      () => verifyWebhook(request.body, headersOf(request), `whsec_${Buffer.alloc(32, 1).toString('base64')}`),
      () => verifyWebhook(request.body, headersOf(request), secretKey, { now: new Date(Date.now() + 301_000) }),
    ];
    for (const refusal of refusals) await assert.rejects(refusal, WebhookVerificationError);
    const later = { now: new Date(Date.now() + 301_000), toleranceSeconds: 600 };
    assert.ok(await verifyWebhook(request.body, headersOf(request), secretKey, later));
  });

  it('verifies with either secret while a rotation overlaps, given one or both', async () => {
    const receiver = await receiverOfOne();
    const subscription = await lh.subscriptions.create({
      eventTypes: ['v1.account.updated'],
      endpointUrl: receiver.url,
    });
    const old = (await lh.subscriptions.secret(subscription.id)).secretKey;
    const current = (await lh.subscriptions.rotateSecret(subscription.id)).secretKey;
    const account = await lh.accounts.create({ companyId, externalId: '2000', name: 'Bank', archived: false });
    await lh.accounts.update(account.id, { name: 'Bank fees', archived: false });
    const request = await receiver.nth(1);
    assert.equal(String(request.headers['webhook-signature']).split(' ').length, 2);

    const stranger = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
    for (const secrets of [old, current, [stranger, current], [old, stranger]]) {
      const payload = await verifyWebhook(request.body, headersOf(request), secrets);
      assert.equal(describeEvent(payload), 'account 2000 renamed from Bank');
    }
    await assert.rejects(verifyWebhook(request.body, headersOf(request), [stranger]), WebhookVerificationError);
  });
});

// The values of standard-webhooks' libraries/javascript/src/webhook.test.ts (data, not code).
const VECTOR = {
  secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('verifyWebhookSignature, with the standardwebhooks vectors', () => {
  const at = new Date(VECTOR.timestamp * 1000);
  const headers = {
    'webhook-id': VECTOR.id,
    'webhook-timestamp': String(VECTOR.timestamp),
    'webhook-signature': VECTOR.signature,
  };
  const verify = (changed: Record<string, string | undefined>, secret = VECTOR.secret, now = at) =>
    verifyWebhookSignature(VECTOR.body, { ...headers, ...changed }, secret, { now });

  it('accepts the signature, with and without the whsec_ prefix, among others', async () => {
    await verify({});
    await verify({}, `whsec_${VECTOR.secret}`);
    const others = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=';
    await verify({ 'webhook-signature': `${others} ${VECTOR.signature}` });
  });

  it('refuses missing headers, a timestamp that is no number or out of tolerance, and bad signatures', async () => {
    const refused = [
      () => verify({ 'webhook-id': undefined }),
      () => verify({ 'webhook-timestamp': undefined }),
      () => verify({ 'webhook-signature': undefined }),
      () => verify({ 'webhook-timestamp': 'hello' }),
      () => verify({ 'webhook-signature': 'v1,dawfeoifkpqwoekfpqoekf' }),
      () => verify({ 'webhook-signature': VECTOR.signature.slice(0, 8) }),
      () => verify({ 'webhook-signature': 'v1,' }),
      () => verify({ 'webhook-signature': VECTOR.signature.replace('v1,', 'v2,') }),
      () => verify({}, VECTOR.secret, new Date(at.getTime() + 301_000)),
      () => verify({}, VECTOR.secret, new Date(at.getTime() - 301_000)),
    ];
    for (const [i, refusal] of refused.entries()) await assert.rejects(refusal, WebhookVerificationError, `case ${i}`);
  });

  it('verifyWebhook also wants a ledgerhook notification: the vector body has no payload', async () => {
    await assert.rejects(verifyWebhook(VECTOR.body, headers, VECTOR.secret, { now: at }), /no payload/);
  });

  it('verifies what the standardwebhooks library signs', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const body = JSON.stringify({
      payload: { data: {}, eventId: 'e', eventType: 'v1.export-job.created', sequence: 1 },
    });
    const now = new Date();
    const signature = new StandardWebhook(secret).sign('msg_1', now, body);
    const signed = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)) };
    const payload = await verifyWebhook(body, { ...signed, 'webhook-signature': signature }, secret);
    assert.equal(payload.eventType, 'v1.export-job.created');
  });
});
