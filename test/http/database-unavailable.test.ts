// While PostgreSQL cannot be reached, an operation answers 503 with Retry-After (the request may
// succeed when sent again), not 500. The server here points at a port where nothing listens, so
// this runs without any database server, whichever database the suite uses.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../src/auth/mint-token.ts';
import { createTokenVerifier } from '../../src/auth/verify-token.ts';
import { type Database, isDatabaseUnavailable } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/postgres-database.ts';
import type { App } from '../../src/http/app.ts';
import { buildServer } from '../../src/server.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';

describe('the database out of reach', () => {
  let db: Database;
  let app: App;
  let authorization: string;
  const companyId = randomUUID();

  before(async () => {
    db = await openPostgres('postgres://postgres@127.0.0.1:1/ledgerhook');
    app = await buildServer({ db, verifyToken: createTokenVerifier({ secret: SECRET }) });
    await app.ready();
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

  for (const [method, url, body] of [
    ['GET', `/v1-beta/accounts/${randomUUID()}`, undefined],
    ['POST', '/v1-beta/accounts:search', { companyId }],
    ['POST', '/v1-beta/accounts', { companyId, externalId: 'e-1', name: 'Cash', archived: false }],
  ] as const) {
    it(`answers ${method} ${url.replace(/[0-9a-f-]{36}/, '{id}')} with 503 and Retry-After`, async () => {
      const response = await app.inject({ method, url, headers: { authorization }, ...(body ? { body } : {}) });
      assert.equal(response.statusCode, 503);
      assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(response.headers['retry-after'], '2');
      assert.equal(response.json().type, 'SERVICE_UNAVAILABLE');
    });
  }

  it('documents 503 on every operation', () => {
    const paths = (app.swagger() as unknown as { paths: Record<string, Record<string, { responses: object }>> }).paths;
    const operations = Object.values(paths).flatMap((byMethod) => Object.values(byMethod));
    assert.ok(operations.length > 10);
    for (const operation of operations) assert.ok('503' in operation.responses);
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
      new Error('Connection terminated unexpectedly'),
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
