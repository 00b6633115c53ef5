// PostgreSQL ends every session of a real `ledgerhook serve --role all` (pg_terminate_backend, as a
// failover or an administrator does) hundreds of times, every 50 to 150 ms, while export jobs are
// created and closed (transactions that queue webhooks), accounts are created, read and searched, the
// delivery worker sends to a local receiver and its LISTEN connection listens on three channels. The process is
// alive after every round; every answer is 2xx or 503 with Retry-After (never 500, never a dropped
// connection); afterwards it answers 2xx again by itself and every export job answered 201 has been
// announced to the receiver (docs/decisions/database-outages.md, "The process stays up").
//
// Runs in the suite's PostgreSQL pass (it tests the node-postgres pools), on a cluster of its own: it
// ends sessions as fast as it can, which on the shared server would disturb other tests. Only the
// service's sessions are ended (its application_name), never the test's own.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { mintToken } from '../../src/auth/mint-token.ts';
import { type Served, startServe } from '../credentials/processes.ts';
import { needs } from '../support/components.ts';
import { POSTGRES_PASS_ONLY } from '../support/database.ts';
import { type Answer, announcedIds, answersAsItMay, sendRequest, waitFor } from '../support/outage-requests.ts';
import { type PrivatePostgres, startPrivatePostgres } from '../support/private-postgres.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { WORKER_TEST_ENV } from '../support/worker-process.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';
const APPLICATION = 'ledgerhook-under-termination';
const ROUNDS = 300;
// The rounds stop at this, should the machine be too slow for all of them.
const LOAD_MS = 40_000;
// Loops creating and closing export jobs (a company each: a company has one open job at a time), and
// loops creating, reading and searching accounts: together more than a pool's ten connections, so
// that transactions wait for connections that other statements release.
const JOB_LOOPS = 10;
const ACCOUNT_LOOPS = 6;
// A client answered 503 waits before its next request, as Retry-After asks (shorter here).
const AFTER_503_MS = 20;

