import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { generateSecret, signatureHeader } from '../../src/webhooks/signature.ts';

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
});
