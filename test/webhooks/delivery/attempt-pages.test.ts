// A message's attempts are a paged list (docs/decisions/bounded-answers.md): a message resent again
// and again has as many attempts as it was sent, so its attempts come in pages of at most `limit`
// attempts or PAGE_BYTE_BUDGET bytes, each met once walking by cursor in either direction.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PAGE_BYTE_BUDGET } from '../../../src/db/page-statement.ts';
import { encodeCursor } from '../../../src/http/pagination/cursor.ts';
import { ATTEMPTS_PER_PAGE } from '../../../src/webhooks/delivery-log-store.ts';
import { startTestApp, type TestApp } from '../../support/harness.ts';
import { emitEvent, insertSubscription } from './fixtures.ts';

let t: TestApp;
let token: string;
let base: string;
let smallBase: string;
// Attempts 1..ATTEMPTS, each with a 4 KiB response body: 4.3 MB in all, as a message resent 125 times.
const ATTEMPTS = 1000;
const BODY_BYTES = 4096;

before(async () => {
  t = await startTestApp();
  const subject = randomUUID();
  const company = randomUUID();
  token = await t.token({ subject, companies: [company] });
  const subscription = await insertSubscription(t.db, {
    endpointUrl: 'https://receiver.example/hook',
    companies: [company],
    owner: subject,
  });
  await emitEvent(t.db, company);
  await emitEvent(t.db, company);
  const [message, small] = await t.db.query<{ id: string }>(
    'SELECT id FROM messages WHERE subscription_id = $1 ORDER BY created_at, id',
    [subscription.id],
  );
  assert.ok(message && small);
  await t.db.query(
    `INSERT INTO message_attempts (message_id, attempt, started_at, duration_ms, status_code, error, response_body, succeeded)
     SELECT $1, i, now() - (($2 - i) * interval '1 second'), 12, 500, NULL, repeat('x', $3), false
     FROM generate_series(1, $2) AS i`,
    [message.id, ATTEMPTS, BODY_BYTES],
  );
  // A second message with 600 attempts of no body: 1,000 of them would fit the byte budget.
  await t.db.query(
    `INSERT INTO message_attempts (message_id, attempt, started_at, duration_ms, status_code, succeeded)
     SELECT $1, i, now(), 3, 204, true FROM generate_series(1, 600) AS i`,
    [small.id],
  );
  base = `/v1/subscriptions/${subscription.id}/messages/${message.id}/attempts`;
  smallBase = `/v1/subscriptions/${subscription.id}/messages/${small.id}/attempts`;
});
after(() => t.close());

interface AttemptPage {
  data: { attempt: number }[];
  pagination: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor?: string;
    endCursor?: string;
    total: number;
  };
}

async function attempts(query = '', of = base): Promise<{ page: AttemptPage; bytes: number }> {
  const response = await t.request<AttemptPage>('GET', `${of}${query}`, { token });
  assert.equal(response.status, 200, response.text);
  return { page: response.body, bytes: Buffer.byteLength(response.text) };
}

/** 1..n, or n..1 when `descending`. */
const numbers = (n: number, descending = false) => Array.from({ length: n }, (_, i) => (descending ? n - i : i + 1));

// One attempt's JSON is BODY_BYTES and a few fields: a page is the budget plus at most one attempt,
// and an envelope of cursors.
const MOST_BYTES = PAGE_BYTE_BUDGET + BODY_BYTES + 2048;

describe('the attempts of a message', { timeout: 60_000 }, () => {
  it('come 100 to a page by default, first first, with the total', async () => {
    const { page } = await attempts();
    assert.deepEqual(
      page.data.map((a) => a.attempt),
      numbers(100),
    );
    assert.equal(page.pagination.total, ATTEMPTS);
    assert.equal(page.pagination.hasNextPage, true);
    assert.equal(page.pagination.hasPreviousPage, false);
  });

  it('walked forward by endCursor at limit=1000, each page under the byte bound, meet every attempt once', async () => {
    const seen: number[] = [];
    let query = '?limit=1000';
    let pages = 0;
    for (;;) {
      const { page, bytes } = await attempts(query);
      pages++;
      assert.ok(bytes <= MOST_BYTES, `page ${pages}: ${bytes} bytes`);
      assert.ok(page.data.length < ATTEMPTS, 'the byte budget ends a page of 1000 attempts of 4 KiB');
      seen.push(...page.data.map((a) => a.attempt));
      assert.equal(page.pagination.hasNextPage, seen.length < ATTEMPTS);
      assert.equal(page.pagination.hasPreviousPage, pages > 1);
      if (!page.pagination.hasNextPage) break;
      query = `?limit=1000&after=${page.pagination.endCursor}`;
    }
    assert.deepEqual(seen, numbers(ATTEMPTS));
    assert.ok(pages >= 4, `${pages} pages`);
  });

  it('newest first, walked backward by startCursor from the oldest, meet every attempt once', async () => {
    const order = '&sorting_keys=attempt&sorting_order=DESC';
    let { page } = await attempts(`?limit=300${order}`);
    assert.equal(page.data[0]?.attempt, ATTEMPTS);
    while (page.pagination.hasNextPage) {
      ({ page } = await attempts(`?limit=300${order}&after=${page.pagination.endCursor}`));
    }
    const seen = page.data.map((a) => a.attempt);
    while (page.pagination.hasPreviousPage) {
      ({ page } = await attempts(`?limit=300${order}&before=${page.pagination.startCursor}`));
      seen.unshift(...page.data.map((a) => a.attempt));
    }
    assert.deepEqual(seen, numbers(ATTEMPTS, true));
  });

  it(`hold at most ${ATTEMPTS_PER_PAGE} small attempts a page whatever the limit, and page on exactly`, async () => {
    const seen: number[] = [];
    let query = '?limit=1000';
    for (;;) {
      const { page } = await attempts(query, smallBase);
      assert.ok(page.data.length <= ATTEMPTS_PER_PAGE, `${page.data.length} attempts`);
      seen.push(...page.data.map((a) => a.attempt));
      assert.equal(page.pagination.hasNextPage, seen.length < 600);
      if (!page.pagination.hasNextPage) break;
      assert.equal(page.data.length, ATTEMPTS_PER_PAGE);
      query = `?limit=1000&after=${page.pagination.endCursor}`;
    }
    assert.deepEqual(seen, numbers(600));
  });

  it('by offset, as every list', async () => {
    const { page } = await attempts('?limit=10&offset=995');
    assert.deepEqual(
      page.data.map((a) => a.attempt),
      [996, 997, 998, 999, 1000],
    );
    assert.equal(page.pagination.hasNextPage, false);
    assert.equal(page.pagination.hasPreviousPage, true);
  });

  it('refuse a cursor of another list, a forged one and a limit past 1000 (400)', async () => {
    const { page } = await attempts('?limit=5');
    const sorted = await t.request('GET', `${base}?sorting_order=DESC&after=${page.pagination.endCursor}`, { token });
    assert.equal(sorted.status, 400, sorted.text);
    assert.equal(sorted.body.type, 'INVALID_CURSOR');
    // The cursor's value past PostgreSQL's integer: refused before the query, never a 500.
    const print = page.pagination.endCursor?.split('~')[0] as string;
    const forged = await t.request('GET', `${base}?after=${encodeCursor(print, ['2147483648'])}`, { token });
    assert.equal(forged.status, 400, forged.text);
    const tooMany = await t.request('GET', `${base}?limit=1001`, { token });
    assert.equal(tooMany.status, 400, tooMany.text);
  });
});
