// A PostgreSQL database that turns read-only under the load of a real `ledgerhook serve --role all`,
// as a standby reached before its promotion is: `default_transaction_read_only` set on the database
// and its sessions ended, so that the service's new sessions are read-only. Writes are answered 503
// DATABASE_READ_ONLY with Retry-After (never 500) and /health/ready says so; once the setting is
// reset, without ending a session, the service takes writes and says ready again by itself
// (docs/decisions/database-outages.md).
//
// Runs in the suite's PostgreSQL pass, on a cluster of its own: the shared server's settings are never
// touched.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintToken } from '../../src/auth/mint-token.ts';
import { isDatabaseUnavailable, writeRefusalOf } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { type Served, startServe } from '../credentials/processes.ts';
import { needs } from '../support/components.ts';
import { POSTGRES_PASS_ONLY } from '../support/database.ts';
import { type PrivatePostgres, startPrivatePostgres } from '../support/private-postgres.ts';
import { WORKER_TEST_ENV } from '../support/worker-process.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';
const DATABASE = 'ledgerhook_read_only';
const WRITERS = 3;
// Enough refused writes to have seen the service on a read-only database for a while.
const REFUSALS = 20;

describe('a PostgreSQL database that turns read-only', {
  timeout: 120_000,
  skip: POSTGRES_PASS_ONLY || (await needs('postgresql')),
}, () => {
  let cluster: PrivatePostgres;
  let served: Served;
  const company = randomUUID();
  let authorization: string;

  before(async () => {
    cluster = await startPrivatePostgres();
    await cluster.psql(`CREATE DATABASE ${DATABASE}`);
    served = await startServe(
      {
        ...WORKER_TEST_ENV,
        DATABASE_URL: cluster.url(DATABASE),
        DATA_DIR: '',
        AUTH_JWT_SECRET: SECRET,
        LOG_LEVEL: 'info',
        RATE_LIMIT_MAX: '1000000',
      },
      { role: 'all' },
    );
    authorization = `Bearer ${await mintToken(SECRET, { subject: randomUUID(), companies: [company], scope: 'accounts:write' })}`;
  });
  after(async () => {
    await served?.stop();
    await cluster?.destroy();
  });

  const send = (method: string, path: string, body?: object) =>
    fetch(served.url + path, {
      method,
      headers: { authorization, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
  const readiness = async () => {
    const response = await send('GET', '/health/ready');
    const body = await response.json();
    return {
      status: response.status,
      type: body.type as string | undefined,
      retryAfter: response.headers.get('retry-after'),
    };
  };

  it('answers writes 503 DATABASE_READ_ONLY, is not ready, and recovers by itself once writable', {
    timeout: 60_000,
  }, async (t) => {
    // Each writer's account, by id, and the name its last acknowledged update gave it.
    const acknowledged = new Map<string, string>();
    const answers = new Map<string, number>();
    let phase: 'writable' | 'read-only' | 'writable again' = 'writable';
    let stop = false;
    // Creates an account, then renames it again and again: an update runs in a transaction, whose
    // session must be left by the service itself once it refused a write.
    const writer = async (w: number) => {
      const created = await send('POST', '/v1-beta/accounts', {
        companyId: company,
        externalId: `writer-${w}`,
        name: 'Account 0',
        archived: false,
      });
      assert.equal(created.status, 201, await created.clone().text());
      const id: string = (await created.json()).data.id;
      acknowledged.set(id, 'Account 0');
      for (let i = 1; !stop; i++) {
        const name = `Account ${i}`;
        const response = await send('PUT', `/v1-beta/accounts/${id}`, { name, archived: false });
        const text = await response.text();
        if (response.status === 200) {
          acknowledged.set(id, name);
          answers.set(`${phase} 200`, (answers.get(`${phase} 200`) ?? 0) + 1);
          continue;
        }
        // The sessions ended under it are SERVICE_UNAVAILABLE; a read-only one refuses the write.
        assert.equal(response.status, 503, `account ${id}: ${response.status} ${text}`);
        assert.equal(response.headers.get('retry-after'), '2');
        const { type } = JSON.parse(text);
        assert.ok(['SERVICE_UNAVAILABLE', 'DATABASE_READ_ONLY'].includes(type), text);
        answers.set(`${phase} ${type}`, (answers.get(`${phase} ${type}`) ?? 0) + 1);
        await sleep(20);
      }
    };
    const count = (key: string) => answers.get(key) ?? 0;
    const until = async (what: string, done: () => boolean | Promise<boolean>) => {
      for (const end = Date.now() + 30_000; !(await done()); await sleep(50)) {
        if (Date.now() > end) throw new Error(`${what}: not within 30 s (${JSON.stringify([...answers])})`);
      }
    };

    const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    try {
      await until('writes taken', () => count('writable 200') >= 10);
      assert.deepEqual(await readiness(), { status: 200, type: undefined, retryAfter: null });

      phase = 'read-only';
      await cluster.psql(`ALTER DATABASE ${DATABASE} SET default_transaction_read_only = on`);
      await cluster.psql(
        `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${DATABASE}' AND pid <> pg_backend_pid()`,
      );
      await until('writes refused', () => count('read-only DATABASE_READ_ONLY') >= REFUSALS);
      assert.deepEqual(await readiness(), { status: 503, type: 'DATABASE_READ_ONLY', retryAfter: '2' });
      assert.equal((await send('GET', '/health/live')).status, 200);

      // No session is ended: the service must leave its read-only sessions by itself.
      await cluster.psql(`ALTER DATABASE ${DATABASE} RESET default_transaction_read_only`);
      phase = 'writable again';
      await until('writes taken again', () => count('writable again 200') >= 10);
      await until('ready again', async () => (await readiness()).status === 200);
    } finally {
      stop = true;
      await writing;
    }
    t.diagnostic(JSON.stringify(Object.fromEntries(answers)));

    for (const [id, name] of acknowledged) {
      const got = await send('GET', `/v1-beta/accounts/${id}`);
      assert.equal(got.status, 200);
      assert.equal((await got.json()).data.name, name, `account ${id}: its last acknowledged name`);
    }
  });

  // One session, used again and again (the pool hands out its last released session first): the
  // transaction that met 25006 must not give it back to be used again.
  it('closes a transaction session that refused a write, so the next one is opened writable', {
    timeout: 30_000,
  }, async () => {
    const name = `${DATABASE}_sessions`;
    await cluster.psql(`CREATE DATABASE ${name}`);
    const db = await openDatabase({ databaseUrl: cluster.url(name), dataDir: '' });
    try {
      await db.exec('CREATE TABLE counter (n int)');
      const write = () => db.transaction((tx) => tx.query('INSERT INTO counter VALUES (1)'));
      await write();
      await cluster.psql(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
      await cluster.psql(
        `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
      );
      // The ended session's own answer, then the new (read-only) session's refusal.
      await assert.rejects(write(), (error) => writeRefusalOf(error) === 'read-only' || isDatabaseUnavailable(error));
      await assert.rejects(write(), (error) => writeRefusalOf(error) === 'read-only');
      assert.equal(db.recentWriteRefusal(), 'read-only');
      await cluster.psql(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
      await write();
      assert.deepEqual(await db.query('SELECT count(*)::int AS n FROM counter'), [{ n: 2 }]);
    } finally {
      await db.close();
    }
  });
});
