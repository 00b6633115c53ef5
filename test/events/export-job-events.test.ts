// The events of an export job's status (docs/decisions/events.md): each transition of
// POST /v2/export-job-events and the expiry sweep record one event in the change's transaction, its
// data the job as GET answers it after the change, its previousAttributes what the change moved.
// A refused transition and an item update record none.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Principal } from '../../src/auth/principal.ts';
import { expireExportJobs } from '../../src/export-jobs/expire-export-jobs.ts';
import { recordExportJobEvent } from '../../src/export-jobs/operations.ts';
import { changeOf } from '../../src/webhooks/event-payload.ts';
import { findEventType } from '../../src/webhooks/event-types.ts';
import { createEntries, createJob, sendEvent } from '../export-jobs/fixtures.ts';
import { startCompanyTestApp } from '../support/company-app.ts';
import { eventsDuring, eventsOfCompany } from '../support/events.ts';

const { t, freshCompany } = await startCompanyTestApp();

// EXPORT_JOB_TTL's default, which the test app runs with.
const TTL_SECONDS = 3600;

const ajv = new Ajv({ strict: false });
addFormats.default(ajv);

type Job = Record<string, unknown> & { id: string; companyId: string };

/** A job of a company of its own, brought through `events`. */
async function jobAfter(events: string[]) {
  const { companyId, token } = await freshCompany();
  const job = await createJob(t, token, { companyId, accountingEntryIds: [] });
  for (const event of events) assert.equal((await sendEvent(t, token, job.id, event)).status, 202);
  return { id: job.id as string, companyId, token };
}

const get = async (job: { id: string; token: string }): Promise<Job> =>
  (await t.request('GET', `/v2/export-jobs/${job.id}`, { token: job.token })).body.data;

/**
 * Moves the job's last change two TTLs back, so that it reads expiresIn 0 both before the change
 * and inside it: previousAttributes is then exactly what GET answered before.
 */
async function age(jobId: string): Promise<void> {
  await t.db.query(
    `UPDATE export_jobs SET last_updated_at = last_updated_at - make_interval(secs => $2 * 2) WHERE id = $1`,
    [jobId, TTL_SECONDS],
  );
}

/**
 * The one event `change` recorded for the job: of type `eventType`, data the job as GET answers it
 * after the change (whose expiresIn has run on since: the change restarted it at the TTL) and valid
 * against the registry's schema, previousAttributes each changed field's value in `before`.
 */
async function assertOneStatusEvent(
  job: { id: string; companyId: string; token: string },
  eventType: string,
  change: () => Promise<unknown>,
): Promise<{ before: Job; after: Job; previousAttributes: Record<string, unknown> }> {
  await age(job.id);
  const before = await get(job);
  const events = await eventsDuring(t.db, job.companyId, change);
  const after = await get(job);
  assert.deepEqual(
    events.map((e) => e.eventType),
    [eventType],
  );
  const [event] = events;
  assert.ok(event);
  assert.equal((event.data as Job).expiresIn, TTL_SECONDS, 'the change restarted the expiry');
  assert.deepEqual(event.data, { ...after, expiresIn: TTL_SECONDS });
  const definition = findEventType(eventType);
  assert.ok(definition);
  const validate = ajv.compile(definition.dataSchema);
  assert.ok(validate(event.data), ajv.errorsText(validate.errors));
  assert.ok(event.previousAttributes);
  assert.deepEqual(event.previousAttributes, changeOf(before, event.data as Job));
  return { before, after, previousAttributes: event.previousAttributes };
}

