import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from 'jose';
import { revokeApiKeyById, revokeClientById } from '../../src/credentials/operations.ts';
import { basic, type CredentialsApp, startCredentialsApp } from './support.ts';

const json = { 'content-type': 'application/json' };

describe('client credentials, tokens and API keys', () => {
  let t: CredentialsApp;
  before(async () => {
    t = await startCredentialsApp();
  });
  after(() => t.close());

  const search = (companyId: string, authorization: string) =>
    t.request('POST', '/v1-beta/accounts:search', { headers: { ...json, authorization }, body: { companyId } });

  it("issues an ES256 token with the service's claims through HTTP Basic, and it reads accounts", async () => {
    const created = await t.createClient();
    const { client, clientSecret } = created;
    const response = await t.token(
      { grant_type: 'client_credentials' },
      { authorization: basic(client.id, clientSecret) },
    );
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.body.token_type, 'Bearer');
    assert.equal(response.body.expires_in, 3600);
    assert.equal(response.body.scope, 'accounts:write tax-codes:write export-jobs:read');
    const token: string = response.body.access_token;
    assert.equal(decodeProtectedHeader(token).alg, 'ES256');
    const claims = decodeJwt(token);
    assert.equal(claims.sub, client.id);
    assert.equal(claims.client_id, client.id);
    assert.deepEqual(claims.companies, client.companies);
    assert.equal(claims.iss, 'https://production.ledgerhook.test');
    assert.equal(claims.aud, 'ledgerhook-production');
    assert.ok(typeof claims.exp === 'number');

    // Another service verifies it with the published key alone.
    const jwks = await t.request('GET', '/.well-known/jwks.json');
    assert.equal(jwks.status, 200);
    const [jwk] = jwks.body.keys;
    assert.equal(jwk.kid, decodeProtectedHeader(token).kid);
    assert.equal(jwk.d, undefined, 'the private part is never published');
    await jwtVerify(token, await importJWK(jwk, 'ES256'), { issuer: claims.iss, audience: 'ledgerhook-production' });

    const found = await search(client.companies[0] as string, `Bearer ${token}`);
    assert.equal(found.status, 200, found.text);
    assert.equal(found.body.pagination.total, 0);
  });

  it('accepts the client in the form, and narrows scopes on request (a :write grant covers its :read)', async () => {
    const { client, clientSecret } = await t.createClient({ scope: 'accounts:write tax-codes:write' });
    const form = { grant_type: 'client_credentials', client_id: client.id, client_secret: clientSecret };
    const narrowed = await t.token({ ...form, scope: 'accounts:read' });
    assert.equal(narrowed.status, 200, narrowed.text);
    assert.equal(narrowed.body.scope, 'accounts:read');
    const token = narrowed.body.access_token;
    const company = client.companies[0] as string;
    assert.equal((await search(company, `Bearer ${token}`)).status, 200);
    const write = await t.request('POST', '/v1-beta/accounts', {
      headers: { ...json, authorization: `Bearer ${token}` },
      body: { companyId: company, externalId: '1', name: 'Cash', archived: false },
    });
    assert.equal(write.status, 403, write.text);
  });

  it('refuses widened or unknown scopes with invalid_scope', async () => {
    const { client, clientSecret } = await t.createClient({ scope: 'accounts:read' });
    const form = { grant_type: 'client_credentials', client_id: client.id, client_secret: clientSecret };
    for (const scope of ['accounts:write', 'accounts:read export-jobs:read', 'admin']) {
      const response = await t.token({ ...form, scope });
      assert.equal(response.status, 400, scope);
      assert.equal(response.body.error, 'invalid_scope', scope);
    }
  });

  it('answers RFC 6749 errors: wrong secret and unknown client 401 invalid_client, bad grant and request 400', async () => {
    const { client, clientSecret } = await t.createClient();
    const wrong = await t.token({ grant_type: 'client_credentials' }, { authorization: basic(client.id, 'lhs_wrong') });
    assert.equal(wrong.status, 401);
    assert.deepEqual(Object.keys(wrong.body).sort(), ['error', 'error_description']);
    assert.equal(wrong.body.error, 'invalid_client');
    assert.match(String(wrong.headers['www-authenticate']), /^Basic realm="ledgerhook"/);
    const unknown = await t.token({
      grant_type: 'client_credentials',
      client_id: randomUUID(),
      client_secret: clientSecret,
    });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error, 'invalid_client');
    const notUuid = await t.token({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' });
    assert.equal(notUuid.body.error, 'invalid_client');
    const none = await t.token({ grant_type: 'client_credentials' });
    assert.equal(none.body.error, 'invalid_client');

    const form = { client_id: client.id, client_secret: clientSecret };
    const password = await t.token({ ...form, grant_type: 'password' });
    assert.equal(password.status, 400);
    assert.equal(password.body.error, 'unsupported_grant_type');
    const missing = await t.token(form);
    assert.equal(missing.body.error, 'invalid_request');
    const both = await t.token(
      { ...form, grant_type: 'client_credentials' },
      { authorization: basic(client.id, clientSecret) },
    );
    assert.equal(both.status, 400);
    assert.equal(both.body.error, 'invalid_request');
    const repeated = await t.request('POST', '/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&grant_type=client_credentials&client_id=${client.id}&client_secret=${clientSecret}`,
    });
    assert.equal(repeated.body.error, 'invalid_request');
  });

  it('answers a body the parsers refuse in OAuth terms (400 invalid_request), and names its own limits', async () => {
    for (const body of ['{"grant_type":', '{"grant_type":"\\ud800"}', '{"__proto__":{}}']) {
      const response = await t.request('POST', '/oauth/token', { headers: json, body });
      assert.equal(response.status, 400, `${body}: ${response.text}`);
      assert.equal(response.body.error, 'invalid_request');
      assert.equal(typeof response.body.error_description, 'string');
      assert.equal(response.headers['cache-control'], 'no-store');
    }
    const text = await t.request('POST', '/oauth/token', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    assert.equal(text.status, 415);
    assert.match(text.body.detail, /x-www-form-urlencoded/);
    const large = await t.request('POST', '/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&pad=${'x'.repeat(17 * 1024)}`,
    });
    assert.equal(large.status, 413);
    assert.match(large.body.detail, /16 KiB/);
  });

  it('accepts the API key as Bearer and as Basic with an empty password, with its client’s scopes and companies', async () => {
    const { client, apiKeyValue } = await t.createClient({ scope: 'accounts:read' });
    const company = client.companies[0] as string;
    assert.equal((await search(company, `Bearer ${apiKeyValue}`)).status, 200);
    assert.equal((await search(company, basic(apiKeyValue, ''))).status, 200);
    assert.equal((await search(randomUUID(), `Bearer ${apiKeyValue}`)).status, 403, 'another company');
    const write = await t.request('POST', '/v1-beta/accounts', {
      headers: { ...json, authorization: `Bearer ${apiKeyValue}` },
      body: { companyId: company, externalId: '1', name: 'Cash', archived: false },
    });
    assert.equal(write.status, 403);
    for (const authorization of [
      basic(apiKeyValue, 'a-password'),
      basic(`${apiKeyValue}x`, ''),
      `Bearer lhk_${'A'.repeat(43)}`,
      `Bearer ${apiKeyValue.slice(0, -1)}B`,
    ]) {
      const response = await search(company, authorization);
      assert.equal(response.status, 401, authorization);
      assert.equal(response.body.type, 'UNAUTHORIZED');
    }
  });

  it('refuses a revoked API key, and every credential of a revoked client, at once', async () => {
    const { client, clientSecret, apiKey, apiKeyValue } = await t.createClient();
    const company = client.companies[0] as string;
    const token = (
      await t.token({ grant_type: 'client_credentials', client_id: client.id, client_secret: clientSecret })
    ).body.access_token;
    // Both are remembered now (verified-token and key caches).
    assert.equal((await search(company, `Bearer ${token}`)).status, 200);
    assert.equal((await search(company, `Bearer ${apiKeyValue}`)).status, 200);
    const { apiKeyValue: secondKey } = await (await import('../../src/credentials/operations.ts')).createApiKey(
      t.db,
      t.pepper,
      client.id,
    );
    assert.equal((await search(company, `Bearer ${secondKey}`)).status, 200);

    assert.equal(await revokeApiKeyById(t.db, apiKey.id), true);
    await revoked(() => search(company, `Bearer ${apiKeyValue}`));
    assert.equal((await search(company, `Bearer ${secondKey}`)).status, 200, 'the other key still works');

    assert.deepEqual(await revokeClientById(t.db, client.id), { subscriptions: 0, messages: 0 });
    await revoked(() => search(company, `Bearer ${token}`));
    await revoked(() => search(company, `Bearer ${secondKey}`));
    const again = await t.token({
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: clientSecret,
    });
    assert.equal(again.status, 401);
    assert.equal(again.body.error, 'invalid_client');
    assert.equal(await revokeClientById(t.db, client.id), undefined, 'already revoked');
  });

  it('never logs a client secret, an API key or a token', async () => {
    const { client, clientSecret, apiKeyValue } = await t.createClient();
    const token = (
      await t.token({ grant_type: 'client_credentials' }, { authorization: basic(client.id, clientSecret) })
    ).body.access_token;
    await t.token({ grant_type: 'client_credentials', client_id: client.id, client_secret: `${clientSecret}x` });
    await search(client.companies[0] as string, `Bearer ${token}`);
    await search(client.companies[0] as string, basic(apiKeyValue, ''));
    await search(client.companies[0] as string, basic(apiKeyValue, 'wrong'));
    const logged = t.logs.join('');
    assert.ok(t.logs.length > 0);
    for (const secret of [clientSecret, apiKeyValue, token, Buffer.from(`${apiKeyValue}:`).toString('base64')]) {
      assert.equal(logged.includes(secret), false);
    }
    const stored = JSON.stringify(await t.db.query('SELECT * FROM clients c JOIN api_keys k ON k.client_id = c.id'));
    assert.equal(stored.includes(clientSecret), false);
    assert.equal(stored.includes(apiKeyValue), false);
  });
});

