import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { emitEvent, insertSubscription } from '../webhooks/delivery/fixtures.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('operations endpoints', () => {
  it('GET /health/live answers 200', async () => {
    const response = await t.request('GET', '/health/live');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'ok' });
  });

  it('GET /health/ready answers 200 while the database answers', async () => {
    const response = await t.request('GET', '/health/ready');
    assert.equal(response.status, 200);
  });

  it('GET /metrics exposes request durations by route in Prometheus format', async () => {
    await t.request('GET', '/health/live');
    const response = await t.request('GET', '/metrics');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain/);
    assert.match(
      response.text,
      /http_request_duration_seconds_count\{method="GET",route="\/health\/live",status="200"\} [1-9]/,
    );
    assert.match(response.text, /process_cpu_user_seconds_total/);
  });

  it('GET /metrics tells the delivery backlog, its oldest due message and the last day, from the database', async () => {
    const metric = (text: string, name: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${name} `));
      assert.ok(line, `${name} in /metrics`);
      return Number(line.split(' ')[1]);
    };
    const company = randomUUID();
    const { id } = await insertSubscription(t.db, { endpointUrl: 'https://example.com/hook', companies: [company] });
    await insertSubscription(t.db, {
      endpointUrl: 'https://example.com/off',
      companies: [company],
      status: 'INACTIVE',
    });
    await emitEvent(t.db, company);
    await emitEvent(t.db, company);
    // One is due since a minute, the other in an hour: the backlog is one, a minute old.
    await t.db.query(
      `UPDATE messages SET next_attempt_at = now() + CASE WHEN id = (SELECT min(id) FROM messages WHERE subscription_id = $1)
         THEN interval '-60 seconds' ELSE interval '1 hour' END WHERE subscription_id = $1`,
      [id],
    );
    await t.db.query(
      `INSERT INTO subscription_hourly_deliveries (subscription_id, hour, delivered, failed_attempts, failed)
       VALUES ($1, date_trunc('hour', now()), 7, 3, 1), ($1, date_trunc('hour', now()) - interval '30 hours', 100, 100, 100)`,
      [id],
    );
    // A large change's fan-out waiting for the workers since two minutes.
    await t.db.query(
      `INSERT INTO event_fan_outs (event_ids, created_at) VALUES ('{}', now() - interval '120 seconds')`,
    );
    const { text } = await t.request('GET', '/metrics');
    const fanOutAge = metric(text, 'ledgerhook_webhook_oldest_fan_out_age_seconds');
    assert.ok(fanOutAge >= 120 && fanOutAge < 3600, `oldest fan-out age ${fanOutAge}`);
    assert.equal(metric(text, 'ledgerhook_webhook_messages_pending'), 2);
    assert.equal(metric(text, 'ledgerhook_webhook_messages_due'), 1);
    const age = metric(text, 'ledgerhook_webhook_oldest_due_message_age_seconds');
    assert.ok(age >= 60 && age < 3600, `oldest due age ${age}`);
    assert.equal(metric(text, 'ledgerhook_webhook_subscriptions{status="ACTIVE"}'), 1);
    assert.equal(metric(text, 'ledgerhook_webhook_subscriptions{status="INACTIVE"}'), 1);
    assert.equal(metric(text, 'ledgerhook_webhook_last_24h{outcome="delivered"}'), 7);
    assert.equal(metric(text, 'ledgerhook_webhook_last_24h{outcome="attempt_failed"}'), 3);
    assert.equal(metric(text, 'ledgerhook_webhook_last_24h{outcome="failed"}'), 1);
  });

  it('GET /docs renders the API reference under the product name, from /openapi.json', async () => {
    const response = await t.request('GET', '/docs/');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
    assert.match(response.text, /<title>ledgerhook API<\/title>/);
    // The page's last script starts the UI; it must read the published document, not a copy.
    const scripts = [...response.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] as string);
    const last = await t.request('GET', new URL(scripts.at(-1) as string, 'http://x/docs/').pathname);
    assert.equal(last.status, 200);
    assert.match(last.text, /url: location\.pathname\.replace\([^)]*\) \+ '\/openapi\.json'/);
  });

  it('serves the document only at /openapi.json, not as a copy under /docs', async () => {
    for (const url of ['/docs/json', '/docs/yaml']) assert.equal((await t.request('GET', url)).status, 404, url);
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const response = await t.request('GET', '/openapi.json');
    assert.equal(response.status, 200);
    assert.equal(response.body.openapi, '3.1.0');
    const result = await new Validator().validate(response.body);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('documents every operation of the accounts interface with its operationId', async () => {
    const { paths } = (await t.request('GET', '/openapi.json')).body;
    const operations = Object.entries(paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, { operationId?: string }>).map(
        ([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`,
      ),
    );
    for (const expected of [
      'POST /v1-beta/accounts createAccountV4',
      'GET /v1-beta/accounts/{accountId} getAccountV4',
      'PUT /v1-beta/accounts/{accountId} updateAccountV4',
      'DELETE /v1-beta/accounts/{accountId} deleteAccountV4',
      'POST /v1-beta/accounts:search searchAccountsV4',
    ]) {
      assert.ok(operations.includes(expected), `${expected} missing from ${operations.join('\n')}`);
    }
  });

  it('names the problem schema once and refers every error response to it, under both content types', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    assert.equal(document.components.schemas.Problem.properties.type.description, 'Stable code to branch on');
    let errors = 0;
    for (const operations of Object.values(document.paths) as Record<string, { responses: object }>[]) {
      for (const { responses } of Object.values(operations)) {
        for (const [status, response] of Object.entries(responses) as [string, { content?: object }][]) {
          if (Number(status) < 400) continue;
          errors += 1;
          for (const contentType of ['application/json;charset=UTF-8', 'application/problem+json']) {
            const { schema } = (response.content as Record<string, { schema: Record<string, unknown> }>)[
              contentType
            ] as { schema: Record<string, unknown> };
            const ref = schema.$ref ?? (schema.allOf as { $ref: string }[])[0]?.$ref;
            assert.equal(ref, '#/components/schemas/Problem', JSON.stringify(response));
          }
        }
      }
    }
    assert.ok(errors > 100);
  });

  it('documents a webhook per event type: its headers and its payload of data, eventId, eventType and sequence', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    const types = (await t.request('GET', '/v1/event-types', { token: await t.token() })).body.data.map(
      (e: { eventType: string }) => e.eventType,
    );
    assert.deepEqual(Object.keys(document.webhooks).sort(), types.sort());
    for (const type of types) {
      const { post } = document.webhooks[type];
      assert.deepEqual(
        post.parameters.map((p: { in: string; name: string }) => `${p.in} ${p.name}`),
        ['header webhook-id', 'header webhook-timestamp', 'header webhook-signature'],
      );
      const { payload } = post.requestBody.content['application/json'].schema.properties;
      assert.deepEqual(payload.required, ['data', 'eventId', 'eventType', 'sequence']);
      assert.ok(payload.properties.previousAttributes, type);
      assert.equal(payload.properties.eventType.const, type);
    }
  });

  it('hides the operational endpoints and declares bearer authentication', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    assert.equal(document.paths['/health/live'], undefined);
    assert.deepEqual(document.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });
});
