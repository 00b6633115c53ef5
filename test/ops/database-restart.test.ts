// PostgreSQL restarted, and stopped for a while, under the load of a real `ledgerhook serve --role
// all`: accounts created in a loop, export jobs whose webhooks are queued, a receiver answering them.
// Every request is answered 2xx or 503 with Retry-After, never 500 and never a broken connection;
// the process stays up and recovers by itself: every acknowledged account exists, every queued
// webhook reaches the receiver, the LISTEN connection is back, no message stays leased, and
// /health/ready says 503 while the database is gone and 200 after (docs/decisions/database-outages.md).
//
// Runs on a PostgreSQL cluster of its own whichever database the suite uses: the shared server is
// never restarted.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintToken } from '../../src/auth/mint-token.ts';
import { type Served, startServe } from '../credentials/processes.ts';
import { needs } from '../support/components.ts';
import { type Answer, announcedIds, answersAsItMay, sendRequest, waitFor } from '../support/outage-requests.ts';
import { type PrivatePostgres, startPrivatePostgres } from '../support/private-postgres.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { WORKER_TEST_ENV } from '../support/worker-process.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';
const ACCOUNT_LOOPS = 3;
// Each export job is created for a company of its own (a company has one job in progress at a time).
const COMPANIES = 100;
// A client that is answered 503 waits before its next request, as Retry-After asks (shorter here).
const AFTER_503_MS = 50;

