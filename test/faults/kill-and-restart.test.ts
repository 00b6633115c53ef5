// Killed as an OOM killer or a container runtime kills (SIGKILL to the process group of `npm start`)
// and started again at once on the same data: it comes back by itself and has lost nothing it
// acknowledged. The killed server is npm's child, so it stays a zombie until PID 1 reaps it: this
// machine's reaps after a second or two, Docker's without --init never does.
//
// Runs on PostgreSQL (TEST_DATABASE_URL: a database of its own) and on a temporary DATA_DIR; the
// tests of the DATA_DIR lock itself run on a DATA_DIR either way.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { mintToken } from '../../src/auth/mint-token.ts';
import { HOLDER_FILE } from '../../src/db/data-dir-lock.ts';
import { runCli, type Served, startServe } from '../credentials/processes.ts';
import { PGLITE_PASS_ONLY, TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase, EVENT_TYPE, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { seededDataDir } from '../support/pglite-image.ts';
import { processState } from '../support/process-state.ts';
import { type Receiver, type Recorded, startReceiver } from '../support/receiver.ts';
import { WORKER_TEST_ENV } from '../support/worker-process.ts';

const ENV: Record<string, string> = {
  ...WORKER_TEST_ENV,
  // Retries a second apart: the message is still pending when the restarted service takes it up.
  WEBHOOK_RETRY_SCHEDULE: Array(12).fill('1s').join(','),
  LOG_LEVEL: 'info',
  DATABASE_URL: '',
  DATA_DIR: '',
  REDIS_URL: '',
  RATE_LIMIT_MAX: '100000',
};
const WRITERS = 4;

describe(`a service killed with SIGKILL and started again at once (${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'})`, {
  timeout: 300_000,
}, () => {
  const company = randomUUID();
  let target: WorkerDatabase;
  let receiver: Receiver;
  let receiving = false;
  let headers: Record<string, string>;
  const served: Served[] = [];
  const start = async () => {
    const server = await startServe({ ...ENV, ...target.env }, { npmStart: true });
    served.push(server);
    return server;
  };

  before(async () => {
    target = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_kill');
    // Refuses every notification until the service has been killed.
    receiver = await startReceiver({ respond: () => ({ status: receiving ? 204 : 503 }) });
    const token = await mintToken(ENV.AUTH_JWT_SECRET as string, {
      subject: randomUUID(),
      companies: [company],
      scope: 'accounts:write export-jobs:write',
    });
    headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  });
  after(async () => {
    for (const server of served) await server.kill();
    await receiver?.close();
    await target?.drop();
  });

  it('keeps every account it acknowledged and delivers the webhook it had queued, under its webhook-id', async (t) => {
    const first = await start();
    const call = (server: Served, method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });

    const subscribed = await call(first, 'POST', '/v1/subscriptions', {
      eventTypes: [EVENT_TYPE],
      endpointUrl: receiver.url,
    });
    assert.equal(subscribed.status, 200);
    const subscriptionId: string = (await subscribed.json()).data.id;
    const secret: string = (await (await call(first, 'GET', `/v1/subscriptions/${subscriptionId}/secret`)).json()).data
      .secretKey;

    // Writers create accounts one after another until the kill cuts them off.
    const acknowledged: { id: string; externalId: string }[] = [];
    const writer = async (w: number) => {
      for (let i = 0; ; i++) {
        const externalId = `${w}-${i}`;
        let response: Response;
        try {
          response = await call(first, 'POST', '/v1-beta/accounts', {
            companyId: company,
            externalId,
            name: `Account ${externalId}`,
            archived: false,
          });
        } catch {
          return; // the service is gone
        }
        if (response.status !== 201) assert.fail(`account ${externalId}: ${response.status} ${await response.text()}`);
        acknowledged.push({ id: (await response.json()).data.id, externalId });
      }
    };
    const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));

    const exported = await call(first, 'POST', '/v2/export-jobs', { companyId: company });
    assert.equal(exported.status, 201);
    // Queued and tried once (the receiver refused it): the message the restart must deliver.
    const queued = await untilFound(async () => {
      const listed = await call(first, 'GET', `/v1/subscriptions/${subscriptionId}/messages`);
      const [message] = (await listed.json()).data as { id: string; status: string; attempts: number }[];
      return message && message.attempts > 0 ? message : undefined;
    });
    assert.equal(queued.status, 'pending');
    assert.equal(receiver.requests[0]?.id, queued.id);

    await first.kill();
    await writing;
    const killed = processState(first.pid);
    t.diagnostic(
      `killed server ${first.pid}: ${killed === undefined ? 'gone' : `state ${killed}`} when the next starts`,
    );
    receiving = true;

    const second = await start();
    assert.ok(acknowledged.length > 0, 'accounts were being written when the kill came');
    for (const account of acknowledged) {
      const got = await call(second, 'GET', `/v1-beta/accounts/${account.id}`);
      assert.equal(got.status, 200, `account ${account.externalId}, acknowledged before the kill`);
      assert.equal((await got.json()).data.externalId, account.externalId);
    }

    const delivered = await untilFound(async () => receiver.requests.find((r) => r.status === 204), receiver);
    assert.equal(delivered.id, queued.id, 'delivered under the webhook-id it had before the kill');
    assert.equal(new Set(receiver.requests.map((r) => r.id)).size, 1, 'one message, whatever the attempts');
    assert.doesNotThrow(() => new Webhook(secret).verify(delivered.body, signatureHeaders(delivered)));
    // The worker records the attempt once the response has come, a moment after the receiver saw it.
    const listMessages = async () => {
      const listed = await call(second, 'GET', `/v1/subscriptions/${subscriptionId}/messages`);
      return ((await listed.json()).data as { id: string; status: string }[]).map(({ id, status }) => ({ id, status }));
    };
    const recorded = await untilFound(async () => {
      const messages = await listMessages();
      return messages.every((message) => message.status !== 'pending') ? messages : undefined;
    });
    assert.deepEqual(recorded, [{ id: queued.id, status: 'delivered' }]);
    t.diagnostic(`${acknowledged.length} accounts acknowledged, all there after the restart`);
    await second.stop();
  });
});

