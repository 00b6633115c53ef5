import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { generateSecret, signatureHeader, signatureMatches } from '../../src/webhooks/signature.ts';

const body = JSON.stringify({
  payload: { data: { id: 'x', note: 'é ✓' }, eventId: 'e', eventType: 'v1.export-job.created' },
});

function headersFor(
  secrets: string[],
  content = { messageId: 'msg_2Lt9uVbjDhdcNB2MkzPzc3Pje5W', timestamp: Math.floor(Date.now() / 1000), body },
) {
  return {
    'webhook-id': content.messageId,
    'webhook-timestamp': String(content.timestamp),
    'webhook-signature': signatureHeader(content, secrets),
  };
}

describe('Standard Webhooks signatures', () => {
  it('are verified by the svix and standardwebhooks libraries', () => {
    const secret = generateSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = headersFor([secret]);
    assert.deepEqual(new SvixWebhook(secret).verify(body, headers), JSON.parse(body));
    assert.deepEqual(new StandardWebhook(secret).verify(body, headers), JSON.parse(body));
  });

  it('carry one signature per secret, so either secret verifies during a rotation', () => {
    const [old, current] = [generateSecret(), generateSecret()];
    const headers = headersFor([current, old]);
    assert.equal(headers['webhook-signature'].split(' ').length, 2);
    for (const secret of [old, current]) assert.ok(new StandardWebhook(secret).verify(body, headers));
    assert.throws(() => new StandardWebhook(generateSecret()).verify(body, headers));
  });

  it('fail to verify when the body, id or timestamp is altered', () => {
    const secret = generateSecret();
    const headers = headersFor([secret]);
    assert.throws(() => new SvixWebhook(secret).verify(body.replace('é', 'e'), headers));
    assert.throws(() => new SvixWebhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_other' }));
    const later = String(Number(headers['webhook-timestamp']) + 1);
    assert.throws(() => new StandardWebhook(secret).verify(body, { ...headers, 'webhook-timestamp': later }));
  });

  it('are checked by signatureMatches (ledgerhook listen) as the standardwebhooks library signs them', () => {
    const [secret, other] = [generateSecret(), generateSecret()];
    const content = { messageId: 'msg_2Lt9uVbjDhdcNB2MkzPzc3Pje5W', timestamp: Math.floor(Date.now() / 1000), body };
    const signed = new StandardWebhook(secret).sign(content.messageId, new Date(content.timestamp * 1000), body);
    assert.ok(signatureMatches(content, signed, secret));
    // Any one of several signatures (a rotation's overlap) will do; none of another secret's.
    assert.ok(signatureMatches(content, signatureHeader(content, [other, secret]), secret));
    assert.equal(signatureMatches(content, signed, other), false);
    assert.equal(signatureMatches({ ...content, body: body.replace('é', 'e') }, signed, secret), false);
    assert.equal(signatureMatches({ ...content, timestamp: content.timestamp + 1 }, signed, secret), false);
    assert.equal(signatureMatches(content, signed.replace('v1,', 'v2,'), secret), false);
    assert.equal(signatureMatches(content, 'v1,', secret), false);
  });
});
