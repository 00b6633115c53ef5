// While PostgreSQL cannot be reached, an operation answers 503 with Retry-After (the request may
// succeed when sent again), not 500. The servers here point at a port where nothing listens, or at
// one that accepts connections and never answers, so this runs without any database server,
// whichever database the suite uses.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../src/auth/mint-token.ts';
import { createTokenVerifier } from '../../src/auth/verify-token.ts';
import { type Database, isDatabaseUnavailable } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/postgres-database.ts';
import type { App } from '../../src/http/app.ts';
import { buildServer } from '../../src/server.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';

const OPERATIONS = (companyId: string) =>
  [
    // Get-by-id's lookup goes to the pipelined connection, the search to a pool, create to a transaction.
    ['GET', `/v1-beta/accounts/${randomUUID()}`, undefined],
    ['POST', '/v1-beta/accounts:search', { companyId }],
    ['POST', '/v1-beta/accounts', { companyId, externalId: 'e-1', name: 'Cash', archived: false }],
  ] as const;

async function assertUnavailable(
  app: App,
  authorization: string,
  [method, url, body]: ReturnType<typeof OPERATIONS>[number],
) {
  const response = await app.inject({ method, url, headers: { authorization }, ...(body ? { body } : {}) });
  assert.equal(response.statusCode, 503, response.body);
  assert.equal(response.headers['content-type'], 'application/json;charset=UTF-8');
  assert.equal(response.headers['retry-after'], '2');
  assert.equal(response.json().type, 'SERVICE_UNAVAILABLE');
}

async function buildApp(db: Database): Promise<App> {
  const app = await buildServer({ db, verifyToken: createTokenVerifier({ secret: SECRET }) });
  await app.ready();
  return app;
}

describe('the database out of reach', () => {
  let db: Database;
  let app: App;
  let authorization: string;
  const companyId = randomUUID();

  before(async () => {
    db = await openPostgres('postgres://postgres@127.0.0.1:1/ledgerhook');
    app = await buildApp(db);
    const token = await mintToken(SECRET, {
      subject: randomUUID(),
      companies: [companyId],
      scope: 'accounts:write',
    });
    authorization = `Bearer ${token}`;
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  for (const operation of OPERATIONS(companyId)) {
    const [method, url] = operation;
    it(`answers ${method} ${url.replace(/[0-9a-f-]{36}/, '{id}')} with 503 and Retry-After`, () =>
      assertUnavailable(app, authorization, operation));
  }

  it('documents 503 on every operation', () => {
    const paths = (app.swagger() as unknown as { paths: Record<string, Record<string, { responses: object }>> }).paths;
    const operations = Object.values(paths).flatMap((byMethod) => Object.values(byMethod));
    assert.ok(operations.length > 10);
    for (const operation of operations) assert.ok('503' in operation.responses);
  });
});

describe('a database host that accepts connections and never answers', () => {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  let db: Database;
  let app: App;
  let authorization: string;
  const companyId = randomUUID();

  before(async () => {
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    // Without a connect time-out each statement would wait for the system's TCP one, minutes.
    db = await openPostgres(`postgres://postgres@127.0.0.1:${port}/ledgerhook`, { connectTimeoutMs: 200 });
    app = await buildApp(db);
    const token = await mintToken(SECRET, { subject: randomUUID(), companies: [companyId], scope: 'accounts:write' });
    authorization = `Bearer ${token}`;
  });
  after(async () => {
    await app.close();
    await db.close();
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  for (const operation of OPERATIONS(companyId)) {
    const [method, url] = operation;
    // Bounded, so that a statement waiting with no time-out fails here instead of hanging the suite.
    const name = `answers ${method} ${url.replace(/[0-9a-f-]{36}/, '{id}')} with 503 once the connect time-out passes`;
    it(name, { timeout: 10_000 }, () => assertUnavailable(app, authorization, operation));
  }

  it('answers /health/ready with 503 and Retry-After', { timeout: 10_000 }, async () => {
    const response = await app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(response.statusCode, 503, response.body);
    assert.equal(response.headers['retry-after'], '2');
    assert.equal(response.json().type, 'SERVICE_UNAVAILABLE');
  });
});

describe('which errors mean the database is unavailable', () => {
  it('counts connection failures, shutdowns and broken connections', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      // What a server answers a connection it will not serve: the request is not at fault either.
      Object.assign(new Error('database "x" is not currently accepting connections'), { code: '55000' }),
      Object.assign(new Error('database "x" does not exist'), { code: '3D000' }),
      Object.assign(new Error('password authentication failed for user "x"'), { code: '28P01' }),
      Object.assign(new Error('database dropped'), { code: '57P04' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('timeout expired'),
    ]) {
      assert.equal(isDatabaseUnavailable(error), true, error.message);
    }
  });

  it('does not count a statement the database refused', () => {
    for (const error of [
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      Object.assign(new Error('division by zero'), { code: '22012' }),
      new Error('something else'),
      'Connection terminated',
    ]) {
      assert.equal(isDatabaseUnavailable(error), false, String(error));
    }
  });
});