describe('POST /v2/export-job-events records the job status events', () => {
  it('started: v1.export-job.started with the status and startedAt it had', async () => {
    const job = await jobAfter([]);
    const { before, previousAttributes } = await assertOneStatusEvent(job, 'v1.export-job.started', () =>
      sendEvent(t, job.token, job.id, 'started'),
    );
    assert.deepEqual(previousAttributes, {
      status: 'pending',
      startedAt: null,
      lastUpdatedAt: before.lastUpdatedAt,
      expiresIn: 0,
    });
  });

  it('completed and completed_with_errors: v1.export-job.completed and v1.export-job.completed-with-errors', async () => {
    for (const [event, eventType] of [
      ['completed', 'v1.export-job.completed'],
      ['completed_with_errors', 'v1.export-job.completed-with-errors'],
    ] as const) {
      const job = await jobAfter(['started']);
      const { before, after, previousAttributes } = await assertOneStatusEvent(job, eventType, () =>
        sendEvent(t, job.token, job.id, event),
      );
      assert.equal(after.status, event);
      assert.deepEqual(previousAttributes, {
        status: 'in_progress',
        completedAt: null,
        lastUpdatedAt: before.lastUpdatedAt,
        expiresIn: 0,
      });
    }
  });

  it('failed, from in_progress or pending: v1.export-job.failed with the reason it had not', async () => {
    for (const path of [['started'], []]) {
      const job = await jobAfter(path);
      const { before, after, previousAttributes } = await assertOneStatusEvent(job, 'v1.export-job.failed', () =>
        sendEvent(t, job.token, job.id, 'failed', {
          failureReason: 'The accounting system refused the credentials',
          failureReasonType: 'accounting_system_authentication_failure',
        }),
      );
      assert.equal(after.failureReasonType, 'accounting_system_authentication_failure');
      assert.equal(after.startedAt, before.startedAt, 'startedAt is not part of the change');
      assert.deepEqual(previousAttributes, {
        status: before.status,
        completedAt: null,
        failureReason: null,
        failureReasonType: null,
        lastUpdatedAt: before.lastUpdatedAt,
        expiresIn: 0,
      });
    }
  });

  it('records nothing for a refused transition (422) or a job of another company (404)', async () => {
    const pending = await jobAfter([]);
    const done = await jobAfter(['started', 'completed']);
    const stranger = await jobAfter([]);
    for (const [job, event] of [
      [pending, 'completed'],
      [pending, 'completed_with_errors'],
      [done, 'failed'],
      [done, 'started'],
    ] as const) {
      const events = await eventsDuring(t.db, job.companyId, async () => {
        const response = await sendEvent(t, job.token, job.id, event);
        assert.equal(response.status, 422, response.text);
      });
      assert.deepEqual(events, [], `${event} refused records nothing`);
    }
    const events = await eventsDuring(t.db, stranger.companyId, async () => {
      const response = await sendEvent(t, pending.token, stranger.id, 'started');
      assert.equal(response.status, 404, response.text);
    });
    assert.deepEqual(events, []);
    assert.equal((await get(stranger)).status, 'pending');
  });

  it('leaves the job unchanged when its event cannot be recorded: both are one transaction', async () => {
    const job = await jobAfter([]);
    // The events table refuses this job's events only, so the transition fails after its UPDATE.
    await t.db.query(`ALTER TABLE events ADD CONSTRAINT refuse_one_job CHECK (data->>'id' <> '${job.id}') NOT VALID`);
    const principal: Principal = {
      subject: randomUUID(),
      clientId: undefined,
      scopes: new Set(['export-jobs:write']),
      companies: new Set([job.companyId]),
      accountingSystem: undefined,
    };
    try {
      await assert.rejects(
        recordExportJobEvent(t.db, principal, { jobId: job.id, event: 'started' }, { ttlSeconds: TTL_SECONDS }),
        /refuse_one_job/,
      );
    } finally {
      await t.db.query('ALTER TABLE events DROP CONSTRAINT refuse_one_job');
    }
    const after = await get(job);
    assert.equal(after.status, 'pending');
    assert.equal(after.startedAt, null);
    assert.deepEqual(
      (await eventsOfCompany(t.db, job.companyId)).map((e) => e.eventType),
      ['v1.export-job.created'],
    );
  });

  it('records no job event for an item update: items are no part of the job', async () => {
    const { companyId, token } = await freshCompany();
    const [entry] = await createEntries(t, companyId, token, 1);
    const job = await createJob(t, token, { companyId });
    const events = await eventsDuring(t.db, companyId, async () => {
      const response = await t.request('PUT', `/v2/export-jobs/${job.id}/items`, {
        token,
        body: [{ accountingEntryId: entry, status: 'successful' }],
      });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.data.length, 1);
    });
    assert.deepEqual(events, []);
  });
});

