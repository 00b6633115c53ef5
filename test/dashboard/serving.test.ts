// How the dashboard is served (docs/decisions/dashboard.md): its own files only, under a strict
// policy, no route of its own in the API document, and nothing at all with DASHBOARD=false.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { DASHBOARD_CSP } from '../../src/dashboard/routes.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const PAGE_DIR = new URL('../../src/dashboard/page/', import.meta.url);

let on: TestApp;
let off: TestApp;
before(async () => {
  on = await startTestApp();
  off = await startTestApp({ dashboard: false });
});
after(async () => {
  await on.close();
  await off.close();
});

describe('serving the dashboard', () => {
  it('sends /dashboard to /dashboard/, where the page is, under a strict policy and no framing', async () => {
    const bare = await on.app.inject('/dashboard');
    assert.equal(bare.statusCode, 308);
    assert.equal(bare.headers.location, 'dashboard/');
    const page = await on.app.inject('/dashboard/');
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['content-security-policy'], DASHBOARD_CSP);
    for (const directive of [
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "require-trusted-types-for 'script'",
    ]) {
      assert.ok(DASHBOARD_CSP.includes(directive), directive);
    }
    assert.ok(!DASHBOARD_CSP.includes('unsafe'));
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.match(page.body, /<script type="module" src="main.js"><\/script>/);
  });

  it('serves its scripts and styles with their types, revalidated by ETag', async () => {
    const script = await on.app.inject('/dashboard/main.js');
    assert.equal(script.statusCode, 200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(script.headers['cache-control'], 'no-cache');
    const again = await on.app.inject({
      url: '/dashboard/main.js',
      headers: { 'if-none-match': String(script.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    const style = await on.app.inject('/dashboard/dashboard.css');
    assert.equal(style.headers['content-type'], 'text/css; charset=utf-8');
  });

  it('answers 404 with the error body for a file it does not have, and never reads outside its folder', async () => {
    for (const url of [
      '/dashboard/nope.js',
      '/dashboard/..%2Froutes.ts',
      '/dashboard/%2e%2e%2f%2e%2e%2fpackage.json',
    ]) {
      const response = await on.app.inject(url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(JSON.parse(response.body).type, 'ROUTE_NOT_FOUND');
    }
  });

  it('answers 404 everywhere under /dashboard with DASHBOARD=false', async () => {
    assert.equal(loadConfig({}).dashboard, true);
    assert.equal(loadConfig({ DASHBOARD: 'false' }).dashboard, false);
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/main.js']) {
      const response = await off.app.inject(url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(JSON.parse(response.body).type, 'ROUTE_NOT_FOUND');
    }
  });

  it('is not part of the API document', async () => {
    const document = JSON.parse((await on.app.inject('/openapi.json')).body);
    assert.deepEqual(
      Object.keys(document.paths).filter((path) => path.startsWith('/dashboard')),
      [],
    );
  });

  it('has no inline script or style, and no code that parses a string as HTML', () => {
    for (const name of readdirSync(PAGE_DIR)) {
      const text = readFileSync(new URL(name, PAGE_DIR), 'utf8');
      if (name.endsWith('.html')) {
        assert.doesNotMatch(text, /<script(?![^>]*\bsrc=)[^>]*>/, name);
        assert.doesNotMatch(text, /<style|\sstyle=|\son[a-z]+=/i, name);
      }
      if (name.endsWith('.js')) {
        assert.doesNotMatch(text, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/, name);
      }
    }
  });
});
