// One tenant's 200 subscriptions to an endpoint that never answers, and one export job of its, do
// not hold up another tenant's webhook (docs/decisions/tenant-isolation.md, "Delivery slots"): a real
// `ledgerhook serve --role all`, driven through its API as an attacker with one client's credentials
// for one company could. The other tenant is the same client for another company. WEBHOOK_TIMEOUT_MS outlasts the test, so each hanging attempt stays open until the end and
// what the other tenant got meanwhile shows the order of events, whatever the machine's speed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../src/auth/mint-token.ts';
import { type Served, startServe } from '../credentials/processes.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { sendRequest } from '../support/outage-requests.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { WORKER_TEST_ENV } from '../support/worker-process.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';
const HANGING_SUBSCRIPTIONS = 200;
// A worker's slots for one tenant: a quarter of its 64 (src/webhooks/delivery-worker.ts).
const TENANT_SLOTS = 16;
const NEVER_MS = 600_000;

describe("one tenant's 200 hanging endpoints and a real serving process", { timeout: 120_000 }, () => {
  let target: WorkerDatabase;
  let served: Served;
  let hanging: Receiver;
  let healthy: Receiver;
  let releaseHanging: () => void = () => {};
  const [companyA, companyB] = [randomUUID(), randomUUID()];
  const tokenOf = async (clientId: string, companyId: string) =>
    `Bearer ${await mintToken(SECRET, {
      subject: randomUUID(),
      clientId,
      companies: [companyId],
      scope: 'export-jobs:read export-jobs:write',
    })}`;

  before(async () => {
    const released = new Promise<void>((resolve) => {
      releaseHanging = resolve;
    });
    hanging = await startReceiver({ respond: () => ({ status: 204, answerWhen: released }) });
    healthy = await startReceiver();
    target = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_hanging_tenant');
    served = await startServe(
      {
        ...WORKER_TEST_ENV,
        ...target.env,
        WEBHOOK_TIMEOUT_MS: String(NEVER_MS),
        AUTH_JWT_SECRET: SECRET,
        LOG_LEVEL: 'info',
      },
      { role: 'all' },
    );
  });

  after(async () => {
    releaseHanging();
    await served?.stop();
    await hanging?.close();
    await healthy?.close();
    await target?.drop();
  });

  it("delivers the other tenant's webhook while the first tenant's attempts hang, holding 16 slots", async () => {
    const clientId = `client-${randomUUID()}`;
    const tenantA = await tokenOf(clientId, companyA);
    const tenantB = await tokenOf(clientId, companyB);
    const subscribe = async (authorization: string, endpointUrl: string) => {
      const body = { eventTypes: ['v1.export-job.created'], endpointUrl };
      const answer = await sendRequest(served.url, authorization, 'POST', '/v1/subscriptions', body);
      assert.equal(answer.status, 200, answer.body);
    };
    for (let i = 0; i < HANGING_SUBSCRIPTIONS; i++) await subscribe(tenantA, `${hanging.url}hook/${i}`);
    await subscribe(tenantB, healthy.url);

    const jobA = await sendRequest(served.url, tenantA, 'POST', '/v2/export-jobs', { companyId: companyA });
    assert.equal(jobA.status, 201, jobA.body);
    await hanging.waitFor(TENANT_SLOTS);
    const jobB = await sendRequest(served.url, tenantB, 'POST', '/v2/export-jobs', { companyId: companyB });
    assert.equal(jobB.status, 201, jobB.body);
    await healthy.waitFor(1);

    // Tenant B's webhook came while tenant A's sixteen attempts were open, and A's cap held: no
    // seventeenth attempt, though 184 of its subscriptions have a message and a free slot.
    assert.equal(JSON.parse(healthy.requests[0]?.body ?? '{}').payload.data.companyId, companyB);
    assert.equal(hanging.requests.length, TENANT_SLOTS);
  });
});