describe('the expiry sweep records v1.export-job.expired', () => {
  it('once per expired job, whichever its status, in the sweep that expired it', async () => {
    const pending = await jobAfter([]);
    const running = await jobAfter(['started']);
    const open = await jobAfter([]);
    await age(pending.id);
    await age(running.id);
    const before = [await get(pending), await get(running)];

    // Two sweeps at once: each job expires, and is announced, once.
    const swept = (
      await Promise.all([expireExportJobs(t.db, TTL_SECONDS), expireExportJobs(t.db, TTL_SECONDS)])
    ).flat();
    assert.deepEqual(
      swept.filter((id) => id === pending.id || id === running.id).sort(),
      [pending.id, running.id].sort(),
    );
    assert.deepEqual(await expireExportJobs(t.db, TTL_SECONDS), [], 'a sweep that expires nothing');

    for (const [index, job] of [pending, running].entries()) {
      const events = (await eventsOfCompany(t.db, job.companyId)).slice(job === running ? 2 : 1);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['v1.export-job.expired'],
      );
      const [event] = events;
      assert.ok(event);
      const after = await get(job);
      assert.equal(after.failureReasonType, 'job_expired');
      assert.deepEqual(event.data, { ...after, expiresIn: TTL_SECONDS });
      const previous = before[index];
      assert.ok(previous);
      assert.deepEqual(event.previousAttributes, {
        status: previous.status,
        failureReason: null,
        failureReasonType: null,
        completedAt: null,
        expiredAt: null,
        lastUpdatedAt: previous.lastUpdatedAt,
        expiresIn: 0,
      });
    }
    assert.equal((await eventsOfCompany(t.db, open.companyId)).length, 1, 'a job within its TTL: its created only');
  });
});

describe('a subscriber of the status events', () => {
  it('gets a message of each change it subscribed to, and may subscribe only with both export job scopes', async () => {
    const { companyId, token } = await freshCompany();
    const subscribed = await t.request('POST', '/v1/subscriptions', {
      token,
      body: {
        eventTypes: ['v1.export-job.started', 'v1.export-job.expired'],
        endpointUrl: 'https://example.com/hook',
      },
    });
    assert.equal(subscribed.status, 200, subscribed.text);
    const job = await createJob(t, token, { companyId, accountingEntryIds: [] });
    assert.equal((await sendEvent(t, token, job.id, 'started')).status, 202);
    await age(job.id);
    assert.ok((await expireExportJobs(t.db, TTL_SECONDS)).includes(job.id));

    const messages = await t.db.query<{ eventType: string; jobId: string }>(
      `SELECT e.event_type AS "eventType", e.data->>'id' AS "jobId" FROM messages m JOIN events e ON e.id = m.event_id
       WHERE m.subscription_id = $1 ORDER BY e.sequence`,
      [subscribed.body.data.id],
    );
    assert.deepEqual(messages, [
      { eventType: 'v1.export-job.started', jobId: job.id },
      { eventType: 'v1.export-job.expired', jobId: job.id },
    ]);

    const readOnly = await t.token({ companies: [companyId], scopes: ['export-jobs:read'] });
    for (const eventType of ['v1.export-job.completed', 'v1.export-job.expired']) {
      const refused = await t.request('POST', '/v1/subscriptions', {
        token: readOnly,
        body: { eventTypes: [eventType], endpointUrl: 'https://example.com/hook' },
      });
      assert.equal(refused.status, 403, refused.text);
    }
  });
});
