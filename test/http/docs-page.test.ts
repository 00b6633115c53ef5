// The API reference at /docs (docs/decisions/tenant-isolation.md, "The API reference page"): every
// answer under a policy that runs only its own files and forbids framing, and the page still loads
// every script and stylesheet it names and renders the document in a browser.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DOCS_CSP } from '../../src/http/docs-page.ts';
import { launchChromium, UI_TIMEOUT_MS } from '../dashboard/support.ts';
import { needs } from '../support/components.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

// Asked before any suite is declared, so that a missing chromium fails the file before any test runs.
const SKIP_WITHOUT_CHROMIUM = await needs('chromium');

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

function assertGuarded(headers: Record<string, unknown>, url: string): void {
  assert.equal(headers['content-security-policy'], DOCS_CSP, url);
  assert.equal(headers['x-frame-options'], 'DENY', url);
  assert.equal(headers['x-content-type-options'], 'nosniff', url);
}

describe('GET /docs', () => {
  it('answers the page and every script and stylesheet it names under the policy, with their types', async () => {
    const page = await t.app.inject('/docs/');
    assert.equal(page.statusCode, 200);
    assertGuarded(page.headers, '/docs/');
    for (const directive of ["script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "default-src 'none'"]) {
      assert.ok(DOCS_CSP.includes(directive), directive);
    }
    assert.ok(!DOCS_CSP.includes('unsafe'));
    // Nothing inline for the policy to refuse.
    assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>/);
    assert.doesNotMatch(page.body, /<style|\sstyle=|\son[a-z]+=/i);
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] as string);
    const styles = [...page.body.matchAll(/<link rel="stylesheet" type="text\/css" href="([^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    assert.ok(scripts.length >= 3 && styles.length >= 1, page.body);
    for (const [refs, type] of [
      [scripts, /javascript/],
      [styles, /text\/css/],
    ] as const) {
      for (const ref of refs) {
        const url = new URL(ref, 'http://x/docs/').pathname;
        const asset = await t.app.inject(url);
        assert.equal(asset.statusCode, 200, url);
        assert.match(String(asset.headers['content-type']), type, url);
        assertGuarded(asset.headers, url);
      }
    }
  });

  it('keeps the policy off the API', async () => {
    const health = await t.app.inject('/health/live');
    assert.equal(health.headers['content-security-policy'], undefined);
  });
});

describe('/docs in a browser', { timeout: 120_000, skip: SKIP_WITHOUT_CHROMIUM }, () => {
  let browser: Browser;
  let base: string;
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(() => browser?.close());

  it('renders the document with nothing refused by the policy', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations: string[] = [];
      await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          (window as unknown as { reportViolation(text: string): void }).reportViolation(
            `${event.violatedDirective} ${event.blockedURI}`,
          );
        });
      });
      const failed: string[] = [];
      page.on('requestfailed', (request) => failed.push(request.url()));
      const answer = await page.goto(`${base}/docs/`, { timeout: UI_TIMEOUT_MS });
      assert.equal(answer?.status(), 200);
      await page
        .locator('.swagger-ui .info .title')
        .filter({ hasText: 'ledgerhook' })
        .waitFor({ timeout: UI_TIMEOUT_MS });
      await page.locator('.opblock-summary').first().waitFor({ timeout: UI_TIMEOUT_MS });
      // Opening an operation renders its schemas and responses (React, styles, icons).
      await page.locator('.opblock-summary').first().click({ timeout: UI_TIMEOUT_MS });
      await page.locator('.opblock-body').first().waitFor({ timeout: UI_TIMEOUT_MS });
      assert.deepEqual(violations, []);
      assert.deepEqual(failed, []);
      // Another page cannot frame it: the frame's load ends without the UI.
      const framer = await context.newPage();
      await framer.setContent(`<iframe src="${base}/docs/"></iframe>`, { waitUntil: 'load' });
      const frame = framer.frames()[1];
      assert.ok(frame);
      assert.equal(await frame.locator('.swagger-ui').count(), 0);
    } finally {
      await context.close();
    }
  });
});