/**
 * Revocation is announced with NOTIFY. Within this process it is heard in a moment; the answer must
 * change within a few event-loop turns, long before the status cache's 5 s safety expiry.
 */
async function revoked(send: () => Promise<{ status: number; body: { type: string } }>): Promise<void> {
  const deadline = Date.now() + 1000;
  for (let attempt = 0; attempt < 1000; attempt++) {
    const response = await send();
    if (response.status === 401) {
      assert.equal(response.body.type, 'UNAUTHORIZED');
      return;
    }
    assert.equal(response.status, 200);
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail('still accepted 1 s after revocation');
}

describe('tokens that are refused', () => {
  let production: CredentialsApp;
  let staging: CredentialsApp;
  before(async () => {
    production = await startCredentialsApp();
    // The other deployment, even when it (wrongly) shares the signing key and the database.
    staging = await startCredentialsApp({
      environment: 'staging',
      signingKey: production.signingKey,
      db: production.db,
    });
  });
  after(async () => {
    await staging.close();
    await production.close();
  });

  const call = (app: CredentialsApp, token: string, companyId: string) =>
    app.request('POST', '/v1-beta/accounts:search', {
      headers: { ...json, authorization: `Bearer ${token}` },
      body: { companyId },
    });

  async function tokenFor(app: CredentialsApp) {
    const { client, clientSecret } = await app.createClient();
    const response = await app.token({
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: clientSecret,
    });
    assert.equal(response.status, 200, response.text);
    return { token: response.body.access_token as string, company: client.companies[0] as string, client };
  }

  const expectRefused = async (app: CredentialsApp, token: string, company: string, detail: RegExp) => {
    const response = await call(app, token, company);
    assert.equal(response.status, 401, response.text);
    assert.equal(response.headers['www-authenticate'], 'Bearer');
    assert.equal(response.body.type, 'UNAUTHORIZED');
    assert.match(response.body.detail, detail);
  };

  it('refuses a staging token in production and the reverse', async () => {
    const fromStaging = await tokenFor(staging);
    assert.equal((await call(staging, fromStaging.token, fromStaging.company)).status, 200);
    await expectRefused(production, fromStaging.token, fromStaging.company, /not valid here/);
    const fromProduction = await tokenFor(production);
    await expectRefused(staging, fromProduction.token, fromProduction.company, /not valid here/);
  });

  it('refuses an expired token', async () => {
    const { client, company } = await tokenFor(production);
    const expired = await new SignJWT({ scope: 'accounts:read', companies: [company], client_id: client.id })
      .setProtectedHeader({ alg: 'ES256', kid: production.signingKey.publicJwk.kid })
      .setSubject(client.id)
      .setIssuer('https://production.ledgerhook.test')
      .setAudience('ledgerhook-production')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(production.signingKey.privateKey);
    await expectRefused(production, expired, company, /expired/);
  });

  it('refuses a tampered token: changed claims, changed signature', async () => {
    const { token, company } = await tokenFor(production);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...claims, scope: 'accounts:write export-jobs:write' })).toString(
      'base64url',
    );
    await expectRefused(production, `${header}.${widened}.${signature}`, company, /signature/);
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    await expectRefused(production, `${header}.${payload}.${flipped}`, company, /signature|malformed/);
  });

  it('refuses alg none, and HS256 signed with the published public key (algorithm confusion)', async () => {
    const { token, company } = await tokenFor(production);
    const claims = decodeJwt(token);
    const kid = production.signingKey.publicJwk.kid;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${token.split('.')[1]}.`;
    await expectRefused(production, none, company, /algorithm|malformed/);
    const jwks = (await production.request('GET', '/.well-known/jwks.json')).body;
    const publicPem = production.signingKey.publicKey.export({ format: 'pem', type: 'spki' }) as string;
    for (const keyBytes of [JSON.stringify(jwks.keys[0]), publicPem]) {
      const confused = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', kid })
        .sign(new TextEncoder().encode(keyBytes));
      await expectRefused(production, confused, company, /algorithm/);
      // Without our kid it goes to the HS256 path, where the public key is not the secret.
      const noKid = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(keyBytes));
      await expectRefused(production, noKid, company, /signature/);
    }
  });

  it('refuses an ES256 token signed by another key that claims our kid', async () => {
    const { token, company } = await tokenFor(production);
    const other = await startCredentialsApp({ db: production.db });
    try {
      const forged = await new SignJWT(decodeJwt(token))
        .setProtectedHeader({ alg: 'ES256', kid: production.signingKey.publicJwk.kid })
        .sign(other.signingKey.privateKey);
      await expectRefused(production, forged, company, /signature/);
    } finally {
      await other.close();
    }
  });

  it('still accepts externally minted HS256 tokens (AUTH_JWT_SECRET)', async () => {
    const { mintToken } = await import('../../src/auth/mint-token.ts');
    const { TEST_JWT_SECRET } = await import('../support/harness.ts');
    const company = randomUUID();
    const token = await mintToken(TEST_JWT_SECRET, {
      subject: randomUUID(),
      companies: [company],
      scope: 'accounts:read',
    });
    assert.equal((await call(production, token, company)).status, 200);
  });

  it('lists the deployment’s own base address as the OpenAPI server, and the token endpoint', async () => {
    const document = (await production.request('GET', '/openapi.json')).body;
    assert.deepEqual(document.servers, [{ url: 'https://production.ledgerhook.test' }]);
    assert.ok(document.paths['/oauth/token'].post);
    assert.equal(
      document.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl,
      'https://production.ledgerhook.test/oauth/token',
    );
    const stagingDocument = (await staging.request('GET', '/openapi.json')).body;
    assert.deepEqual(stagingDocument.servers, [{ url: 'https://staging.ledgerhook.test' }]);
  });
});
