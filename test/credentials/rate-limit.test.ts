import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../src/auth/mint-token.ts';
import { needs } from '../support/components.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { privateRedisForSuite } from '../support/redis-server.ts';
import { type Served, startServe } from './processes.ts';
import { basic, type CredentialsApp, startCredentialsApp } from './support.ts';

// Asked before any suite is declared, so that a missing redis-server fails the file before any test runs.
const SKIP_WITHOUT_REDIS = await needs('redis-server');

const json = { 'content-type': 'application/json' };
const WINDOW_MS = 5000;

describe('rate limits per credential', () => {
  let t: CredentialsApp;
  before(async () => {
    t = await startCredentialsApp({
      rateLimits: { max: 3, windowMs: WINDOW_MS, authFailureMax: 0, authFailureWindowMs: 1000 },
    });
  });
  after(() => t.close());

  const search = (companyId: string, authorization: string) =>
    t.request('POST', '/v1-beta/accounts:search', { headers: { ...json, authorization }, body: { companyId } });

  it('answers 429 with Retry-After and RateLimit headers at the configured count, per credential, then resets', async (ctx) => {
    const { client, apiKeyValue } = await t.createClient();
    const company = client.companies[0] as string;
    // The clock moves only when the test moves it: the window's end is exact however slow the machine.
    ctx.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    for (const remaining of [2, 1, 0]) {
      const response = await search(company, `Bearer ${apiKeyValue}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers['ratelimit-limit'], '3');
      assert.equal(response.headers['ratelimit-remaining'], String(remaining));
      assert.equal(response.headers['ratelimit-policy'], `3;w=${WINDOW_MS / 1000}`);
    }
    // The same key as Basic is the same credential.
    const limited = await search(company, basic(apiKeyValue, ''));
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.body.type, 'TOO_MANY_REQUESTS');
    assert.equal(limited.headers['retry-after'], String(WINDOW_MS / 1000));
    assert.equal(limited.headers['ratelimit-remaining'], '0');

    // Another credential (a token of another client) has its own budget.
    const other = await t.createClient();
    const token = (
      await t.token({ grant_type: 'client_credentials', client_id: other.client.id, client_secret: other.clientSecret })
    ).body.access_token;
    assert.equal((await search(other.client.companies[0] as string, `Bearer ${token}`)).status, 200);

    // The window is fixed: it ends WINDOW_MS after the first request, not after the latest.
    ctx.mock.timers.tick(WINDOW_MS - 1);
    assert.equal((await search(company, `Bearer ${apiKeyValue}`)).status, 429);
    ctx.mock.timers.tick(1);
    const again = await search(company, `Bearer ${apiKeyValue}`);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers['ratelimit-remaining'], '2');
  });
});

describe('rate limit of failed authentications per client address', () => {
  let t: CredentialsApp;
  before(async () => {
    t = await startCredentialsApp({
      rateLimits: { max: 0, windowMs: 1000, authFailureMax: 3, authFailureWindowMs: 60_000 },
    });
  });
  after(() => t.close());

  it('refuses every attempt from the address with 429 after the configured failures, at the API and the token endpoint', async () => {
    const { client, clientSecret, apiKeyValue } = await t.createClient();
    const company = client.companies[0] as string;
    const call = (authorization: string) =>
      t.request('POST', '/v1-beta/accounts:search', {
        headers: { ...json, authorization },
        body: { companyId: company },
      });
    assert.equal((await call(`Bearer ${apiKeyValue}`)).status, 200, 'successes are not counted');
    assert.equal((await call('Bearer not.a.jwt')).status, 401);
    assert.equal((await call(basic(apiKeyValue, 'x'))).status, 401);
    const wrongSecret = await t.token({ grant_type: 'client_credentials', client_id: client.id, client_secret: 'x' });
    assert.equal(wrongSecret.status, 401);
    // Three failures: the address is blocked, even with good credentials.
    const blocked = await call(`Bearer ${apiKeyValue}`);
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.type, 'TOO_MANY_REQUESTS');
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    const tokenBlocked = await t.token({
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: clientSecret,
    });
    assert.equal(tokenBlocked.status, 429);
    assert.ok(t.logs.join('').includes('"status":429'));
  });
});

/** Two `ledgerhook serve` processes counting in a Redis of their own, started before the suite and stopped after it. */
function serversSharingRedis(limits: Record<string, string>): { servers: Served[]; secret: string } {
  const secret = `shared-secret-${randomUUID()}`;
  const servers: Served[] = [];
  const redis = privateRedisForSuite();
  const databases: WorkerDatabase[] = [];
  before(async () => {
    const env = { DATABASE_URL: '', DATA_DIR: '', AUTH_JWT_SECRET: secret, REDIS_URL: redis().url, ...limits };
    // A database each (one process per embedded folder), of the suite's kind.
    for (let i = 0; i < 2; i++) databases.push(await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_limits'));
    // Each is stopped after the suite as soon as it has started, even if the other fails to.
    await Promise.all(
      databases.map((database) => startServe({ ...env, ...database.env }).then((served) => servers.push(served))),
    );
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const database of databases) await database.drop();
  });
  return { servers, secret };
}

/** The status of an accounts search at `server`, its body read so the connection is freed. */
async function searchStatus(server: Served, authorization: string, companyId: string): Promise<number> {
  const response = await fetch(`${server.url}/v1-beta/accounts:search`, {
    method: 'POST',
    headers: { ...json, authorization },
    body: JSON.stringify({ companyId }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('rate limits shared between two processes through Redis', { skip: SKIP_WITHOUT_REDIS }, () => {
  const { servers, secret } = serversSharingRedis({
    RATE_LIMIT_MAX: '4',
    RATE_LIMIT_WINDOW: '1m',
    AUTH_FAILURE_LIMIT_MAX: '0',
  });

  it('counts one credential’s requests to either process against one limit', async () => {
    const company = randomUUID();
    const token = await mintToken(secret, { subject: randomUUID(), companies: [company], scope: 'accounts:read' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(await searchStatus(servers[i % 2] as Served, `Bearer ${token}`, company));
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
  });
});

describe('failed authentications counted through Redis', { skip: SKIP_WITHOUT_REDIS }, () => {
  const { servers, secret } = serversSharingRedis({
    RATE_LIMIT_MAX: '0',
    AUTH_FAILURE_LIMIT_MAX: '2',
    AUTH_FAILURE_LIMIT_WINDOW: '2s',
  });

  it('blocks the address at a process that saw none of its failures', async () => {
    const [first, second] = servers as [Served, Served];
    const company = randomUUID();
    const token = await mintToken(secret, { subject: randomUUID(), companies: [company], scope: 'accounts:read' });
    const search = (server: Served, authorization: string) => searchStatus(server, authorization, company);
    assert.equal(await search(second, `Bearer ${token}`), 200);
    assert.equal(await search(first, 'Bearer not.a.jwt'), 401);
    assert.equal(await search(first, 'Bearer not.a.jwt'), 401);
    assert.equal(await search(second, `Bearer ${token}`), 429);
  });
});
