// Every subscription route through the shared security cases (docs/decisions/credentials.md). A
// subscription belongs to a client, not a company: here every token of the fixture company belongs
// to the owning client, and a token of another company to another client, so "another company's
// resource" of the shared cases is another client's subscription (404).
import { randomUUID } from 'node:crypto';
import { after, before, describe } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { itEnforcesAccess } from '../support/security.ts';
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

/** A subscription of the owning client, made before the cases of one route run. */
function ownSubscription(): () => string {
  let id = '';
  before(async () => {
    id = (await createSubscription(t, await app.token({ companies: [company] }))).data.id;
  });
  return () => id;
}

describe('access to POST /v1/subscriptions', () => {
  // No scope of its own, but subscribing to export-job events needs export-jobs:read and :write.
  itEnforcesAccess(() => app, {
    method: 'POST',
    url: () => '/v1/subscriptions',
    body: () => subscriptionBody(),
    scope: 'export-jobs:write',
    company: () => company,
  });
});

describe('access to GET /v1/subscriptions', () => {
  itEnforcesAccess(() => app, { method: 'GET', url: () => '/v1/subscriptions', company: () => company });
});

describe('access to GET /v1/subscriptions/{id}', () => {
  const id = ownSubscription();
  itEnforcesAccess(() => app, {
    method: 'GET',
    url: () => `/v1/subscriptions/${id()}`,
    company: () => company,
    resourceInPath: true,
  });
});

describe('access to PUT /v1/subscriptions/{id}', () => {
  const id = ownSubscription();
  itEnforcesAccess(() => app, {
    method: 'PUT',
    url: () => `/v1/subscriptions/${id()}`,
    body: () => subscriptionBody(),
    scope: 'export-jobs:write',
    company: () => company,
    resourceInPath: true,
  });
});

describe('access to DELETE /v1/subscriptions/{id}', () => {
  const id = ownSubscription();
  itEnforcesAccess(() => app, {
    method: 'DELETE',
    url: () => `/v1/subscriptions/${id()}`,
    company: () => company,
    resourceInPath: true,
  });
});

describe('access to GET /v1/subscriptions/{id}/secret', () => {
  const id = ownSubscription();
  itEnforcesAccess(() => app, {
    method: 'GET',
    url: () => `/v1/subscriptions/${id()}/secret`,
    company: () => company,
    resourceInPath: true,
  });
});

describe('access to POST /v1/subscriptions/{id}/secret:rotate', () => {
  const id = ownSubscription();
  itEnforcesAccess(() => app, {
    method: 'POST',
    url: () => `/v1/subscriptions/${id()}/secret:rotate`,
    company: () => company,
    resourceInPath: true,
  });
});
