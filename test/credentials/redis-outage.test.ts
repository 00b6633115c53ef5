// Real `ledgerhook serve` processes whose Redis (REDIS_URL, the shared rate-limit counts) is down,
// silent, frozen, or killed and started again. A request never waits on Redis for long: it is
// counted in its process instead, with RateLimit headers true to that count, and a stop is never
// held up. The bounds below are hang guards, far above what an answer takes, not timings.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { mintToken } from '../../src/auth/mint-token.ts';
import { needs } from '../support/components.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { within } from '../support/deadlines.ts';
import { createWorkerDatabase, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { freePort, privateRedisForSuite, silentServer } from '../support/redis-server.ts';
import { type Served, startServe } from './processes.ts';

// Asked before any suite is declared, so that a missing redis-server fails the file before any test runs.
const SKIP_WITHOUT_REDIS = await needs('redis-server');

const ANSWER_GUARD_MS = 5000;
const STOP_GUARD_MS = 5000;
const START_GUARD_MS = 120_000;
// Ample for a reconnection, which ioredis tries again within about 2 s.
const RECONNECT_GUARD_MS = 20_000;

const LIMITS = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1m', AUTH_FAILURE_LIMIT_MAX: '5' };

/** `ledgerhook serve` counting through `redisUrl`; stopped (or, if a stop hangs, killed) after the suite. */
function serve(redisUrl: () => string, count = 1): { servers: Served[]; secret: string } {
  const secret = `redis-outage-${randomUUID()}`;
  const servers: Served[] = [];
  const databases: WorkerDatabase[] = [];
  before(async () => {
    const env = { DATABASE_URL: '', DATA_DIR: '', AUTH_JWT_SECRET: secret, REDIS_URL: redisUrl(), ...LIMITS };
    // A database each (one process per embedded folder), of the suite's kind.
    for (let i = 0; i < count; i++) databases.push(await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_redis'));
    // Each is stopped after the suite as soon as it has started, even if another fails to.
    const starts = databases.map((database) =>
      startServe({ ...env, ...database.env }).then((served) => servers.push(served)),
    );
    // Generous: a start on a busy machine takes many seconds, with or without Redis.
    await within(START_GUARD_MS, 'serve starting', Promise.all(starts));
  });
  after(async () => {
    for (const server of servers) {
      if (server.child.exitCode !== null || server.child.signalCode !== null) continue;
      await sigterm(server).catch(() => server.child.kill('SIGKILL'));
    }
    for (const database of databases) await database.drop();
  });
  return { servers, secret };
}

/** Sends SIGTERM and answers the exit code, once it has exited within the hang guard. */
async function sigterm(server: Served): Promise<number | null> {
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  const [code] = await within(STOP_GUARD_MS, 'serve stopping on SIGTERM', exited);
  return code;
}

interface Answer {
  status: number;
  remaining: string | null;
  retryAfter: string | null;
}

/** An accounts search at `server`, answered within the hang guard. */
async function search(server: Served, token: string, companyId: string): Promise<Answer> {
  const response = await within(
    ANSWER_GUARD_MS,
    'an authenticated request',
    fetch(`${server.url}/v1-beta/accounts:search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ companyId }),
      signal: AbortSignal.timeout(ANSWER_GUARD_MS),
    }),
  );
  await response.arrayBuffer();
  return {
    status: response.status,
    remaining: response.headers.get('ratelimit-remaining'),
    retryAfter: response.headers.get('retry-after'),
  };
}

/** A new credential (a subject of its own) and its company. */
async function newCredential(secret: string): Promise<{ token: string; company: string; subject: string }> {
  const company = randomUUID();
  const subject = randomUUID();
  const token = await mintToken(secret, { subject, companies: [company], scope: 'accounts:read' });
  return { token, company, subject };
}

/** A metric's value in /metrics of `server`. */
async function metric(server: Served, name: string): Promise<number | undefined> {
  const text = await within(
    ANSWER_GUARD_MS,
    '/metrics',
    fetch(`${server.url}/metrics`).then((r) => r.text()),
  );
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

/** Resolves once every server counts in Redis again (polled: the switch happens inside the process). */
async function storeUpAgain(servers: Served[]): Promise<void> {
  const deadline = Date.now() + RECONNECT_GUARD_MS;
  for (const server of servers) {
    while ((await metric(server, 'ledgerhook_rate_limit_store_up')) !== 1) {
      assert.ok(Date.now() < deadline, `${server.url} did not count in Redis again`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Three requests within the limit then one past it, all at `server`: counted there alone. */
async function countsAlone(server: Served, secret: string): Promise<void> {
  const { token, company } = await newCredential(secret);
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await search(server, token, company));
  assert.deepEqual(
    answers.map((a) => [a.status, a.remaining]),
    [
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ],
  );
  const retryAfter = Number(answers[3]?.retryAfter);
  assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${answers[3]?.retryAfter} is within the 1 m window`);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;
const UNREACHABLE = 'Redis is out of reach: rate limits are counted in each process until it answers';

describe('REDIS_URL at a closed port', () => {
  let port = 0;
  before(async () => {
    port = await freePort();
  });
  const { servers, secret } = serve(() => `redis://127.0.0.1:${port}`);

  it('starts with one warning and counts each credential in the process, with true RateLimit headers', async () => {
    const [server] = servers as [Served];
    await countsAlone(server, secret);
    assert.equal(occurrences(server.output(), UNREACHABLE), 1, 'warned once, not per request');
    assert.match(server.output(), /"level":40[^\n]*ECONNREFUSED/);
    assert.equal(await metric(server, 'ledgerhook_rate_limit_store_up'), 0);
    const fallbacks = (await metric(server, 'ledgerhook_rate_limit_store_fallbacks_total')) as number;
    assert.ok(fallbacks >= 4, `each request counted in the process (${fallbacks} counts and lookups)`);
  });
});

describe('REDIS_URL at a server that accepts and never answers', () => {
  let silent: Awaited<ReturnType<typeof silentServer>> | undefined;
  before(async () => {
    silent = await silentServer();
  });
  after(() => silent?.close());
  const { servers, secret } = serve(() => silent?.url ?? '');

  it('answers requests in the process, says it is ready, and stops at once on SIGTERM', async () => {
    const [server] = servers as [Served];
    await countsAlone(server, secret);
    const ready = await within(ANSWER_GUARD_MS, '/health/ready', fetch(`${server.url}/health/ready`));
    assert.equal(ready.status, 200);
    assert.equal(await sigterm(server), 0);
  });
});

describe('Redis that freezes while connected', { skip: SKIP_WITHOUT_REDIS }, () => {
  const redis = privateRedisForSuite();
  const { servers, secret } = serve(() => redis().url);

  it('answers within the bound while it is silent, and SIGTERM still stops the process', async () => {
    const [server] = servers as [Served];
    assert.equal(await metric(server, 'ledgerhook_rate_limit_store_up'), 1);
    redis().freeze();
    await countsAlone(server, secret);
    assert.equal(await sigterm(server), 0);
  });
});

describe('Redis killed while two processes share it, then started again', { skip: SKIP_WITHOUT_REDIS }, () => {
  const redis = privateRedisForSuite();
  const { servers, secret } = serve(() => redis().url, 2);

  /** Four requests of one new credential, alternating between the processes. */
  async function alternating(): Promise<{ subject: string; statuses: number[] }> {
    const { token, company, subject } = await newCredential(secret);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await search(servers[i % 2] as Served, token, company)).status);
    return { subject, statuses };
  }

  it('counts in each process while Redis is gone, and shares the counts again once it is back', async () => {
    const [first, second] = servers as [Served, Served];
    const shared = await alternating();
    assert.deepEqual(shared.statuses, [200, 200, 200, 429], 'one count across both processes');

    await redis().kill();
    await countsAlone(first, secret);
    await countsAlone(second, secret);
    const alone = await alternating();
    assert.deepEqual(alone.statuses, [200, 200, 200, 200], 'each process counts its own two');
    assert.equal(occurrences(first.output(), UNREACHABLE), 1, 'the outage is logged once, not per request');

    await redis().start();
    await storeUpAgain(servers);
    const again = await alternating();
    assert.deepEqual(again.statuses, [200, 200, 200, 429], 'one count across both processes again');
    assert.match(
      first.output(),
      /rate limits are counted in Redis, shared by every process[\s\S]*Redis is out of reach[\s\S]*rate limits are counted in Redis/,
    );
  });
});

describe('rate-limit keys in Redis', { skip: SKIP_WITHOUT_REDIS }, () => {
  const redis = privateRedisForSuite();
  const { servers, secret } = serve(() => redis().url);
  let client: Redis | undefined;
  before(async () => {
    // Not reconnecting once the suite's Redis is killed; its failures are the commands' rejections.
    client = new Redis(redis().url, { lazyConnect: true, retryStrategy: () => null });
    client.on('error', () => {});
    await client.connect();
  });
  after(() => client?.disconnect());

  it('are named by limit and key, and expire with their window', async () => {
    const [server] = servers as [Served];
    const { token, company, subject } = await newCredential(secret);
    await search(server, token, company);
    await search(server, token, company);
    assert.equal((await search(server, 'not.a.jwt', company)).status, 401);
    const keys = await (client as Redis).keys('*');
    assert.deepEqual(keys.sort(), [
      `ledgerhook-rate-limit:credential:subject:${subject}`,
      'ledgerhook-rate-limit:failed-auth:127.0.0.1',
    ]);
    assert.equal(await client?.get(`ledgerhook-rate-limit:credential:subject:${subject}`), '2');
    const ttl = (await client?.pttl(`ledgerhook-rate-limit:credential:subject:${subject}`)) as number;
    assert.ok(ttl > 0 && ttl <= 60_000, `expires within its 1 m window (PTTL ${ttl})`);
  });
});
