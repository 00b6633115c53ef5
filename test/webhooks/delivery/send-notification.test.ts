// Endpoint safety at send time (docs/decisions/webhook-delivery.md): without
// WEBHOOK_ALLOW_PRIVATE_TARGETS only https is sent, and only to public addresses, including the
// address a name resolves to when connecting.
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { isPublicAddress } from '../../../src/webhooks/endpoint-guard.ts';
import {
  createNotificationSender,
  type Notification,
  type NotificationSender,
} from '../../../src/webhooks/send-notification.ts';
import { generateSecret } from '../../../src/webhooks/signature.ts';
import { startReceiver, type TestReceiver } from './fixtures.ts';

let receiver: TestReceiver;
let sender: NotificationSender;
let port: string;

before(async () => {
  receiver = await startReceiver();
  port = new URL(receiver.url).port;
  sender = createNotificationSender({ timeoutMs: 2000, allowPrivateTargets: false });
});
after(async () => {
  await sender.close();
  await receiver.close();
});

const notification = (endpointUrl: string): Notification => ({
  messageId: 'msg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
  endpointUrl,
  payload: {
    data: {},
    eventId: '123e4567-e89b-12d3-a456-426614174005',
    eventType: 'v1.export-job.created',
    sequence: 1,
  },
  secrets: [generateSecret()],
  customHeaders: {},
});

describe('sending without private targets', { timeout: 20_000 }, () => {
  it('refuses http and literal private addresses without connecting', async () => {
    for (const [url, reason] of [
      [`http://127.0.0.1:${port}/hook`, /https/],
      [`https://127.0.0.1:${port}/hook`, /public address/],
      [`https://[::ffff:127.0.0.1]:${port}/hook`, /public address/],
      [`https://localhost:${port}/hook`, /public address/],
    ] as const) {
      const outcome = await sender.send(notification(url));
      assert.equal(outcome.succeeded, false);
      assert.equal(outcome.statusCode, null);
      assert.match(String(outcome.error), reason, url);
    }
    assert.equal(receiver.requests.length, 0);
  });

  it('refuses a name that resolves to a private address when connecting', async (t) => {
    const name = hostname();
    const resolved = await lookup(name).catch(() => undefined);
    if (!resolved || isPublicAddress(resolved.address)) return t.skip(`${name} does not resolve to a private address`);
    const outcome = await sender.send(notification(`https://${name}:${port}/hook`));
    assert.equal(outcome.statusCode, null);
    assert.match(String(outcome.error), /not a public address/);
    assert.equal(receiver.requests.length, 0);
  });
});
