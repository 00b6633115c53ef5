// The v1.export-job.created event: written with its job in one transaction, its data the job exactly
// as answered at creation, valid against the registry's schema.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Principal } from '../../src/auth/principal.ts';
import { createExportJobIn } from '../../src/export-jobs/operations.ts';
import { findEventType } from '../../src/webhooks/event-types.ts';
import { recordEvent } from '../../src/webhooks/record-event.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { createEntries, createJob, sendEvent } from './fixtures.ts';

let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const principalOf = (company: string): Principal => ({
  subject: randomUUID(),
  clientId: undefined,
  scopes: new Set(['export-jobs:write']),
  companies: new Set([company]),
  accountingSystem: undefined,
});

// The fixtures' accounts and entries record events of their own.
const ONLY_JOB_CREATED = " AND event_type = 'v1.export-job.created'";

async function count(table: 'export_jobs' | 'export_job_items' | 'events', company: string): Promise<number> {
  const sql =
    table === 'export_job_items'
      ? 'SELECT count(*)::int AS n FROM export_job_items i JOIN export_jobs j ON j.id = i.job_id WHERE j.company_id = $1'
      : `SELECT count(*)::int AS n FROM ${table} WHERE company_id = $1${table === 'events' ? ONLY_JOB_CREATED : ''}`;
  const [row] = await t.db.query<{ n: number }>(sql, [company]);
  return row?.n ?? -1;
}

describe('v1.export-job.created', () => {
  it('is recorded once per committed job, its data the job as created, valid against the registry schema', async () => {
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    const definition = findEventType('v1.export-job.created');
    assert.ok(definition);
    const validate = ajv.compile(definition.dataSchema);

    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    await createEntries(t, company, token, 2);
    const created = [];
    for (let i = 0; i < 3; i++) {
      const job = await createJob(t, token, { companyId: company, accountingEntryIds: [] });
      const got = await t.request('GET', `/v2/export-jobs/${job.id}`, { token });
      assert.deepEqual({ ...got.body.data, expiresIn: job.expiresIn }, job);
      created.push(job);
      await sendEvent(t, token, job.id, 'started');
      await sendEvent(t, token, job.id, 'completed');
    }
    // A create that loses to an open job commits neither a job nor an event.
    await createJob(t, token, { companyId: company });
    assert.equal((await t.request('POST', '/v2/export-jobs', { token, body: { companyId: company } })).status, 409);

    // The jobs' status changes record events of their own (test/events/export-job-events.test.ts).
    const events = await t.db.query<{ id: string; event_type: string; data: { id: string } }>(
      `SELECT id, event_type, data FROM events WHERE company_id = $1 AND event_type = 'v1.export-job.created'
       ORDER BY created_at, id`,
      [company],
    );
    const jobs = await t.db.query<{ id: string }>('SELECT id FROM export_jobs WHERE company_id = $1', [company]);
    assert.equal(events.length, jobs.length);
    assert.deepEqual(new Set(events.map((e) => e.data.id)), new Set(jobs.map((j) => j.id)));
    for (const event of events) {
      assert.match(event.id, /^[0-9a-f-]{36}$/);
      assert.ok(validate(event.data), ajv.errorsText(validate.errors));
    }
    for (const job of created) {
      assert.deepEqual(
        events.find((e) => e.data.id === job.id)?.data,
        job,
        'the event data equals the 201 response exactly',
      );
    }
  });

  it('rolls back the job, its items and its event when the transaction fails after the job insert', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company] });
    await createEntries(t, company, token, 2);
    const failure = new Error('injected after the job, its items and its event were written');
    await assert.rejects(
      t.db.transaction(async (tx) => {
        const job = await createExportJobIn(tx, principalOf(company), { companyId: company }, { ttlSeconds: 60 });
        assert.equal(job.numberOfItems, 2);
        throw failure;
      }),
      failure,
    );
    assert.deepEqual(
      [await count('export_jobs', company), await count('export_job_items', company), await count('events', company)],
      [0, 0, 0],
    );
  });

  it('rolls back the job when recording its event fails', async () => {
    const company = randomUUID();
    await assert.rejects(
      t.db.transaction(async (tx) => {
        await createExportJobIn(tx, principalOf(company), { companyId: company }, { ttlSeconds: 60 });
        await recordEvent(tx, { eventType: 'v1.no-such.event' as never, companyId: company, data: {} });
      }),
      /Unknown event type/,
    );
    assert.equal(await count('export_jobs', company), 0);
    assert.equal(await count('events', company), 0);
  });
});