describe('PostgreSQL restarted under load', { timeout: 120_000, skip: await needs('postgresql') }, () => {
  let cluster: PrivatePostgres;
  let receiver: Receiver;
  let served: Served;
  const companies = Array.from({ length: COMPANIES }, () => randomUUID());
  let authorization: string;
  // While set, the receiver holds its answers until it settles.
  let holdAnswers: Promise<void> | undefined;

  before(async () => {
    cluster = await startPrivatePostgres();
    receiver = await startReceiver({ respond: () => ({ status: 204, answerWhen: holdAnswers }) });
    const env = { ...WORKER_TEST_ENV, DATABASE_URL: cluster.url(), DATA_DIR: '', AUTH_JWT_SECRET: SECRET };
    // A long lease (WEBHOOK_TIMEOUT_MS + the default 30 s): one the worker kept after the outage would
    // hold its message past the test's wait. The held attempt below must not time out before the
    // database has stopped, however slow the machine.
    served = await startServe(
      { ...env, WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MARGIN_MS: '30000', LOG_LEVEL: 'info' },
      { role: 'all' },
    );
    authorization = `Bearer ${await mintToken(SECRET, {
      subject: randomUUID(),
      companies,
      scope: 'accounts:write export-jobs:read export-jobs:write',
    })}`;
  });
  after(async () => {
    await served?.stop();
    await receiver?.close();
    await cluster?.destroy();
  });

  const send = (method: string, path: string, body?: object) =>
    sendRequest(served.url, authorization, method, path, body);

  it('answers 2xx or 503 with Retry-After, loses nothing acknowledged and recovers by itself', async () => {
    const subscription = await send('POST', '/v1/subscriptions', {
      eventTypes: ['v1.export-job.created'],
      endpointUrl: receiver.url,
    });
    assert.equal(subscription.status, 200, subscription.body);

    const wrong: string[] = [];
    const statuses = new Map<number, number>();
    // When each 2xx arrived, for the figures printed at the end.
    const succeededAt: number[] = [];
    const check = (what: string, answer: Answer) => {
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status < 300) succeededAt.push(Date.now());
      if (!answersAsItMay(answer)) wrong.push(`${what}: ${answer.status} ${answer.retryAfter} ${answer.body}`);
      return answer;
    };
    const accounts: string[] = [];
    const jobs: string[] = [];
    let nextAccount = 0;
    let nextCompany = 0;
    let accountAnswers = 0;
    const createAccount = async () => {
      const n = nextAccount++;
      const answer = check(
        'create account',
        await send('POST', '/v1-beta/accounts', {
          companyId: companies[0],
          externalId: `e-${n}`,
          name: `Account ${n}`,
          archived: false,
        }),
      );
      accountAnswers++;
      if (answer.status === 201) accounts.push(JSON.parse(answer.body).data.id);
      return answer;
    };
    const createJob = async () => {
      const companyId = companies[nextCompany++];
      const answer = check('create export job', await send('POST', '/v2/export-jobs', { companyId }));
      if (answer.status === 201) jobs.push(JSON.parse(answer.body).data.id);
      return answer;
    };

    /** Runs the load until `done` says so: account loops, and one export job per four account answers. */
    const runLoad = async (done: () => boolean) => {
      const deadline = Date.now() + 30_000;
      const until = () => done() || Date.now() > deadline;
      const accountLoop = async () => {
        while (!until()) if ((await createAccount()).status === 503) await sleep(AFTER_503_MS);
      };
      const jobLoop = async () => {
        while (!until() && nextCompany < COMPANIES - 10) {
          if ((await createJob()).status === 503) await sleep(AFTER_503_MS);
          const target = accountAnswers + 4;
          while (accountAnswers < target && !until()) await sleep(5);
        }
      };
      await Promise.all([jobLoop(), ...Array.from({ length: ACCOUNT_LOOPS }, accountLoop)]);
      if (Date.now() > deadline) throw new Error('the load did not reach its goal in time');
    };
    const accountsSince = (n: number) => {
      const target = accounts.length + n;
      return () => accounts.length >= target;
    };

    // 1. A restart in the middle of the load (PostgreSQL ends every session with 57P01).
    let loadDone = () => false;
    let restartedAt = 0;
    const restart = async () => {
      const before = accountsSince(30);
      while (!before()) await sleep(5);
      await cluster.restart();
      restartedAt = Date.now();
      loadDone = accountsSince(60);
    };
    await Promise.all([runLoad(() => loadDone()), restart()]);

    // 2. Stopped for a while: a bounded set of requests meets the outage. A webhook is on its way
    // when the database stops: its attempt cannot be recorded, and the worker must give its lease
    // back once the database is back rather than keep it until it runs out.
    let answerHeld = () => {};
    holdAnswers = new Promise<void>((resolve) => {
      answerHeld = resolve;
    });
    const heldJob = check('create export job', await createJob());
    assert.equal(heldJob.status, 201, heldJob.body);
    const heldJobId = JSON.parse(heldJob.body).data.id;
    await waitFor(async () => announcedIds(receiver).has(heldJobId), 'the held webhook arrives');
    const heldMessageId = receiver.requests.find((request) => request.body.includes(heldJobId))?.id;
    await cluster.stop();
    holdAnswers = undefined;
    answerHeld();
    await waitFor(
      async () => served.output().includes('recording a delivery attempt failed'),
      'the worker fails to record the held attempt',
    );
    const whileDown = [
      ...(await Promise.all(Array.from({ length: 10 }, createAccount))),
      ...(await Promise.all(Array.from({ length: 3 }, createJob))),
    ];
    assert.deepEqual(
      whileDown.map((answer) => answer.status),
      whileDown.map(() => 503),
      'every request answers 503 while the database is stopped',
    );
    const notReady = await fetch(`${served.url}/health/ready`);
    assert.equal(notReady.status, 503);
    assert.equal(notReady.headers.get('retry-after'), '2');
    await cluster.start();
    const startedAt = Date.now();
    await runLoad(accountsSince(60));
    const ready = await fetch(`${served.url}/health/ready`);
    assert.equal(ready.status, 200);

    assert.deepEqual(wrong, [], 'every answer is 2xx or 503 with Retry-After');
    assert.equal(served.child.exitCode, null, `the process is still running:\n${served.output().slice(-4000)}`);

    // The process's one LISTEN connection is back on the new server, listening, in one statement, on
    // every channel: delivery wake-ups, large changes' fan-outs, credential revocations.
    await waitFor(async () => {
      const listening = await cluster.psql(
        "SELECT string_agg(query, ' | ') FROM pg_stat_activity WHERE query LIKE 'LISTEN %'",
      );
      // One connection: no second query joined with ' | '.
      const channels = listening.split('; ').sort();
      return (
        channels.join(',') === 'LISTEN "ledgerhook_credentials",LISTEN "ledgerhook_events",LISTEN "ledgerhook_fan_outs"'
      );
    }, 'the LISTEN connection is back, on all three channels');
    // A new event after the outage is delivered.
    const last = check('create export job', await createJob());
    assert.equal(last.status, 201, last.body);
    const lastJob = JSON.parse(last.body).data.id;
    await waitFor(async () => announcedIds(receiver).has(lastJob), 'the event after the outage is delivered');

    // Every queued message reaches the receiver; none stays pending or leased.
    await waitFor(
      async () => (await cluster.psql("SELECT count(*) FROM messages WHERE status <> 'delivered'")) === '0',
      'every message is delivered',
    );
    assert.equal(await cluster.psql('SELECT count(*) FROM messages WHERE leased_by IS NOT NULL'), '0');
    const messageIds = (await cluster.psql('SELECT id FROM messages')).split('\n');
    const received = new Set(receiver.requests.map((request) => request.id));
    assert.deepEqual(
      messageIds.filter((id) => !received.has(id)),
      [],
      'every message reached the receiver',
    );
    assert.deepEqual(
      jobs.filter((id) => !announcedIds(receiver).has(id)),
      [],
      'every acknowledged export job was announced',
    );
    // Every acknowledged account exists.
    const stored = new Set((await cluster.psql('SELECT id FROM accounts')).split('\n'));
    assert.deepEqual(
      accounts.filter((id) => !stored.has(id)),
      [],
      'every acknowledged account exists',
    );
    assert.ok((statuses.get(503) ?? 0) >= whileDown.length);
    assert.ok(
      receiver.requests.filter((request) => request.id === heldMessageId).length >= 2,
      'the unrecorded webhook was sent again with its webhook-id',
    );
    const firstSuccessAfter = (at: number) => (succeededAt.find((t) => t >= at) ?? Number.NaN) - at;
    console.log(
      `first 2xx ${firstSuccessAfter(restartedAt)} ms after the restart, ${firstSuccessAfter(startedAt)} ms after the start; answers ${JSON.stringify(Object.fromEntries(statuses))}; ${accounts.length} accounts, ${jobs.length} export jobs ` +
        `acknowledged; ${messageIds.length} messages, ${receiver.requests.length} webhook requests`,
    );
  });
});
