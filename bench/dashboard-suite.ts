// BENCH_SUITE=dashboard: how long the dashboard takes to show the first page of a subscription's
// messages when it has BENCH_DASHBOARD_MESSAGES (1,000,000) of them. Per database: the messages are
// inserted with SQL (96 % delivered, 4 % failed, none pending), the service runs in this process,
// and Chromium opens the subscription's view again and again. Reported: from the route change to the
// first message row on screen, the message list's own fetch and render, and the API's answer alone
// (newest first; all, failed, and pending, which no message is: the filter's worst case).
import { performance } from 'node:perf_hooks';
import type { Database } from '../src/db/database.ts';
import { startCredentialsApp } from '../test/credentials/support.ts';
import { launchChromium, signInWithApiKey } from '../test/dashboard/support.ts';
import { createWorkerDatabase } from '../test/support/delivery-fixtures.ts';
import type { DatabaseKind } from './databases.ts';
import { median } from './median.ts';

export interface DashboardSettings {
  messages: number;
  samples: number;
  databases: DatabaseKind[];
  adminUrl: string;
}

export interface DashboardFigures {
  db: DatabaseKind;
  messages: number;
  seedSeconds: number;
  /** Milliseconds, median and slowest of `samples`. */
  firstRowOnScreen: Spread;
  listFetchAndRender: Spread;
  api: Record<'all' | 'failed' | 'pending', Spread>;
}

interface Spread {
  median: number;
  max: number;
}

const BATCH = 100_000;
const FIRST_PAGE = 'limit=25&sorting_keys=createdAt&sorting_order=DESC';

export async function runDashboardSuite(settings: DashboardSettings, log: (line: string) => void) {
  const figures: DashboardFigures[] = [];
  for (const kind of settings.databases) {
    const database = await createWorkerDatabase(kind === 'postgres' ? settings.adminUrl : undefined, 'ledgerhook_dash');
    const db = await database.open();
    try {
      figures.push(await measure(db, kind, settings, log));
    } finally {
      await db.close();
      await database.drop();
    }
  }
  return figures;
}

async function measure(db: Database, kind: DatabaseKind, settings: DashboardSettings, log: (line: string) => void) {
  const service = await startCredentialsApp({ db, webhookAllowPrivateTargets: true });
  const browser = await launchChromium();
  try {
    const client = await service.createClient({ scope: 'export-jobs:write' });
    const auth = { authorization: `Bearer ${client.apiKeyValue}` };
    const created = await service.request('POST', '/v1/subscriptions', {
      headers: auth,
      body: { eventTypes: ['v1.export-job.created'], endpointUrl: 'https://example.com/hook' },
    });
    const subscriptionId = created.body.data.id as string;
    const seedStarted = performance.now();
    await seedMessages(db, subscriptionId, client.client.companies[0] as string, settings.messages, (n) =>
      log(`${kind}: ${n.toLocaleString('en')} messages`),
    );
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const api = {} as DashboardFigures['api'];
    for (const [name, filter] of [
      ['all', ''],
      ['failed', '&status=failed'],
      ['pending', '&status=pending'],
    ] as const) {
      const url = `/v1/subscriptions/${subscriptionId}/messages?${FIRST_PAGE}${filter}`;
      api[name] = await spread(settings.samples, async () => {
        const started = performance.now();
        const answer = await service.request('GET', url, { headers: auth });
        if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${answer.text}`);
        return performance.now() - started;
      });
    }

    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.app.server.address() as { port: number };
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    page.setDefaultTimeout(60_000);
    await signInWithApiKey(page, `http://127.0.0.1:${port}/dashboard/`, client.apiKeyValue);
    const onScreen: number[] = [];
    const fetchAndRender: number[] = [];
    for (let i = 0; i < settings.samples; i++) {
      await page.evaluate(() => {
        location.hash = '#/event-types';
      });
      await page.getByRole('heading', { name: 'Event types', level: 1 }).waitFor();
      onScreen.push(
        await page.evaluate(async (hash) => {
          const started = performance.now();
          const shown = new Promise<void>((resolve) => {
            const observer = new MutationObserver(() => {
              if (!document.querySelector('[data-message]')) return;
              observer.disconnect();
              resolve();
            });
            observer.observe(document.body, { childList: true, subtree: true });
          });
          location.hash = hash;
          await shown;
          return performance.now() - started;
        }, `#/subscriptions/${subscriptionId}`),
      );
      fetchAndRender.push(Number(await page.locator('[data-load-ms]').getAttribute('data-load-ms')));
    }
    const figures = {
      db: kind,
      messages: settings.messages,
      seedSeconds,
      firstRowOnScreen: toSpread(onScreen),
      listFetchAndRender: toSpread(fetchAndRender),
      api,
    };
    log(`${kind}: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    await browser.close();
    await service.close();
  }
}

/**
 * `count` events and one message each for the subscription, a second apart up to now, in batches of
 * 100,000: 96 % delivered (with one attempt), 4 % failed.
 */
async function seedMessages(
  db: Database,
  subscriptionId: string,
  companyId: string,
  count: number,
  onBatch: (n: number) => void,
) {
  for (let from = 0; from < count; from += BATCH) {
    const to = Math.min(count, from + BATCH);
    await db.query(
      `WITH numbered AS (
         SELECT i, gen_random_uuid() AS event_id, now() - (($4::int - i) * interval '1 second') AS at
         FROM generate_series($2::int, $3::int - 1) i
       ), inserted AS (
         INSERT INTO events (id, event_type, company_id, data, created_at)
         SELECT event_id, 'v1.export-job.created', $5::uuid,
           jsonb_build_object('id', gen_random_uuid(), 'companyId', $5::text, 'status', 'completed', 'numberOfItems', i % 500), at
         FROM numbered RETURNING id
       )
       INSERT INTO messages (id, subscription_id, event_id, status, attempts, created_at, updated_at, delivered_at)
       SELECT 'msg_' || translate(lpad(i::text, 26, '0'), '0123456789', 'abcdefghij'), $1, event_id,
         CASE WHEN i % 25 = 0 THEN 'failed' ELSE 'delivered' END, CASE WHEN i % 25 = 0 THEN 8 ELSE 1 END,
         at, at, CASE WHEN i % 25 = 0 THEN NULL ELSE at END
       FROM numbered`,
      [subscriptionId, from, to, count, companyId],
    );
    onBatch(to);
  }
  await db.exec('VACUUM ANALYZE messages');
  await db.exec('VACUUM ANALYZE events');
}

async function spread(samples: number, once: () => Promise<number>): Promise<Spread> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await once());
  return toSpread(times);
}

const toSpread = (times: number[]): Spread => ({
  median: Math.round(median(times) * 10) / 10,
  max: Math.round(Math.max(...times) * 10) / 10,
});

export function formatDashboardTable(figures: DashboardFigures[]): string {
  const ms = (s: Spread) => `${s.median} ms (slowest ${s.max})`;
  return [
    '| database | messages | first row on screen | list fetch + render | API: newest 25 | API: failed | API: pending (none) |',
    '|---|---|---|---|---|---|---|',
    ...figures.map(
      (f) =>
        `| ${f.db} | ${f.messages.toLocaleString('en')} | ${ms(f.firstRowOnScreen)} | ${ms(f.listFetchAndRender)} | ${ms(f.api.all)} | ${ms(f.api.failed)} | ${ms(f.api.pending)} |`,
    ),
  ].join('\n');
}
