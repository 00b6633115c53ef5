// The delivery dashboard in a real browser (Chromium through playwright-core), as an integration
// developer uses it: sign in with an API key, find the failing endpoint and why, resend, manage the
// signing secret; with untrusted response bodies shown as text and every control reachable by
// keyboard. Each view is also written as a screenshot to test-results/dashboard/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { disableFailingSubscriptions, MIN_FAILED_MESSAGES } from '../../src/webhooks/auto-disable.ts';
import { needs } from '../support/components.ts';
import { emitEvent, markFailingFor } from '../webhooks/delivery/fixtures.ts';
import { controlsTabDoesNotReach, focusIsVisible } from './keyboard.ts';
import { type DashboardFixture, SCREENSHOT_DIR, signInWithApiKey, startDashboardFixture } from './support.ts';

// A receiver's answer that would run script if the page put it into HTML.
const HOSTILE_BODY = '<script>window.xss = 1</script><img src=x onerror="window.xss = 2">upstream down';

let f: DashboardFixture;
let page: Page;
let subscriptionId: string;
let messageId: string;

/** The element's text as in the DOM (not as laid out). */
const text = async (locator: Locator) => (await locator.textContent()) ?? '';
const shot = (name: string, target: Page = page) =>
  target.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });

/** The subscription's signing secret as the API answers it now. */
async function currentSecret(): Promise<string> {
  const auth = { authorization: `Bearer ${f.client.apiKeyValue}` };
  const answer = await f.service.request('GET', `/v1/subscriptions/${subscriptionId}/secret`, { headers: auth });
  assert.equal(answer.status, 200, answer.text);
  return answer.body.data.secretKey;
}

/** Lets the dashboard's origin read and write the clipboard; answers that origin. */
async function grantClipboard(target: Page): Promise<string> {
  const origin = new URL(f.url).origin;
  await target.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return origin;
}

/**
 * Denies the origin clipboard writes until the answered function is called. Playwright can grant a
 * permission but not deny one, so this goes through the DevTools protocol, whose session must stay
 * open: Chromium drops a session's permission settings when it detaches.
 */
async function denyClipboardWrite(target: Page, origin: string): Promise<() => Promise<void>> {
  const pageSession = await target.context().newCDPSession(target);
  const { targetInfo } = await pageSession.send('Target.getTargetInfo');
  await pageSession.detach();
  const browserSession = await f.browser.newBrowserCDPSession();
  await browserSession.send('Browser.setPermission', {
    permission: { name: 'clipboard-write' },
    setting: 'denied',
    origin,
    browserContextId: targetInfo.browserContextId,
  });
  return () => browserSession.detach();
}

