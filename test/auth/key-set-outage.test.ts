import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, beforeEach, describe, it, mock } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { KeySetUnavailableError, remoteKeySet } from '../../src/auth/remote-key-set.ts';
import { createTokenVerifier } from '../../src/auth/verify-token.ts';
import { startTestApp } from '../support/harness.ts';

// An identity provider's JWKS endpoint on 127.0.0.1 that can be made to fail, and counts its fetches.
// It publishes two RS256 keys, so that a token without `kid` matches both.
type Mode = 'ok' | 'error' | 'garbage';
let server: Server;
let jwksUrl: URL;
let mode: Mode = 'ok';
let fetches = 0;
const keys: { privateKey: CryptoKey; jwk: JWK }[] = [];

before(async () => {
  for (const kid of ['first', 'second']) {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    keys.push({ privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } });
  }
  server = createServer((_request, response) => {
    fetches++;
    if (mode === 'error') return response.writeHead(500).end('down');
    response.setHeader('content-type', 'application/json');
    response.end(mode === 'garbage' ? '{"no":"keys"}' : JSON.stringify({ keys: keys.map((k) => k.jwk) }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  jwksUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`);
});
after(() => server.close());

const sign = (key: { privateKey: CryptoKey; jwk: JWK }, companies: string[], kid: string | undefined = key.jwk.kid) =>
  new SignJWT({ scope: 'accounts:write', companies })
    .setProtectedHeader({ alg: 'RS256', ...(kid ? { kid } : {}) })
    .setSubject(randomUUID())
    .setExpirationTime('5m')
    .sign(key.privateKey);
const header = { alg: 'RS256', kid: 'first' };
const flattened = { payload: '', signature: '' };

describe('a key set that cannot be fetched', () => {
  it('answers 503 with Retry-After, not 401, and never counts it as a failed authentication', async () => {
    mode = 'error';
    fetches = 0;
    const t = await startTestApp({
      verifyToken: createTokenVerifier({ jwksUrl: jwksUrl.href }),
      rateLimits: { max: 0, windowMs: 60_000, authFailureMax: 2, authFailureWindowMs: 60_000 },
    });
    try {
      const company = randomUUID();
      const token = await sign(keys[0] as never, [company]);
      // Past authFailureMax, a counted failure would make the next one 429.
      for (let i = 0; i < 4; i++) {
        const response = await t.request('POST', '/v1-beta/accounts:search', { token, body: { companyId: company } });
        assert.equal(response.status, 503, response.text);
        assert.equal(response.body.type, 'SERVICE_UNAVAILABLE');
        assert.equal(response.headers['retry-after'], '2');
      }
      // A failed first fetch is not tried again at once: one fetch, not one per request.
      assert.equal(fetches, 1);
    } finally {
      await t.close();
    }
  });

  describe('on a clock the test moves', () => {
    beforeEach(() => mock.timers.enable({ apis: ['Date'], now: Date.now() }));
    afterEach(() => mock.timers.reset());

    it('serves the last key set fetched when a refresh fails, for up to a day', async () => {
      mode = 'ok';
      fetches = 0;
      const getKey = remoteKeySet(jwksUrl);
      assert.ok(await getKey(header, flattened));
      mode = 'garbage';
      mock.timers.tick(11 * 60 * 1000); // past jose's 10 minutes: the next use refreshes
      assert.ok(await getKey(header, flattened));
      mode = 'error';
      mock.timers.tick(11 * 60 * 1000);
      assert.ok(await getKey(header, flattened));
      assert.equal(fetches, 3);
      mock.timers.tick(24 * 60 * 60 * 1000);
      await assert.rejects(async () => getKey(header, flattened), KeySetUnavailableError);
      // A day-old key set serves no more, and the next failed fetch waits its 5 s too.
      await assert.rejects(async () => getKey(header, flattened), KeySetUnavailableError);
      assert.equal(fetches, 4);
    });

    it('waits 5 s after a failed fetch before fetching again, then recovers', async () => {
      mode = 'error';
      fetches = 0;
      const getKey = remoteKeySet(jwksUrl);
      await assert.rejects(async () => getKey(header, flattened), KeySetUnavailableError);
      await assert.rejects(async () => getKey(header, flattened), KeySetUnavailableError);
      assert.equal(fetches, 1);
      mode = 'ok';
      mock.timers.tick(5000);
      assert.ok(await getKey(header, flattened));
      assert.equal(fetches, 2);
    });
  });
});

describe('a token without kid', () => {
  it('is verified against each published key of its type', async () => {
    mode = 'ok';
    const verify = createTokenVerifier({ jwksUrl: jwksUrl.href });
    const company = randomUUID();
    const principal = await verify(await sign(keys[1] as never, [company], undefined));
    assert.deepEqual([...principal.companies], [company]);
    const { privateKey: unknown } = await generateKeyPair('RS256');
    await assert.rejects(
      async () => verify(await sign({ privateKey: unknown, jwk: {} }, [company], undefined)),
      /signature is not valid/,
    );
  });
});
