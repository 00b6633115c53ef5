// Every subscription, delivery log and trail route through the shared security cases
// (docs/decisions/credentials.md), with the scopes of docs/decisions/tenant-isolation.md: reading
// needs the read scope of the subscription's event types (export-jobs:read), managing all their
// scopes (export-jobs:write). A subscription belongs to a client, not a company: here every token of
// the fixture company belongs to the owning client, and a token of another company to another
// client, so "another company's resource" of the shared cases is another client's subscription (404).

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Scope } from '../../src/auth/principal.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { itEnforcesAccess } from '../support/security.ts';
import { emitEvent } from '../webhooks/delivery/fixtures.ts';
import { createSubscription, subscriptionBody } from './fixtures.ts';

let t: TestApp;
let app: TestApp;
const company = randomUUID();
const ownerClient = `client-${randomUUID()}`;

before(async () => {
  t = await startTestApp();
  app = {
    ...t,
    token: (options = {}) =>
      t.token({
        ...(options.companies?.includes(company) ? { clientId: ownerClient } : { clientId: `other-${randomUUID()}` }),
        ...options,
      }),
  };
});
after(() => t.close());

// Tokens of the owning client that must get 403: another resource's scope, none, and for the routes
// that manage a subscription, the read scope of its event type.
const READ_NARROWED: Scope[][] = [['accounts:read'], []];
const MANAGE_NARROWED: Scope[][] = [...READ_NARROWED, ['export-jobs:read']];
const reads = { scope: 'export-jobs:read', narrowed: READ_NARROWED } as const;
const manages = { scope: 'export-jobs:write', narrowed: MANAGE_NARROWED } as const;

/** A subscription of the owning client with one message, made before the cases of one route run. */
function ownSubscription(): { id: () => string; messageId: () => string } {
  let id = '';
  let messageId = '';
  before(async () => {
    id = (await createSubscription(t, await app.token({ companies: [company] }))).data.id;
    await emitEvent(t.db, company);
    const [message] = await t.db.query<{ id: string }>('SELECT id FROM messages WHERE subscription_id = $1', [id]);
    messageId = message?.id as string;
  });
  return { id: () => id, messageId: () => messageId };
}

type Scopes = typeof reads | typeof manages;
const routesOfOne: [string, string, (s: ReturnType<typeof ownSubscription>) => string, Scopes, unknown?][] = [
  ['GET', '/v1/subscriptions/{id}', (s) => `/v1/subscriptions/${s.id()}`, reads],
  ['PUT', '/v1/subscriptions/{id}', (s) => `/v1/subscriptions/${s.id()}`, manages, subscriptionBody()],
  ['DELETE', '/v1/subscriptions/{id}', (s) => `/v1/subscriptions/${s.id()}`, manages],
  ['GET', '/v1/subscriptions/{id}/secret', (s) => `/v1/subscriptions/${s.id()}/secret`, manages],
  ['POST', '/v1/subscriptions/{id}/secret:rotate', (s) => `/v1/subscriptions/${s.id()}/secret:rotate`, manages],
  ['GET', '/v1/subscriptions/{id}/activities', (s) => `/v1/subscriptions/${s.id()}/activities`, reads],
  ['GET', '/v1/subscriptions/{id}/health', (s) => `/v1/subscriptions/${s.id()}/health`, reads],
  ['GET', '/v1/subscriptions/{id}/messages', (s) => `/v1/subscriptions/${s.id()}/messages`, reads],
  [
    'GET',
    '/v1/subscriptions/{id}/messages/{messageId}',
    (s) => `/v1/subscriptions/${s.id()}/messages/${s.messageId()}`,
    reads,
  ],
  [
    'GET',
    '/v1/subscriptions/{id}/messages/{messageId}/attempts',
    (s) => `/v1/subscriptions/${s.id()}/messages/${s.messageId()}/attempts`,
    reads,
  ],
  [
    'POST',
    '/v1/subscriptions/{id}/messages/{messageId}:resend',
    (s) => `/v1/subscriptions/${s.id()}/messages/${s.messageId()}:resend`,
    manages,
  ],
  [
    'POST',
    '/v1/subscriptions/{id}:recover',
    (s) => `/v1/subscriptions/${s.id()}:recover`,
    manages,
    { since: '2026-01-01T00:00:00Z' },
  ],
];

