// 429 and 503 sent again where that is safe (reads, and creates the service replays), after the
// Retry-After the service asked for, a bounded number of times; thrown at once everywhere else.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Ledgerhook, LedgerhookError } from '../../clients/typescript/src/index.ts';
import { retryDelayMs, retrySafe } from '../../clients/typescript/src/retries.ts';
import { mintToken } from '../../src/auth/mint-token.ts';
import { createTokenVerifier } from '../../src/auth/verify-token.ts';
import type { Database } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/postgres-database.ts';
import type { App } from '../../src/http/app.ts';
import { buildServer } from '../../src/server.ts';
import { TEST_JWT_SECRET } from '../support/harness.ts';
import { type ClientTestService, recordingFetch, type SentRequest, startClientTestService } from './support.ts';

const limits = (max: number, windowMs: number) => ({ max, windowMs, authFailureMax: 0, authFailureWindowMs: 60_000 });

describe('after 429 Too Many Requests', () => {
  let short: ClientTestService;
  let long: ClientTestService;
  before(async () => {
    short = await startClientTestService({ rateLimits: limits(2, 1500) });
    long = await startClientTestService({ rateLimits: limits(1, 60_000) });
  });
  after(async () => {
    await short?.close();
    await long?.close();
  });

  it('a read is sent again once Retry-After has passed, and succeeds', async () => {
    const { companyId, apiKey } = await short.application();
    const sent: SentRequest[] = [];
    const lh = new Ledgerhook({ baseUrl: short.baseUrl, apiKey, fetch: recordingFetch(sent) });
    // Two requests a window: within five reads one meets a full window, whenever the first one starts.
    for (let i = 0; i < 5 && !sent.some((request) => request.status === 429); i++) {
      const page = await lh.accounts.search({ companyId }).page();
      assert.equal(page.pagination.total, 0);
    }
    const refused = sent.findIndex((request) => request.status === 429);
    assert.ok(refused >= 0, 'the rate limit answered 429');
    const [answer, retry] = [sent[refused] as SentRequest, sent[refused + 1] as SentRequest];
    assert.equal(retry.status, 200);
    assert.equal(retry.url.href, answer.url.href);
    assert.ok(Number(answer.retryAfter) >= 1);
    assert.ok(retry.sentAt - answer.answeredAt >= Number(answer.retryAfter) * 1000 - 5, 'waited for Retry-After');
  });

  it('a create that is not replayed is thrown at once', async () => {
    const { companyId, apiKey } = await long.application();
    const sent: SentRequest[] = [];
    const lh = new Ledgerhook({ baseUrl: long.baseUrl, apiKey, fetch: recordingFetch(sent) });
    await lh.accounts.search({ companyId }).page();
    const refused = await lh.accountingEntries
      .create({ companyId, accountId: randomUUID(), amount: '1.00', currency: 'EUR', date: '2026-01-01' })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof LedgerhookError);
    assert.equal(refused.status, 429);
    assert.equal(refused.type, 'TOO_MANY_REQUESTS');
    assert.equal(sent.length, 2);
  });

  it('a Retry-After beyond maxRetryDelayMs is not waited for', async () => {
    const { companyId, apiKey } = await long.application();
    const sent: SentRequest[] = [];
    const lh = new Ledgerhook({ baseUrl: long.baseUrl, apiKey, fetch: recordingFetch(sent), maxRetryDelayMs: 1000 });
    await lh.accounts.search({ companyId }).page();
    await assert.rejects(lh.accounts.search({ companyId }).page(), { name: 'LedgerhookError', status: 429 });
    assert.equal(sent.length, 2);
    assert.ok(Number(sent[1]?.retryAfter) > 1);
  });
});

describe('after 503 Service Unavailable (the database out of reach)', () => {
  let db: Database;
  let app: App;
  let baseUrl: string;
  let token: string;
  const companyId = randomUUID();
  before(async () => {
    db = await openPostgres('postgres://postgres@127.0.0.1:1/ledgerhook');
    app = await buildServer({ db, verifyToken: createTokenVerifier({ secret: TEST_JWT_SECRET }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    token = await mintToken(TEST_JWT_SECRET, {
      subject: randomUUID(),
      companies: [companyId],
      scope: 'accounts:write',
    });
  });
  after(async () => {
    await app?.close();
    await db?.close();
  });

  it('a replayed create is sent maxRetries more times, then thrown', async () => {
    const sent: SentRequest[] = [];
    const lh = new Ledgerhook({ baseUrl, token, maxRetries: 1, fetch: recordingFetch(sent) });
    const refused = await lh.accounts
      .create({ companyId, externalId: '1', name: 'Cash', archived: false })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof LedgerhookError);
    assert.equal(refused.status, 503);
    assert.equal(refused.type, 'SERVICE_UNAVAILABLE');
    assert.deepEqual(
      sent.map((request) => request.status),
      [503, 503],
    );
    const [first, second] = sent as [SentRequest, SentRequest];
    assert.ok(second.sentAt - first.answeredAt >= Number(first.retryAfter) * 1000 - 5, 'waited for Retry-After');
  });

  it('an update is not sent again, nor a request whose call says maxRetries: 0', async () => {
    const sent: SentRequest[] = [];
    const lh = new Ledgerhook({ baseUrl, token, fetch: recordingFetch(sent) });
    await assert.rejects(lh.accounts.update(randomUUID(), { name: 'A', archived: false }), { status: 503 });
    await assert.rejects(lh.accounts.get(randomUUID(), { maxRetries: 0 }), { status: 503 });
    assert.equal(sent.length, 2);
  });
});

describe('which operations are retried', () => {
  it('reads and replayed creates, nothing else', () => {
    const safe = ['getAccountV4', 'searchAccountsV4', 'calculateTax', 'listEvents', 'createAccountV4', 'createTaxCode'];
    for (const id of safe) assert.equal(retrySafe(id as never), true, id);
    assert.equal(retrySafe('createAccountsBatchV1'), true);
    const unsafe = ['createAccountingEntry', 'createExportJobV2', 'createSubscription', 'updateAccountV4'];
    for (const id of unsafe) assert.equal(retrySafe(id as never), false, id);
    assert.equal(retrySafe('deleteAccountV4'), false);
    assert.equal(retrySafe('createExportJobEventV2'), false);
  });

  it('waits Retry-After in seconds or until its date, else backs off', () => {
    assert.equal(retryDelayMs(new Headers({ 'retry-after': '3' }), 1), 3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryDelayMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), 1, now), 5000);
    const backoff = [1, 2, 3].map((retry) => retryDelayMs(new Headers(), retry));
    assert.ok(backoff[0] && backoff[0] >= 375 && backoff[0] <= 625);
    assert.ok(backoff[2] && backoff[2] >= 1500 && backoff[2] <= 2500);
  });
});
