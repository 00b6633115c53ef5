import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { SignJWT } from 'jose';
import type { Scope } from '../../src/auth/principal.ts';
import { ALL_SCOPES as ALL, TEST_JWT_SECRET, type TestApp } from './harness.ts';

export interface GuardedRoute {
  method: string;
  /** The path, built when the test runs (after fixtures exist). */
  url: () => string;
  /** A valid body for the route, naming `company` where the body carries a companyId. */
  body?: (company: string) => unknown;
  /** The scope the route needs; a token with every other scope must get 403. Omitted: any valid token. */
  scope?: Scope;
  /**
   * Narrower tokens that must get 403 too, each listing its scopes: a write route's read scope, a
   * scope of another resource, none at all.
   */
  narrowed?: Scope[][];
  /** Without `scope`: the route needs one of several scopes (`narrowed` lists tokens it refuses), not none. */
  needsOneOfSeveralScopes?: boolean;
  /** The company the route's fixtures belong to. */
  company: () => string;
  /** Whether the body names the company (then a token without it gets 403). */
  companyInBody?: boolean;
  /** Whether the path names a resource of `company` (then a token of another company gets 404). */
  resourceInPath?: boolean;
}

/** The cases every authenticated route must pass (docs/decisions/credentials.md). */
export function itEnforcesAccess(app: () => TestApp, route: GuardedRoute): void {
  const send = (token: string | null, company = route.company()) =>
    app().request(route.method, route.url(), { token, body: route.body?.(company) });

  it(`answers 401 with WWW-Authenticate without a token`, async () => {
    const response = await send(null);
    assert.equal(response.status, 401);
    assert.equal(response.headers['www-authenticate'], 'Bearer');
    assert.equal(response.body.type, 'UNAUTHORIZED');
  });

  it(`answers 401 for a malformed, wrongly signed, expired or claim-less token`, async () => {
    const claims = { scope: ALL.join(' '), companies: [route.company()] };
    const sign = (jwt: SignJWT, secret = TEST_JWT_SECRET) =>
      jwt.setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
    const tokens = {
      malformed: 'not.a.jwt',
      wrongKey: await sign(new SignJWT(claims).setSubject(randomUUID()).setExpirationTime('1h'), 'another-secret'),
      expired: await sign(
        new SignJWT(claims).setSubject(randomUUID()).setExpirationTime(Math.floor(Date.now() / 1000) - 60),
      ),
      noExpiry: await sign(new SignJWT(claims).setSubject(randomUUID())),
      noSubject: await sign(new SignJWT(claims).setExpirationTime('1h')),
      noCompanies: await sign(new SignJWT({ scope: claims.scope }).setSubject(randomUUID()).setExpirationTime('1h')),
    };
    for (const [kind, token] of Object.entries(tokens)) {
      const response = await send(token);
      assert.equal(response.status, 401, `${kind}: ${response.text}`);
    }
  });

  const { scope } = route;
  if (!scope && !route.needsOneOfSeveralScopes) {
    it('accepts a valid token without any scope', async () => {
      const token = await app().token({ companies: [route.company()], scopes: [] });
      const response = await send(token);
      assert.ok(response.status < 400, response.text);
    });
  } else if (scope) {
    it(`answers 403 without the scope ${scope}`, async () => {
      const resource = scope.split(':')[0];
      const others = ALL.filter((s) => !s.startsWith(`${resource}:`));
      const token = await app().token({ companies: [route.company()], scopes: others });
      const response = await send(token);
      assert.equal(response.status, 403, response.text);
      assert.equal(response.body.type, 'FORBIDDEN');
    });
  }

  for (const scopes of route.narrowed ?? []) {
    it(`answers 403 to a token with only the scopes [${scopes.join(' ')}]`, async () => {
      const token = await app().token({ companies: [route.company()], scopes });
      const response = await send(token);
      assert.equal(response.status, 403, response.text);
      assert.equal(response.body.type, 'FORBIDDEN');
    });
  }

  if (route.companyInBody) {
    it(`answers 403 when the token does not list the company`, async () => {
      const token = await app().token({ companies: [randomUUID()] });
      const response = await send(token);
      assert.equal(response.status, 403, response.text);
    });
  }

  if (route.resourceInPath) {
    it(`answers 404 for a resource of another company`, async () => {
      const stranger = randomUUID();
      const token = await app().token({ companies: [stranger] });
      const response = await send(token, stranger);
      assert.equal(response.status, 404, response.text);
    });
  }
}

export interface GuardedRecordRoutes {
  /** The collection's path, such as `/v1-beta/bookkeeping-categories`; search is `${base}:search`. */
  base: string;
  /** The id of a record of `company`, created before the tests run. */
  id: () => string;
  /** A valid create body for the company, and a valid update body. */
  createBody: (company: string) => unknown;
  updateBody: () => unknown;
  /** The resource's scopes are `${resource}:read` and `${resource}:write`. */
  resource: 'bookkeeping-categories' | 'contra-accounts';
  company: () => string;
}

/** itEnforcesAccess for each of a record's create, get, update, delete and search routes (body search). */
export function describeRecordAccess(
  describe: (name: string, body: () => void) => void,
  app: () => TestApp,
  routes: GuardedRecordRoutes,
): void {
  const { base, id, company } = routes;
  const read = `${routes.resource}:read` as Scope;
  const write = `${routes.resource}:write` as Scope;
  const byId = { url: () => `${base}/${id()}`, company, resourceInPath: true };
  describe('create', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => base,
      body: routes.createBody,
      scope: write,
      company,
      companyInBody: true,
    }));
  describe('get', () => itEnforcesAccess(app, { method: 'GET', scope: read, ...byId }));
  describe('update', () => itEnforcesAccess(app, { method: 'PUT', body: routes.updateBody, scope: write, ...byId }));
  describe('delete', () => itEnforcesAccess(app, { method: 'DELETE', scope: write, ...byId }));
  describe('search', () =>
    itEnforcesAccess(app, {
      method: 'POST',
      url: () => `${base}:search`,
      body: (c) => ({ companyId: c }),
      scope: read,
      company,
      companyInBody: true,
    }));
}
