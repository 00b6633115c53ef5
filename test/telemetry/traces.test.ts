// OpenTelemetry traces against a real OTLP/HTTP receiver this test starts: the service runs as a
// process with the OTEL_* variables, on the test's database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL), and a change that emits an event is followed from the request to the webhook
// receiver (docs/decisions/traces.md).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../src/auth/mint-token.ts';
import { type Served, startServe } from '../credentials/processes.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { Started } from '../support/deadlines.ts';
import { createWorkerDatabase, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { WORKER_TEST_ENV } from '../support/worker-process.ts';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.ts';

const SERVER = 2;
const CLIENT = 3;
const EVENT_TYPES = ['v1.export-job.created', 'v1.account.created'];
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

interface Setup {
  otlp: OtlpReceiver;
  webhooks: Receiver;
  served: Served;
  company: string;
  headers: Record<string, string>;
}

/** A database with one subscription of `company` to EVENT_TYPES, and the service on it with `otel`. */
async function setUp(started: Started, otel: (otlp: OtlpReceiver) => Record<string, string>): Promise<Setup> {
  const otlp = started.add('the OTLP receiver', await startOtlpReceiver(), (r) => r.close());
  const webhooks = started.add('the webhook receiver', await startReceiver(), (r) => r.close());
  const database: WorkerDatabase = started.add(
    'the database',
    await createWorkerDatabase(TEST_DATABASE_URL, 'traces'),
    (d) => d.drop(),
  );
  const company = randomUUID();
  const db = await database.open();
  try {
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO subscriptions (owner, companies, status, event_types, endpoint_url)
       VALUES ($1, $2::uuid[], 'ACTIVE', $3::text[], $4) RETURNING id`,
      [randomUUID(), [company], EVENT_TYPES, `${webhooks.url}hooks`],
    );
    await db.query(
      `INSERT INTO subscription_secrets (subscription_id, secret) VALUES ($1, 'whsec_${'A'.repeat(43)}=')`,
      [row?.id],
    );
  } finally {
    await db.close();
  }
  const served = started.add(
    'the service',
    await startServe(
      { ...WORKER_TEST_ENV, LOG_LEVEL: 'info', RATE_LIMIT_MAX: '100000', ...database.env, ...otel(otlp) },
      { role: 'all' },
    ),
    (s) => s.stop(),
  );
  const token = await mintToken(WORKER_TEST_ENV.AUTH_JWT_SECRET as string, {
    subject: randomUUID(),
    companies: [company],
    scope: 'export-jobs:write accounts:write',
  });
  return {
    otlp,
    webhooks,
    served,
    company,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  };
}

function jsonTo(otlp: OtlpReceiver): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'ledgerhook-under-test',
    OTEL_BSP_SCHEDULE_DELAY: '50',
  };
}

async function createExportJob(setup: Setup, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(`${setup.served.url}/v2/export-jobs`, {
    method: 'POST',
    headers: { ...setup.headers, ...headers },
    body: JSON.stringify({ companyId: setup.company }),
  });
  assert.equal(response.status, 201, await response.text());
}

async function createAccount(setup: Setup, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(`${setup.served.url}/v1-beta/accounts`, {
    method: 'POST',
    headers: { ...setup.headers, ...headers },
    body: JSON.stringify({ companyId: setup.company, externalId: randomUUID(), name: 'Cash', archived: false }),
  });
  assert.equal(response.status, 201, await response.text());
}

/** The service's JSON log lines so far. */
function logLines(served: Served): Record<string, unknown>[] {
  return served
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const isAccountCreate = (span: ReceivedSpan) => span.kind === SERVER && span.name === 'POST /v1-beta/accounts';

const isRequestSpan = (span: ReceivedSpan) => span.kind === SERVER && span.name === 'POST /v2/export-jobs';

describe('traces', { timeout: 180_000 }, () => {
  describe('a change followed from its request to the webhook receiver (http/json)', () => {
    const started = new Started();
    let setup: Setup;
    before(async () => {
      setup = await setUp(started, jsonTo);
    });
    after(() => started.close());

    it('exports the request span, its database spans and the attempt span in one trace, named by the traceparent sent', async () => {
      await createExportJob(setup);
      const request = await setup.otlp.waitForSpan(isRequestSpan);
      assert.equal(request.service, 'ledgerhook-under-test');
      assert.equal(request.attributes['http.request.method'], 'POST');
      assert.equal(request.attributes['http.route'], '/v2/export-jobs');
      assert.equal(request.attributes['http.response.status_code'], 201);
      assert.equal(request.attributes['url.path'], '/v2/export-jobs');
      assert.equal(request.attributes['ledgerhook.company_id'], setup.company);
      const statement = await setup.otlp.waitForSpan(
        (span) =>
          span.kind === CLIENT &&
          span.traceId === request.traceId &&
          span.attributes['db.system.name'] === 'postgresql',
      );
      assert.match(String(statement.attributes['db.query.text']), /\S/);

      const attempt = await setup.otlp.waitForSpan(
        (span) => span.kind === CLIENT && span.attributes['ledgerhook.message_id'] !== undefined,
      );
      assert.equal(attempt.traceId, request.traceId, 'the attempt is in the trace of the request');
      assert.equal(attempt.attributes['http.response.status_code'], 204);
      await setup.webhooks.waitFor(1);
      const sent = TRACEPARENT.exec(String(setup.webhooks.requests[0]?.headers.traceparent));
      assert.ok(sent, `a traceparent header: ${setup.webhooks.requests[0]?.headers.traceparent}`);
      assert.deepEqual([sent[1], sent[2]], [request.traceId, attempt.spanId], 'it names the attempt span');
      const logged = logLines(setup.served).find((line) => line.msg === 'request' && line.url === '/v2/export-jobs');
      assert.deepEqual(
        [logged?.trace_id, logged?.span_id],
        [request.traceId, request.spanId],
        'the log line names the span',
      );
    });

    it('continues an incoming traceparent', async () => {
      const traceId = randomUUID().replaceAll('-', '');
      const parent = 'b7ad6b7169203331';
      await createAccount(setup, { traceparent: `00-${traceId}-${parent}-01` });
      const request = await setup.otlp.waitForSpan((span) => isAccountCreate(span) && span.traceId === traceId);
      assert.equal(request.parentSpanId, parent);
      const attempt = await setup.otlp.waitForSpan(
        (span) => span.traceId === traceId && span.attributes['ledgerhook.message_id'] !== undefined,
      );
      assert.equal(attempt.attributes['ledgerhook.event_type'], 'v1.account.created');
    });

    it("records the account create's event, written in one statement with it, in the request's trace", async () => {
      const response = await fetch(`${setup.served.url}/v1-beta/accounts`, {
        method: 'POST',
        headers: setup.headers,
        body: JSON.stringify({ companyId: setup.company, externalId: randomUUID(), name: 'Cash', archived: false }),
      });
      assert.equal(response.status, 201, await response.text());
      const request = await setup.otlp.waitForSpan(
        (span) => span.kind === SERVER && span.name === 'POST /v1-beta/accounts',
      );
      const attempt = await setup.otlp.waitForSpan(
        (span) => span.attributes['ledgerhook.event_type'] === 'v1.account.created',
      );
      assert.equal(attempt.traceId, request.traceId);
    });

    it('ends the span of a request its client abandons when the connection closes, as an error of type aborted', async () => {
      const { port } = new URL(setup.served.url);
      const socket = connect(Number(port), '127.0.0.1');
      try {
        await once(socket, 'connect');
        // Expect: 100-continue: the service answers 100 once it has taken the request, before its
        // body, which never comes.
        socket.write(
          [
            'POST /v1-beta/accounts HTTP/1.1',
            'host: 127.0.0.1',
            `authorization: ${setup.headers.authorization}`,
            'content-type: application/json',
            'content-length: 1000',
            'expect: 100-continue',
            '',
            '',
          ].join('\r\n'),
        );
        const [answer] = await once(socket, 'data');
        assert.match(String(answer), /^HTTP\/1\.1 100 Continue/);
      } finally {
        socket.destroy();
      }
      const span = await setup.otlp.waitForSpan(
        (span) => span.kind === SERVER && span.attributes['error.type'] === 'aborted',
      );
      assert.equal(span.name, 'POST /v1-beta/accounts');
      assert.equal(span.attributes['http.response.status_code'], undefined, 'no answer was written');
    });
  });

  describe('http/protobuf', () => {
    const started = new Started();
    let setup: Setup;
    before(async () => {
      setup = await setUp(started, (otlp) => ({ ...jsonTo(otlp), OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }));
    });
    after(() => started.close());

    it('posts application/x-protobuf to /v1/traces', async () => {
      await createExportJob(setup);
      await setup.otlp.waitForRequests(1);
      assert.deepEqual(setup.otlp.requests[0], { path: '/v1/traces', contentType: 'application/x-protobuf' });
    });
  });

  describe('OTEL_TRACES_SAMPLER=parentbased_traceidratio at 0', () => {
    const started = new Started();
    let setup: Setup;
    before(async () => {
      setup = await setUp(started, (otlp) => ({
        ...jsonTo(otlp),
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0',
      }));
    });
    after(() => started.close());

    it('traces no new trace, and still follows a sampled traceparent', async () => {
      await createAccount(setup);
      const traceId = randomUUID().replaceAll('-', '');
      await createAccount(setup, { traceparent: `00-${traceId}-b7ad6b7169203331-01` });
      await setup.webhooks.waitFor(2);
      // Everything the service would have exported is sent by the time it has stopped.
      await setup.served.stop();
      const requests = setup.otlp.spans.filter(isAccountCreate);
      assert.deepEqual(
        requests.map((span) => span.traceId),
        [traceId],
        'only the request that came with a sampled traceparent',
      );
    });
  });

  describe('OTEL_TRACES_SAMPLER=always_off', () => {
    const started = new Started();
    let setup: Setup;
    before(async () => {
      setup = await setUp(started, (otlp) => ({ ...jsonTo(otlp), OTEL_TRACES_SAMPLER: 'always_off' }));
    });
    after(() => started.close());

    it('exports nothing, and the notification still carries an unsampled traceparent', async () => {
      await createExportJob(setup);
      await setup.webhooks.waitFor(1);
      // Everything the service would have exported is sent by the time it has stopped.
      await setup.served.stop();
      assert.deepEqual(setup.otlp.requests, []);
      assert.match(String(setup.webhooks.requests[0]?.headers.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
      const logged = logLines(setup.served).find((line) => line.msg === 'request' && line.url === '/v2/export-jobs');
      assert.ok(logged, 'the request is logged');
      assert.equal(logged.trace_id, undefined, 'an unsampled trace is not named');
    });
  });
});