describe('the dashboard in a browser', { timeout: 180_000, skip: await needs('chromium') }, () => {
  before(async () => {
    f = await startDashboardFixture();
    // A subscription whose receiver fails every attempt with a hostile body: its message ends failed.
    f.answer = { status: 500, body: HOSTILE_BODY };
    const created = await f.service.request('POST', '/v1/subscriptions', {
      headers: { authorization: `Bearer ${f.client.apiKeyValue}` },
      body: { eventTypes: ['v1.export-job.created'], endpointUrl: f.receiver.url },
    });
    assert.equal(created.status, 200, created.text);
    subscriptionId = created.body.data.id;
    // Four events, each failed after its three attempts; the tests follow the first.
    const company = f.client.client.companies[0] as string;
    const events = [];
    for (let i = 0; i < 4; i++) events.push(await emitEvent(f.service.db, company));
    await f.worker.recorded(12);
    const [first] = await f.service.db.query<{ id: string }>('SELECT id FROM messages WHERE event_id = $1', [
      events[0]?.eventId,
    ]);
    messageId = first?.id as string;
    page = await f.newPage();
  });
  after(() => f?.close());

  it('refuses a wrong API key with a clear message and keeps nothing', async () => {
    await page.goto(f.url);
    await shot('sign-in');
    await page.getByRole('textbox', { name: 'API key' }).fill('lhk_not-a-key-of-this-service');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await text(alert), /This API key was not accepted/);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    await page.getByRole('heading', { name: 'Sign in to your deliveries' }).waitFor();
  });

  it('signs in with an API key kept in sessionStorage only, never in the URL, a cookie or the log', async () => {
    await signInWithApiKey(page, f.url, f.client.apiKeyValue);
    await page.getByRole('link', { name: f.receiver.url }).waitFor();
    await shot('subscriptions');
    const stored = await page.evaluate(() => ({
      session: Object.values(sessionStorage).join(),
      local: localStorage.length,
      cookie: document.cookie,
      url: location.href,
    }));
    assert.ok(stored.session.includes(f.client.apiKeyValue));
    assert.deepEqual([stored.local, stored.cookie, stored.url.includes(f.client.apiKeyValue)], [0, '', false]);
    assert.ok(!f.service.logs.join('\n').includes(f.client.apiKeyValue));
    // The list shows the failure and its streak.
    const row = page.locator('tbody tr', { hasText: f.receiver.url });
    assert.match(await text(row), /HTTP 500/);
    assert.match(await text(row), /12 in a row/);
  });

  it('shows the failed message, its attempts and the response body as text, never as HTML', async () => {
    await page.getByRole('link', { name: f.receiver.url }).click();
    await page.getByTestId('last-failure').filter({ hasText: 'HTTP 500' }).waitFor();
    const row = page.locator(`[data-message="${messageId}"]`);
    assert.match(await text(row), /failed/);
    await shot('subscription');
    await row.getByRole('link', { name: messageId }).click();
    await page.locator('[data-attempt="3"]').waitFor();
    const bodies = await page.locator('pre.excerpt').allTextContents();
    assert.deepEqual(bodies, [HOSTILE_BODY, HOSTILE_BODY, HOSTILE_BODY]);
    assert.equal(await page.locator('main img, main script').count(), 0);
    assert.equal(await page.evaluate(() => (window as { xss?: number }).xss), undefined);
    // The payload is the one the receiver got, pretty-printed.
    const sent = JSON.parse(f.receiver.requests.find((r) => r.headers['webhook-id'] === messageId)?.body ?? '{}');
    assert.deepEqual(JSON.parse(await text(page.getByLabel('Payload JSON'))), sent.payload);
    await shot('message-failed');
  });

  it('resends: the receiver now answers 204 and the page shows it delivered without a reload', async () => {
    f.answer = { status: 204 };
    await page.evaluate(() => {
      (window as { sameDocument?: boolean }).sameDocument = true;
    });
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByTestId('message-status').filter({ hasText: 'delivered' }).waitFor();
    await page.locator('[data-attempt="4"]').filter({ hasText: 'HTTP 204' }).waitFor();
    assert.equal(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument), true);
    await shot('message-delivered');
  });

  it('lists messages newest first and filters them by status', async () => {
    await page.getByRole('link', { name: 'Subscription', exact: true }).click();
    const rows = page.locator('[data-message]');
    await rows.nth(3).waitFor();
    const ids = await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-message')));
    assert.equal(ids.at(-1), messageId, 'the first message is listed last');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('delivered');
    await page.locator('[data-message]').nth(1).waitFor({ state: 'detached' });
    assert.deepEqual(await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-message'))), [
      messageId,
    ]);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('pending');
    await page.getByText('No pending messages.').waitFor();
  });

  it('recovers the failed messages since a chosen time', async () => {
    await page.getByRole('combobox', { name: 'Status' }).selectOption('');
    await page.getByRole('button', { name: 'Recover' }).click();
    await page.getByText('3 failed messages queued to be sent again.').waitFor();
  });

  it('reveals the signing secret, and rotates it after a confirmation', async () => {
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const before = await text(page.getByTestId('secret'));
    assert.equal(before, await currentSecret());
    await page.getByRole('button', { name: 'Rotate secret…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByText('Rotated.').waitFor();
    const rotated = await text(page.getByTestId('secret'));
    assert.notEqual(rotated, before);
    assert.equal(rotated, await currentSecret());
  });

  it('copies exactly the revealed secret to the clipboard, and says so', async () => {
    const card = page.getByRole('region', { name: 'Signing secret' });
    const status = card.locator('[aria-live]');
    await grantClipboard(page);
    await page.evaluate(() => navigator.clipboard.writeText('not the secret'));
    const shown = await text(card.getByTestId('secret'));
    assert.equal(shown, await currentSecret());
    await card.getByRole('button', { name: 'Copy', exact: true }).click();
    await status.filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await text(status), 'Copied to the clipboard.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shown);
  });

  it('selects the secret and says to press Ctrl+C when the clipboard refuses the write', async () => {
    const card = page.getByRole('region', { name: 'Signing secret' });
    const status = card.locator('[aria-live]');
    const origin = await grantClipboard(page);
    await page.evaluate(() => navigator.clipboard.writeText('not the secret'));
    const allowAgain = await denyClipboardWrite(page, origin);
    try {
      await page.evaluate(() => getSelection()?.removeAllRanges());
      const shown = await text(card.getByTestId('secret'));
      assert.equal(shown, await currentSecret());
      await card.getByRole('button', { name: 'Copy', exact: true }).click();
      await status.filter({ hasText: 'Ctrl+C' }).waitFor();
      assert.equal(await text(status), 'Selected: press Ctrl+C (⌘C) to copy.');
      assert.equal(await page.evaluate(() => getSelection()?.toString()), shown);
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'not the secret');
    } finally {
      await allowAgain();
      await page.context().clearPermissions();
    }
  });

  it('lets the keyboard reach every control of every view, with a visible focus', async () => {
    const views = [
      `#/subscriptions/${subscriptionId}`,
      `#/subscriptions/${subscriptionId}/messages/${messageId}`,
      '#/subscriptions',
      `#/subscriptions/${subscriptionId}/edit`,
      '#/event-types',
    ];
    for (const view of views) {
      await page.goto(`${f.url}${view}`);
      await page.locator('main h1').first().waitFor();
      await page
        .locator('main [aria-busy="true"], main p.muted:text("Loading")')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => {});
      assert.deepEqual(await controlsTabDoesNotReach(page), [], view);
    }
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    assert.equal(await focusIsVisible(page), true);
    await shot('keyboard-focus', page);
  });

  it('creates, edits and deletes a subscription through its forms', async () => {
    await page.goto(`${f.url}#/subscriptions`);
    await page.getByRole('link', { name: 'New subscription' }).click();
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(`${f.receiver.url}/second`);
    await page.getByRole('textbox', { name: 'Custom headers' }).fill('x-receiver-key: abc123');
    await page.getByRole('checkbox', { name: /^v1\.export-job\.created / }).check();
    // A resource's group box takes all its types; leaving one out leaves the group half taken.
    await page.getByRole('checkbox', { name: 'All export-job events' }).check();
    await page.getByRole('checkbox', { name: /^v1\.export-job\.expired / }).uncheck();
    assert.equal(
      await page
        .getByRole('checkbox', { name: 'All export-job events' })
        .evaluate((box) => (box as HTMLInputElement).indeterminate),
      true,
    );
    await shot('subscription-form');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByRole('heading', { name: `${f.receiver.url}/second` }).waitFor();
    const id = /#\/subscriptions\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;
    assert.ok(id, page.url());
    const created = await f.service.request('GET', `/v1/subscriptions/${id}`, {
      headers: { authorization: `Bearer ${f.client.apiKeyValue}` },
    });
    assert.deepEqual(created.body.data.eventTypes.toSorted(), [
      'v1.export-job.completed',
      'v1.export-job.completed-with-errors',
      'v1.export-job.created',
      'v1.export-job.failed',
      'v1.export-job.started',
    ]);

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('INACTIVE');
    await page.getByRole('spinbutton', { name: 'Rate limit (per second)' }).fill('20');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('h1 .badge', { hasText: 'inactive' }).waitFor();
    const auth = { authorization: `Bearer ${f.client.apiKeyValue}` };
    const saved = await f.service.request('GET', `/v1/subscriptions/${id}`, { headers: auth });
    assert.deepEqual(
      [saved.body.data.status, saved.body.data.customHeaders, saved.body.data.rateLimitPerSecond],
      ['INACTIVE', { 'x-receiver-key': 'abc123' }, 20],
    );
    assert.match(await text(page.locator('dl.facts')), /Rate limit\s*20 per second/);

    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await f.service.request('GET', `/v1/subscriptions/${id}`, { headers: auth })).status, 200);
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete subscription' }).click();
    await page.getByRole('heading', { name: 'Subscriptions', level: 1 }).waitFor();
    assert.equal((await f.service.request('GET', `/v1/subscriptions/${id}`, { headers: auth })).status, 404);
  });

  it('shows event types with an example, a schema and verification code', async () => {
    await page.goto(`${f.url}#/event-types`);
    await page.getByRole('heading', { name: 'v1.export-job.created' }).waitFor();
    await page.getByText('Go · standardwebhooks').click();
    assert.match(await text(page.getByTestId('verify-code')), /standardwebhooks\.NewWebhook/);
    await page.getByRole('region', { name: 'v1.export-job.created' }).getByText('Example notification body').click();
    await page.getByRole('heading', { name: 'v1.subscription.disabled' }).waitFor();
    await page.getByText('Needs no scope · version v1').waitFor();
    await shot('event-types');
  });

  it('fits a phone screen without sideways scrolling', async () => {
    const phone = await f.newPage({ width: 390, height: 844 });
    await signInWithApiKey(phone, f.url, f.client.apiKeyValue);
    await shot('phone-subscriptions', phone);
    await phone.getByRole('link', { name: f.receiver.url }).click();
    await phone.locator(`[data-message="${messageId}"]`).waitFor();
    await shot('phone-subscription', phone);
    assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    await phone.context().close();
  });

  it('signs in with a client id and secret; signing out forgets the credential', async () => {
    const other = await f.newPage();
    await other.goto(f.url);
    await other.getByRole('radio', { name: 'Client id and secret' }).check();
    await other.getByRole('textbox', { name: 'Client id' }).fill(f.client.client.id);
    await other.getByRole('textbox', { name: 'Client secret' }).fill(f.client.clientSecret);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('link', { name: f.receiver.url }).waitFor();
    assert.ok(!(await other.evaluate(() => Object.values(sessionStorage).join())).includes(f.client.clientSecret));
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.getByRole('heading', { name: 'Sign in to your deliveries' }).waitFor();
    assert.equal(await other.evaluate(() => sessionStorage.length), 0);
    await other.context().close();
  });

  it('says to sign in again when the credential is refused later, and to wait on 429', async () => {
    await page.evaluate(() => {
      const key = Object.keys(sessionStorage)[0] as string;
      sessionStorage.setItem(
        key,
        JSON.stringify({ kind: 'apiKey', bearer: 'lhk_revoked', label: 'API key lhk_revo…' }),
      );
    });
    await page.goto(`${f.url}#/subscriptions`);
    await page.reload();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await text(alert), /no longer accepted \(401\)/);
    await shot('signed-out-401');
    const advice = await page.evaluate(async () => {
      // The page's own module, loaded in the page (a path TypeScript does not resolve here).
      const problemModule = './problem.js';
      const { explain } = await import(problemModule);
      return explain({ status: 429, retryAfter: 7, message: '', errors: [] }).join(' ');
    });
    assert.match(advice, /Wait 7 seconds/);
    await alert.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { name: 'Sign in to your deliveries' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  });

  it('explains a fault of the page itself (not a refused call) instead of breaking the view', async () => {
    const shown = await page.evaluate(async () => {
      const problemModule = './problem.js';
      const { problemBlock } = await import(problemModule);
      const fault = new TypeError("Cannot read properties of undefined (reading 'map')");
      const block: HTMLElement = problemBlock(fault, () => {});
      return [block.getAttribute('role'), ...[...block.children].map((child) => child.textContent)];
    });
    assert.deepEqual(shown, [
      'alert',
      'This page failed',
      "Cannot read properties of undefined (reading 'map'). Reload the page to try again.",
      'Try again',
    ]);
  });

  it('runs under a policy that refuses any string put into the page as HTML', async () => {
    const outcome = await page.evaluate(() => {
      try {
        document.body.innerHTML = '<b>not allowed</b>';
        return 'assigned';
      } catch (error) {
        return (error as Error).name;
      }
    });
    assert.equal(outcome, 'TypeError');
  });

  it('pages through messages with next and previous', async () => {
    const company = f.client.client.companies[0] as string;
    const before = f.worker.attempts.length;
    for (let i = 0; i < 26; i++) await emitEvent(f.service.db, company);
    await f.worker.recorded(before + 26);
    await signInWithApiKey(page, f.url, f.client.apiKeyValue);
    await page.goto(`${f.url}#/subscriptions/${subscriptionId}`);
    const rows = page.locator('[data-message]');
    await rows.nth(24).waitFor();
    const first = await rows.first().getAttribute('data-message');
    await page.getByRole('button', { name: 'Next →' }).click();
    await rows.nth(5).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 5);
    assert.equal(await rows.last().getAttribute('data-message'), messageId);
    await page.getByRole('button', { name: '← Previous' }).click();
    await rows.nth(24).waitFor();
    assert.equal(await rows.first().getAttribute('data-message'), first);
  });

  it("pages through a message's attempts, newest first, with their total", async () => {
    // Attempts 5..40 beside the four the worker made: a message resent again and again.
    await f.service.db.query(
      `INSERT INTO message_attempts (message_id, attempt, started_at, duration_ms, status_code, response_body, succeeded)
       SELECT $1, i, now(), 3, 500, 'down', false FROM generate_series(5, 40) AS i`,
      [messageId],
    );
    await page.goto(`${f.url}#/subscriptions/${subscriptionId}/messages/${messageId}`);
    await page.getByRole('heading', { name: 'Attempts (40)' }).waitFor();
    const rows = page.locator('[data-attempt]');
    const numbers = () => rows.evaluateAll((list) => list.map((row) => Number(row.getAttribute('data-attempt'))));
    assert.deepEqual(
      await numbers(),
      Array.from({ length: 25 }, (_, i) => 40 - i),
    );
    await page.getByRole('navigation', { name: 'Attempt pages' }).getByRole('button', { name: 'Next →' }).click();
    await rows.nth(15).waitFor({ state: 'detached' });
    assert.deepEqual(
      await numbers(),
      Array.from({ length: 15 }, (_, i) => 15 - i),
    );
    await page.getByRole('button', { name: '← Previous' }).click();
    await rows.nth(24).waitFor();
    assert.equal(await rows.first().getAttribute('data-attempt'), '40');
  });
  it('sends a test event to the subscription and shows its message delivered', async () => {
    const arrived = f.receiver.requests.length;
    await page.goto(`${f.url}#/subscriptions/${subscriptionId}`);
    const card = page.getByRole('region', { name: 'Send a test event' });
    await card.getByRole('combobox', { name: 'Event type' }).selectOption('v1.export-job.created');
    await card.getByRole('button', { name: 'Send test event' }).click();
    const link = page.getByTestId('test-event-sent').getByRole('link');
    await link.waitFor();
    const testMessageId = await text(link);
    assert.match(testMessageId, /^msg_[a-z2-7]{26}$/);
    // The list shows it at once, and it is delivered by the worker like any message.
    await page.locator(`[data-message="${testMessageId}"]`).waitFor();
    await shot('test-event');
    await link.click();
    await page.getByTestId('message-status').filter({ hasText: 'delivered' }).waitFor();
    const delivered = f.receiver.requests.slice(arrived).find((r) => r.headers['webhook-id'] === testMessageId);
    assert.equal(JSON.parse(delivered?.body ?? '{}').payload.eventType, 'v1.export-job.created');
  });

  it('says why the service disabled a subscription, in the list and on its page, and the way back', async () => {
    const auth = { authorization: `Bearer ${f.client.apiKeyValue}` };
    const endpointUrl = 'https://example.com/gone';
    const created = await f.service.request('POST', '/v1/subscriptions', {
      headers: auth,
      body: { eventTypes: ['v1.export-job.created'], endpointUrl },
    });
    assert.equal(created.status, 200, created.text);
    const id = created.body.data.id;
    try {
      await markFailingFor(f.service.db, id, 10 * 60_000, MIN_FAILED_MESSAGES);
      assert.deepEqual(await disableFailingSubscriptions(f.service.db, 5 * 60_000, 100), [id]);
      await page.goto(`${f.url}#/subscriptions`);
      const row = page.locator('tbody tr', { hasText: endpointUrl });
      await row.waitFor();
      assert.match(await text(row), /INACTIVE endpoint failing/);
      await row.getByRole('link', { name: endpointUrl }).click();
      const notice = page.getByTestId('disabled-reason');
      await notice.waitFor();
      assert.match(await text(notice), /Disabled by the service: its endpoint kept failing/);
      await shot('subscription-disabled');
      // Its way back: the form, status Active; then the page no longer says it is disabled.
      await notice.getByRole('link', { name: 'edit the subscription' }).click();
      await page.getByRole('combobox', { name: 'Status' }).selectOption('ACTIVE');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.locator('h1 .badge-active').waitFor();
      assert.equal(await notice.count(), 0);
    } finally {
      await f.service.request('DELETE', `/v1/subscriptions/${id}`, { headers: auth });
    }
  });
});
