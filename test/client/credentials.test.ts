// The client's three credentials against a real service (an API key, a token of your own, an OAuth
// client whose token it fetches), and when it fetches a token again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientCredentials } from '../../clients/typescript/src/credentials.ts';
import { Ledgerhook, LedgerhookError } from '../../clients/typescript/src/index.ts';
import { revokeClientById } from '../../src/credentials/operations.ts';
import { type ClientTestService, recordingFetch, type SentRequest, startClientTestService } from './support.ts';

let t: ClientTestService;
before(async () => {
  t = await startClientTestService();
});
after(() => t?.close());

/**
 * Waits until the service refuses `authorization`. A revocation reaches the service's
 * credential cache through a notification, a moment after the revoking transaction commits.
 */
async function untilRefused(baseUrl: string, companyId: string, authorization: string | null | undefined) {
  assert.ok(authorization, 'the client sent its token');
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/v1-beta/accounts:search`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ companyId }),
    });
    await response.body?.cancel();
    if (response.status === 401) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail('the revoked client is still accepted 2 s later');
}

const tokenRequests = (sent: SentRequest[]) => sent.filter((request) => request.url.pathname === '/oauth/token');

describe('credentials', () => {
  it('sends an API key, or a token of your own, as the bearer', async () => {
    const { companyId, apiKey } = await t.application();
    const byKey = new Ledgerhook({ baseUrl: t.baseUrl, apiKey });
    const created = await byKey.accounts.create({ companyId, externalId: '1', name: 'Cash', archived: false });
    const byToken = new Ledgerhook({ baseUrl: `${t.baseUrl}/`, token: await t.token(companyId) });
    assert.equal((await byToken.accounts.get(created.id)).name, 'Cash');
  });

  it('fetches one OAuth token for concurrent requests and keeps it while it is fresh', async () => {
    const { companyId, clientId, clientSecret } = await t.application();
    const sent: SentRequest[] = [];
    const lh = new Ledgerhook({ baseUrl: t.baseUrl, clientId, clientSecret, fetch: recordingFetch(sent) });
    const created = await Promise.all(
      ['1', '2', '3'].map((externalId) => lh.accounts.create({ companyId, externalId, name: 'A', archived: false })),
    );
    assert.equal(created.length, 3);
    await lh.accounts.get(created[0]?.id as string);
    assert.equal(tokenRequests(sent).length, 1);
    assert.equal(sent.length, 5);
  });

  it('asks for a narrower scope, and the service holds the token to it', async () => {
    const { companyId, clientId, clientSecret } = await t.application();
    const lh = new Ledgerhook({ baseUrl: t.baseUrl, clientId, clientSecret, scope: 'accounts:read' });
    const refused = await lh.accounts
      .create({ companyId, externalId: '1', name: 'A', archived: false })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof LedgerhookError);
    assert.equal(refused.status, 403);
    assert.equal(refused.type, 'FORBIDDEN');
  });

  it("throws the token endpoint's refusal as a LedgerhookError", async () => {
    const { companyId, clientId } = await t.application();
    const lh = new Ledgerhook({ baseUrl: t.baseUrl, clientId, clientSecret: 'lhs_wrong' });
    const refused = await lh.accounts
      .search({ companyId })
      .page()
      .catch((error: unknown) => error);
    assert.ok(refused instanceof LedgerhookError);
    assert.equal(refused.status, 401);
    assert.equal(refused.type, 'invalid_client');
    assert.match(refused.message, /.+/);
  });

  it('asks for a new token once when the service refuses the one it holds', async () => {
    const { companyId, clientId, clientSecret } = await t.application();
    const sent: SentRequest[] = [];
    const lh = new Ledgerhook({ baseUrl: t.baseUrl, clientId, clientSecret, fetch: recordingFetch(sent) });
    await lh.accounts.search({ companyId }).page();
    await revokeClientById(t.service.db, clientId);
    await untilRefused(t.baseUrl, companyId, sent[1]?.authorization);
    // The held token is refused (401), so the client asks for another, which the token endpoint refuses.
    const refused = await lh.accounts
      .search({ companyId })
      .page()
      .catch((error: unknown) => error);
    assert.ok(refused instanceof LedgerhookError);
    assert.equal(refused.type, 'invalid_client');
    assert.deepEqual(
      sent.map((request) => `${request.url.pathname} ${request.status}`),
      ['/oauth/token 200', '/v1-beta/accounts:search 200', '/v1-beta/accounts:search 401', '/oauth/token 401'],
    );
  });

  it('refuses to start without a credential', () => {
    assert.throws(() => new Ledgerhook({ baseUrl: t.baseUrl } as never), TypeError);
  });
});

describe('an OAuth token fetched again', () => {
  const answer = (token: string, expiresIn: number) => ({
    body: { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: 'accounts:read' },
  });

  it('before it expires: once a fifth of its lifetime (at most a minute) is left', async () => {
    let now = 0;
    const forms: URLSearchParams[] = [];
    const tokens = ['one', 'two'];
    const authorizer = clientCredentials(
      { clientId: 'id', clientSecret: 'secret', scope: 'accounts:read' },
      async (form) => {
        forms.push(form);
        return answer(tokens[forms.length - 1] as string, 3600);
      },
      () => now,
    );
    assert.equal(await authorizer.header(), 'Bearer one');
    assert.equal(forms[0]?.get('grant_type'), 'client_credentials');
    assert.equal(forms[0]?.get('client_id'), 'id');
    assert.equal(forms[0]?.get('scope'), 'accounts:read');
    now = 3_539_999;
    assert.equal(await authorizer.header(), 'Bearer one');
    now = 3_540_000;
    assert.equal(await authorizer.header(), 'Bearer two');
    assert.equal(forms.length, 2);
  });

  it('after the service refused it (401), once', async () => {
    let count = 0;
    const authorizer = clientCredentials({ clientId: 'id', clientSecret: 's' }, async () => answer(`t${++count}`, 60));
    assert.equal(await authorizer.header(), 'Bearer t1');
    assert.equal(authorizer.refused(), true, 'a cached token was dropped: worth one retry');
    assert.equal(await authorizer.header(), 'Bearer t2');
  });

  it('after a failed token request: the next request asks again', async () => {
    let count = 0;
    const authorizer = clientCredentials({ clientId: 'id', clientSecret: 's' }, async () => {
      if (++count === 1) throw new Error('down');
      return answer('t', 60);
    });
    await assert.rejects(authorizer.header(), /down/);
    assert.equal(await authorizer.header(), 'Bearer t');
  });
});
