// PostgreSQL ends connections the service holds (pg_terminate_backend, what a restart or an
// administrator does) while requests run in transactions: the process stays up, each request is
// answered 2xx or 503 with Retry-After, never 500, the broken connections are discarded and the
// service answers 2xx again at once. The LISTEN connection comes back and hears notifications again.
//
// Runs on a PostgreSQL cluster of its own whichever database the suite uses: it ends every session
// of its database, which on the shared server would break other tests.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../src/auth/mint-token.ts';
import { createTokenVerifier } from '../../src/auth/verify-token.ts';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import type { App } from '../../src/http/app.ts';
import { buildServer } from '../../src/server.ts';
import { needs } from '../support/components.ts';
import { type PrivatePostgres, startPrivatePostgres } from '../support/private-postgres.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';
const CLIENTS = 8;
const TERMINATIONS = 5;

describe('PostgreSQL ending the service’s connections under load', {
  timeout: 60_000,
  skip: await needs('postgresql'),
}, () => {
  let cluster: PrivatePostgres;
  let db: Database;
  let app: App;

  before(async () => {
    cluster = await startPrivatePostgres();
    db = await openDatabase({ databaseUrl: cluster.url(), dataDir: '' });
    app = await buildServer({
      db,
      verifyToken: createTokenVerifier({ secret: SECRET }),
      webhookAllowPrivateTargets: true,
    });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await db?.close();
    await cluster?.destroy();
  });

  it('answers 2xx or 503 with Retry-After, never 500, and serves again right after', async () => {
    const companyId = randomUUID();
    const authorization = `Bearer ${await mintToken(SECRET, {
      subject: randomUUID(),
      companies: [companyId],
      scope: 'accounts:write export-jobs:write',
    })}`;
    const send = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: object) => {
      const response = await app.inject({ method, url, headers: { authorization }, ...(body && { body }) });
      return { status: response.statusCode, retryAfter: response.headers['retry-after'], body: response.body };
    };
    const subscription = await send('POST', '/v1/subscriptions', {
      eventTypes: ['v1.export-job.created'],
      endpointUrl: 'http://127.0.0.1:9/webhook',
    });
    assert.equal(subscription.status, 200, subscription.body);
    const subscriptionId = JSON.parse(subscription.body).data.id as string;
    const accountIds: string[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const created = await send('POST', '/v1-beta/accounts', {
        companyId,
        externalId: `e-${i}`,
        name: `Account ${i}`,
        archived: false,
      });
      assert.equal(created.status, 201, created.body);
      accountIds.push(JSON.parse(created.body).data.id);
    }
    // Each client alternates transactions (rotate, update) with a pipelined read and a pooled search.
    const requests = (i: number) => [
      () => send('POST', `/v1/subscriptions/${subscriptionId}/secret:rotate`),
      () => send('PUT', `/v1-beta/accounts/${accountIds[i]}`, { name: `Renamed ${i}`, archived: false }),
      () => send('GET', `/v1-beta/accounts/${accountIds[i]}`),
      () => send('POST', '/v1-beta/accounts:search', { companyId }),
    ];
    const notified: string[] = [];
    const unlisten = await db.listen('connection_terminated_test', (payload) => notified.push(payload));

    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    let answered = 0;
    let running = true;
    // Bounds the load should the process's state go wrong (a crash the runner reports goes on running).
    const deadline = Date.now() + 30_000;
    const client = async (i: number) => {
      for (let n = 0; running && Date.now() < deadline; n++) {
        const answer = await requests(i)[n % 4]!();
        answered++;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const ok = answer.status < 300 || (answer.status === 503 && answer.retryAfter === '2');
        if (!ok) wrong.push(`${answer.status} ${answer.body}`);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    const answersAfter = async (n: number) => {
      const target = answered + n;
      while (answered < target) {
        if (Date.now() > deadline) throw new Error(`only ${answered} of ${target} answers in time`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    let terminated = 0;
    try {
      for (let round = 0; round < TERMINATIONS; round++) {
        await answersAfter(40);
        terminated += Number(
          await cluster.psql(
            'SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          ),
        );
      }
      await answersAfter(40);
    } finally {
      running = false;
      await load;
    }

    assert.ok(terminated >= TERMINATIONS, `sessions ended: ${terminated}`);
    assert.deepEqual(wrong, [], 'every answer is 2xx or 503 with Retry-After');
    assert.ok((statuses.get(503) ?? 0) > 0, `some requests met a terminated session: ${JSON.stringify([...statuses])}`);

    // Every connection is new or healthy again: each kind of request succeeds.
    for (let i = 0; i < CLIENTS; i++) {
      for (const request of requests(i)) {
        const answer = await request();
        assert.ok(answer.status < 300, `${answer.status} ${answer.body}`);
      }
    }
    // The LISTEN connection was ended too; it has come back and hears again. Its return announces
    // itself with an empty payload (notifications may have been missed meanwhile).
    await waitFor(async () => {
      await db.query("SELECT pg_notify('connection_terminated_test', 'after')");
      return notified.includes('after');
    });
    assert.ok(notified.includes(''), 'the listener says it is back');
    await unlisten();
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