describe('PostgreSQL ending the sessions of a serving process, hundreds of times', {
  timeout: 120_000,
  skip: POSTGRES_PASS_ONLY || (await needs('postgresql')),
}, () => {
  let cluster: PrivatePostgres;
  let receiver: Receiver;
  let served: Served;
  let terminator: pg.Client;
  // A company per job loop, one for the accounts and one for the export job created afterwards.
  const companies = Array.from({ length: JOB_LOOPS + 2 }, () => randomUUID());
  const accountsCompany = companies[JOB_LOOPS] as string;
  const lastCompany = companies[JOB_LOOPS + 1] as string;
  let authorization: string;

  before(async () => {
    cluster = await startPrivatePostgres();
    receiver = await startReceiver();
    served = await startServe(
      {
        ...WORKER_TEST_ENV,
        DATABASE_URL: `${cluster.url()}?application_name=${APPLICATION}`,
        DATA_DIR: '',
        AUTH_JWT_SECRET: SECRET,
        LOG_LEVEL: 'info',
        RATE_LIMIT_MAX: '1000000',
      },
      { role: 'all' },
    );
    terminator = new pg.Client(cluster.url());
    terminator.on('error', () => {});
    await terminator.connect();
    authorization = `Bearer ${await mintToken(SECRET, {
      subject: randomUUID(),
      companies,
      scope: 'accounts:write export-jobs:read export-jobs:write',
    })}`;
  });
  after(async () => {
    await terminator?.end().catch(() => {});
    await served?.stop();
    await receiver?.close();
    await cluster?.destroy();
  });

  const alive = () => served.child.exitCode === null && served.child.signalCode === null;

  const send = (method: string, path: string, body?: object) =>
    sendRequest(served.url, authorization, method, path, body);

  it('stays up, answers 2xx or 503 meanwhile, then recovers and announces every job', async () => {
    const subscription = await send('POST', '/v1/subscriptions', {
      eventTypes: ['v1.export-job.created'],
      endpointUrl: receiver.url,
    });
    assert.equal(subscription.status, 200, subscription.body);

    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    const jobs: string[] = [];
    let running = true;
    /** Sends, records what is not 2xx or 503 with Retry-After (unless `allowed`), and paces after a 503. */
    const ask = async (what: string, method: string, path: string, body?: object, allowed?: (a: Answer) => boolean) => {
      let answer: Answer;
      try {
        answer = await send(method, path, body);
      } catch (error) {
        wrong.push(`${what}: no answer (${(error as Error).message})`);
        return undefined;
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const ok = answersAsItMay(answer) || allowed?.(answer);
      if (!ok) wrong.push(`${what}: ${answer.status} ${answer.retryAfter} ${answer.body}`);
      if (answer.status === 503) await sleep(AFTER_503_MS);
      return answer;
    };

    // Creates an export job (one transaction: the job, its event and its webhook message), then ends
    // it with a `failed` event so that the company may open the next. An answer 503 may hide a
    // commit: the next create then finds the job open (409, with its id) and ends that one.
    const jobLoop = async (companyId: string) => {
      let unsure = false;
      while (running) {
        const created = await ask('create export job', 'POST', '/v2/export-jobs', { companyId }, (answer) => {
          return unsure && answer.status === 409 && answer.body.includes('EXPORT_ALREADY_IN_PROGRESS');
        });
        if (!created) return;
        let jobId: string | undefined;
        if (created.status === 201) {
          jobId = JSON.parse(created.body).data.id;
          jobs.push(jobId as string);
        } else if (created.status === 409) {
          jobId = JSON.parse(created.body).existingJobId;
        }
        unsure ||= created.status === 503;
        if (!jobId) continue;
        const ended = await ask('end export job', 'POST', '/v2/export-job-events', { jobId, event: 'failed' });
        if (!ended) return;
        unsure = ended.status !== 202;
      }
    };
    // Creates an account (a transaction), reads it by id (the pipelined connection), searches the
    // company (a pooled connection).
    const accountLoop = async (loop: number) => {
      const companyId = accountsCompany;
      for (let n = 0; running; n++) {
        const created = await ask('create account', 'POST', '/v1-beta/accounts', {
          companyId,
          externalId: `loop-${loop}-${n}`,
          name: `Account ${loop}-${n}`,
          archived: false,
        });
        if (!created) return;
        if (created.status === 201) {
          if (!(await ask('read account', 'GET', `/v1-beta/accounts/${JSON.parse(created.body).data.id}`))) return;
        }
        if (!(await ask('search accounts', 'POST', '/v1-beta/accounts:search', { companyId }))) return;
      }
    };
    const load = Promise.all([
      ...companies.slice(0, JOB_LOOPS).map(jobLoop),
      ...Array.from({ length: ACCOUNT_LOOPS }, (_, loop) => accountLoop(loop)),
    ]);

    let rounds = 0;
    let ended = 0;
    const deadline = Date.now() + LOAD_MS;
    try {
      for (; rounds < ROUNDS && Date.now() < deadline; rounds++) {
        await sleep(50 + Math.random() * 100);
        const { rows } = await terminator.query(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
          [APPLICATION],
        );
        ended += rows[0].n;
        assert.ok(alive(), `the process is alive after round ${rounds + 1}:\n${served.output().slice(-4000)}`);
      }
    } finally {
      running = false;
      await load;
    }
    console.log(
      `${rounds} rounds, ${ended} sessions ended; answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `${jobs.length} export jobs acknowledged`,
    );
    assert.ok(rounds >= 100, `at least 100 rounds ran (${rounds})`);
    assert.ok(alive(), `the process is alive:\n${served.output().slice(-4000)}`);
    assert.deepEqual(wrong, [], 'every answer is 2xx or 503 with Retry-After');
    assert.ok((statuses.get(503) ?? 0) > 0, 'some requests met an ended session');

    // Recovered without help: every kind of request answers 2xx again, and every acknowledged job's
    // webhook arrives (at least once: an attempt whose outcome could not be recorded is sent again).
    await waitFor(async () => (await send('GET', '/health/ready')).status === 200, 'ready again');
    const job = await send('POST', '/v2/export-jobs', { companyId: lastCompany });
    assert.equal(job.status, 201, job.body);
    jobs.push(JSON.parse(job.body).data.id);
    const search = await send('POST', '/v1-beta/accounts:search', { companyId: accountsCompany });
    assert.equal(search.status, 200, search.body);
    await waitFor(
      async () => jobs.every((id) => announcedIds(receiver).has(id)),
      'every acknowledged export job is announced',
    );
    assert.ok(alive(), 'the process is alive at the end');
  });
});