describe('the DATA_DIR lock of a running service', { timeout: 300_000, skip: PGLITE_PASS_ONLY }, () => {
  const dirs: string[] = [];
  const served: Served[] = [];
  const env = (dataDir: string) => ({ ...ENV, DATA_DIR: dataDir });
  // A DATA_DIR holding the migrated cluster: the tests are of its lock, not of a first start.
  const newDir = async () => {
    const dir = await seededDataDir('ledgerhook-kill');
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    for (const server of served) await server.kill();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is not held by a running process that is not ledgerhook, and refuses a second ledgerhook at once', async () => {
    const dir = await newDir();
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, HOLDER_FILE), `${sleeper.pid}\n`);
      const server = await startServe(env(dir));
      served.push(server);
      assert.equal(readFileSync(join(dir, HOLDER_FILE), 'utf8'), `${server.pid}\n`);
      for (const command of ['serve', 'migrate']) {
        await assert.rejects(runCli([command], env(dir)), (error: { code?: number; stderr?: string }) => {
          assert.equal(error.code, 2);
          assert.equal(
            error.stderr,
            `ledgerhook: DATA_DIR ${dir} is in use by process ${server.pid}: one process per embedded database\n`,
          );
          return true;
        });
      }
      await server.stop();
    } finally {
      sleeper.kill();
    }
  });

  it('goes to exactly one of two services started at once where one was killed', async (t) => {
    const dir = await newDir();
    let holder = await startServe(env(dir), { npmStart: true });
    served.push(holder);
    let rounds = 0;
    // Rounds bounded in time: each is a kill and two starts (test/db/data-dir-lock.test.ts asks
    // for the lock itself hundreds of times).
    for (const end = Date.now() + 20_000; rounds < 5 && (rounds < 1 || Date.now() < end); rounds++) {
      await holder.kill();
      const outcomes = await Promise.allSettled([0, 1].map(() => startServe(env(dir), { npmStart: true })));
      const started = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      served.push(...started);
      assert.equal(started.length, 1, `round ${rounds}: ${started.length} of 2 served`);
      holder = started[0] as Served;
      const refused = outcomes.find((outcome) => outcome.status === 'rejected');
      assert.match(
        String(refused?.reason),
        new RegExp(`exited with code 2 .*is in use by process ${holder.pid}:`, 's'),
      );
      assert.equal((await fetch(`${holder.url}/health/ready`)).status, 200);
    }
    t.diagnostic(`${rounds} rounds`);
    await holder.stop();
  });
});

/** Polls `find` until it answers something (each time a request arrives, with a receiver). */
async function untilFound<T>(find: () => T | undefined | Promise<T | undefined>, receiver?: Receiver): Promise<T> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    const found = await find();
    if (found !== undefined) return found;
    if (receiver) await receiver.waitFor(receiver.requests.length + 1, Math.max(0, end - Date.now()));
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('not found within 30 s');
}

function signatureHeaders(request: Recorded): Record<string, string> {
  return {
    'webhook-id': request.id,
    'webhook-timestamp': request.timestamp,
    'webhook-signature': request.signature,
  };
}
