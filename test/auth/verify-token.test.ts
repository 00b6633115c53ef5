import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { createTokenVerifier, InvalidTokenError } from '../../src/auth/verify-token.ts';

// A JWKS endpoint on 127.0.0.1 publishing one ES256 and one RS256 key, as an identity provider would.
let server: Server;
let jwksUrl: string;
const keys: Record<'ES256' | 'RS256', { privateKey: CryptoKey; jwk: JWK }> = {} as never;

before(async () => {
  for (const alg of ['ES256', 'RS256'] as const) {
    const { privateKey, publicKey } = await generateKeyPair(alg);
    keys[alg] = { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: alg, alg, use: 'sig' } };
  }
  server = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: [keys.ES256.jwk, keys.RS256.jwk] }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
});
after(() => server.close());

const claims = () => ({ scope: 'accounts:read', companies: [randomUUID()] });
const sign = (alg: 'ES256' | 'RS256', options: { issuer?: string; audience?: string } = {}) => {
  const jwt = new SignJWT(claims())
    .setProtectedHeader({ alg, kid: alg })
    .setSubject(randomUUID())
    .setExpirationTime('5m');
  if (options.issuer) jwt.setIssuer(options.issuer);
  if (options.audience) jwt.setAudience(options.audience);
  return jwt.sign(keys[alg].privateKey);
};

describe('token verification through JWKS', () => {
  const options = () => ({ jwksUrl, issuer: 'https://id.example', audience: 'ledgerhook-production' });

  for (const alg of ['ES256', 'RS256'] as const) {
    it(`accepts ${alg} tokens with the configured issuer and audience`, async () => {
      const verify = createTokenVerifier(options());
      const principal = await verify(
        await sign(alg, { issuer: 'https://id.example', audience: 'ledgerhook-production' }),
      );
      assert.equal(principal.scopes.has('accounts:read'), true);
      assert.equal(principal.companies.size, 1);
    });
  }

  it('refuses a token for another audience (the staging deployment) or from another issuer', async () => {
    const verify = createTokenVerifier(options());
    for (const token of [
      await sign('ES256', { issuer: 'https://id.example', audience: 'ledgerhook-staging' }),
      await sign('ES256', { issuer: 'https://evil.example', audience: 'ledgerhook-production' }),
      await sign('ES256'),
    ]) {
      await assert.rejects(async () => verify(token), InvalidTokenError);
    }
  });

  it('refuses an HS256 token signed with a published key (algorithm confusion) and alg none', async () => {
    const verify = createTokenVerifier(options());
    const confused = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: 'RS256' })
      .setSubject(randomUUID())
      .setIssuer('https://id.example')
      .setAudience('ledgerhook-production')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(JSON.stringify(keys.RS256.jwk)));
    await assert.rejects(async () => verify(confused), /algorithm/);
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ ...claims(), sub: randomUUID(), exp: 2e9 })).toString('base64url');
    await assert.rejects(async () => verify(`${header}.${payload}.`), InvalidTokenError);
  });
});

describe('token verification with a shared secret', () => {
  it('accepts only HS256 tokens signed with the secret', async () => {
    const verify = createTokenVerifier({ secret: 'a-shared-secret-for-hs256-tokens!' });
    const good = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(randomUUID())
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-for-hs256-tokens!'));
    assert.equal((await verify(good)).scopes.has('accounts:read'), true);
    await assert.rejects(async () => verify(await sign('ES256')), /algorithm/);
  });
});

describe('the issue time of a token', () => {
  it('accepts an `iat` up to a minute ahead of our clock, and refuses one further in the future', async () => {
    const secret = 'a-shared-secret-for-hs256-tokens!';
    const verify = createTokenVerifier({ secret });
    const issuedIn = (seconds: number) =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(randomUUID())
        .setIssuedAt(Math.floor(Date.now() / 1000) + seconds)
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
    assert.equal((await verify(await issuedIn(0))).companies.size, 1);
    assert.equal((await verify(await issuedIn(30))).companies.size, 1, 'a clock a little ahead is tolerated');
    await assert.rejects(async () => verify(await issuedIn(120)), /issued in the future/);
    await assert.rejects(async () => verify(await issuedIn(365 * 24 * 3600)), /issued in the future/);
  });
});

describe('token verification with both a shared secret and a JWKS', () => {
  it('accepts each algorithm with its own key, and never a published key as the HMAC secret', async () => {
    const secret = 'a-shared-secret-for-hs256-tokens!';
    const issued = { issuer: 'https://id.example', audience: 'ledgerhook-production' };
    const verify = createTokenVerifier({ secret, jwksUrl, ...issued });
    const hs256 = (key: string) =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256', kid: 'RS256' })
        .setSubject(randomUUID())
        .setIssuer(issued.issuer)
        .setAudience(issued.audience)
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(key));
    assert.equal((await verify(await hs256(secret))).companies.size, 1);
    assert.equal((await verify(await sign('RS256', issued))).companies.size, 1);
    assert.equal((await verify(await sign('ES256', issued))).companies.size, 1);
    await assert.rejects(async () => verify(await hs256(JSON.stringify(keys.RS256.jwk))), /signature/);
    // iss and aud hold for HS256 tokens too.
    const bare = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(randomUUID())
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret));
    await assert.rejects(async () => verify(bare), InvalidTokenError);
  });
});

describe('the cache of verified tokens', () => {
  it('answers only the token it verified, not another payload under the same signature', async () => {
    const secret = 'a-shared-secret-for-hs256-tokens!';
    const verify = createTokenVerifier({ secret });
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(randomUUID())
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret));
    const first = await verify(token);
    assert.equal(verify(token), first, 'the second check is answered from the cache, without waiting');

    const [header, , signature] = token.split('.');
    const widened = Buffer.from(
      JSON.stringify({ ...claims(), sub: first.subject, scope: 'accounts:write', exp: 2e9 }),
    ).toString('base64url');
    await assert.rejects(async () => verify(`${header}.${widened}.${signature}`), /signature/);
  });
});