describe('access to POST /v1/subscriptions', () => {
  // No scope of its own, but subscribing to export-job events needs export-jobs:read and :write.
  itEnforcesAccess(() => app, {
    method: 'POST',
    url: () => '/v1/subscriptions',
    body: () => subscriptionBody(),
    ...manages,
    company: () => company,
  });
});

describe('access to GET /v1/subscriptions', () => {
  // Any resource's read scope lists the subscriptions it can read; none at all is 403.
  itEnforcesAccess(() => app, {
    method: 'GET',
    url: () => '/v1/subscriptions',
    narrowed: [[]],
    needsOneOfSeveralScopes: true,
    company: () => company,
  });

  it('lists to a token with another resource’s read scope only the subscriptions it can read', async () => {
    const exportJobs = (await createSubscription(t, await app.token({ companies: [company] }))).data.id;
    const listed = async (scopes: Scope[]) => {
      const token = await app.token({ companies: [company], scopes });
      const response = await app.request('GET', '/v1/subscriptions', { token });
      assert.equal(response.status, 200, response.text);
      return response.body.data.map((s: { id: string }) => s.id);
    };
    assert.ok(!(await listed(['accounts:read'])).includes(exportJobs));
    assert.ok((await listed(['export-jobs:read'])).includes(exportJobs));
  });
});

for (const [method, path, url, scopes, body] of routesOfOne) {
  describe(`access to ${method} ${path}`, () => {
    const subscription = ownSubscription();
    itEnforcesAccess(() => app, {
      method,
      url: () => url(subscription),
      ...(body === undefined ? {} : { body: () => body }),
      ...scopes,
      company: () => company,
      resourceInPath: true,
    });
    // Last: DELETE deletes it.
    it(`accepts a token with only the scope ${scopes.scope}`, async () => {
      const token = await app.token({ companies: [company], scopes: [scopes.scope] });
      const response = await app.request(method, url(subscription), { token, body });
      assert.ok(response.status < 300, response.text);
    });
  });
}

describe('the OpenAPI document', () => {
  it("declares each webhook route's scopes, and a fixed scope, as its security requirement", async () => {
    const { body: document } = await t.request('GET', '/openapi.json');
    const security = (path: string, method: string) => document.paths[path][method].security;
    // Any one resource's scopes: the operation checks those of the subscription's own types.
    const read = [{ bearerAuth: ['export-jobs:read'] }, { apiKeyBasic: ['export-jobs:read'] }];
    const manage = [
      { bearerAuth: ['export-jobs:read', 'export-jobs:write'] },
      { apiKeyBasic: ['export-jobs:read', 'export-jobs:write'] },
    ];
    const includes = (requirements: unknown[], expected: unknown[]) => {
      for (const one of expected)
        assert.ok(
          requirements.some((r) => isDeepStrictEqual(r, one)),
          JSON.stringify(one),
        );
    };
    for (const [path, method] of [
      ['/v1/subscriptions', 'get'],
      ['/v1/subscriptions/{id}/messages/{messageId}', 'get'],
    ]) {
      includes(security(path as string, method as string), [...read, { bearerAuth: ['accounts:read'] }]);
    }
    for (const [path, method] of [
      ['/v1/subscriptions/{id}/secret', 'get'],
      ['/v1/subscriptions/{id}:recover', 'post'],
    ]) {
      const requirements = security(path as string, method as string);
      includes(requirements, manage);
      assert.ok(!requirements.some((r: { bearerAuth?: string[] }) => r.bearerAuth?.length === 0), 'no scope-less way');
    }
    assert.deepEqual(security('/v2/export-jobs/{jobId}', 'get'), read);
  });
});
