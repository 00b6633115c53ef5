// What the browser tests of the dashboard share: the service listening on 127.0.0.1 with API keys
// and /oauth/token on, a delivery worker, a receiver whose answer a test sets, and Debian's
// Chromium driven by playwright-core (test/support/components.ts finds it; a suite that uses it
// takes `await needs('chromium')` as its skip).
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { CreatedClient } from '../../src/credentials/operations.ts';
import { type CredentialsApp, startCredentialsApp } from '../credentials/support.ts';
import { CHROMIUM_PATH } from '../support/components.ts';
import { Started } from '../support/deadlines.ts';
import {
  type Answer,
  startReceiver,
  startTestWorker,
  type TestReceiver,
  type TestWorker,
} from '../webhooks/delivery/fixtures.ts';

// Generous for a loaded 2-core machine, bounded so a broken page fails instead of hanging.
export const UI_TIMEOUT_MS = 20_000;
/** Screenshots of the main views, written by every run (git-ignored). */
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-results', 'dashboard');

export interface DashboardFixture {
  /** `http://127.0.0.1:<port>/dashboard/` */
  url: string;
  service: CredentialsApp;
  worker: TestWorker;
  receiver: TestReceiver;
  /** What the receiver answers; a test changes it. */
  answer: Answer;
  /** A client of one company with export-job scopes, and its API key. */
  client: CreatedClient;
  browser: Browser;
  /** A new page (its own context: empty sessionStorage) of `width` × `height`. */
  newPage(size?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
    timeout: 60_000,
  });
}

/** Starts it all; what started is closed again if a later step fails (Chromium first: it fails most). */
export async function startDashboardFixture(): Promise<DashboardFixture> {
  const started = new Started();
  try {
    const browser = started.add('Chromium', await launchChromium(), (b) => b.close());
    const service = started.add(
      'the service',
      await startCredentialsApp({ webhookAllowPrivateTargets: true, publicBaseUrl: 'http://127.0.0.1' }),
      (s) => s.close(),
    );
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.app.server.address() as AddressInfo;
    const worker = started.add(
      'the delivery worker',
      await startTestWorker(service.db, { scheduleMs: [50, 50] }),
      (w) => w.stop(),
    );
    const fixture = { answer: { status: 204 } as Answer } as DashboardFixture;
    const receiver = started.add('the receiver', await startReceiver(() => fixture.answer), (r) => r.close());
    const client = await service.createClient({ scope: 'export-jobs:write' });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    return Object.assign(fixture, {
      url: `http://127.0.0.1:${port}/dashboard/`,
      service,
      worker,
      receiver,
      client,
      browser,
      async newPage(size = { width: 1280, height: 860 }) {
        const context = await browser.newContext({ viewport: size });
        const page = await context.newPage();
        page.setDefaultTimeout(UI_TIMEOUT_MS);
        return page;
      },
      close: () => started.close(),
    });
  } catch (error) {
    await started.close().catch(() => {});
    throw error;
  }
}

/** Opens the dashboard and signs in with `apiKey`; resolves once the subscriptions view shows. */
export async function signInWithApiKey(page: Page, url: string, apiKey: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('textbox', { name: 'API key' }).fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Subscriptions', level: 1 }).waitFor();
}
