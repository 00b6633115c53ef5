import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveOAuthSigningKey } from '../../src/auth/oauth-signing-key.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { resolveApiKeyPepper } from '../../src/credentials/api-key-pepper.ts';
import { runCli } from './processes.ts';

describe('the OAuth signing key and the API key pepper', () => {
  const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

  it('reads OAUTH_SIGNING_KEY as PEM or JWK, and refuses other keys', async () => {
    const key = p256();
    const base = { databaseUrl: 'postgres://x', dataDir: '' };
    const pem = await resolveOAuthSigningKey({
      ...base,
      oauthSigningKey: key.export({ format: 'pem', type: 'pkcs8' }) as string,
    });
    const jwk = await resolveOAuthSigningKey({
      ...base,
      oauthSigningKey: JSON.stringify(key.export({ format: 'jwk' })),
    });
    assert.equal(pem?.publicJwk.kid, jwk?.publicJwk.kid);
    assert.equal(pem?.publicJwk.alg, 'ES256');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    await assert.rejects(resolveOAuthSigningKey({ ...base, oauthSigningKey: rsa as string }), ConfigError);
    await assert.rejects(resolveOAuthSigningKey({ ...base, oauthSigningKey: 'not a key' }), ConfigError);
    assert.equal(await resolveOAuthSigningKey({ ...base, oauthSigningKey: undefined }), undefined);
  });

  it('`ledgerhook oauth-signing-key` prints a new key, one line of JWK, that OAUTH_SIGNING_KEY takes', async () => {
    // It reads no setting: a wrong one beside it does not stop it.
    const printed = await Promise.all([
      runCli(['oauth-signing-key'], {}),
      runCli(['oauth-signing-key'], { PORT: 'not-a-port' }),
    ]);
    const kids = [];
    for (const { stdout, stderr } of printed) {
      assert.equal(stderr, '');
      assert.match(stdout, /^\{"[^\n]+\}\n$/);
      const key = await resolveOAuthSigningKey({ databaseUrl: 'postgres://x', dataDir: '', oauthSigningKey: stdout });
      assert.equal(key?.publicJwk.crv, 'P-256');
      kids.push(key?.publicJwk.kid);
    }
    assert.notEqual(kids[0], kids[1]);
  });

  it('generates both in DATA_DIR once, mode 0600, and keeps them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ledgerhook-keys-'));
    try {
      const settings = {
        databaseUrl: undefined,
        dataDir,
        oauthSigningKey: undefined,
        apiKeyPepper: undefined,
        authJwtSecret: undefined,
      };
      const first = await resolveOAuthSigningKey(settings);
      const again = await resolveOAuthSigningKey(settings);
      assert.equal(first?.source, 'generated');
      assert.equal(again?.source, 'data-dir');
      assert.equal(first?.publicJwk.kid, again?.publicJwk.kid);
      assert.deepEqual(resolveApiKeyPepper(settings), resolveApiKeyPepper(settings));
      for (const file of ['oauth-signing-key.pem', 'api-key-pepper']) {
        assert.equal(statSync(join(dataDir, file)).mode & 0o777, 0o600);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('needs API_KEY_PEPPER or AUTH_JWT_SECRET with PostgreSQL', () => {
    const base = { databaseUrl: 'postgres://x', dataDir: '', apiKeyPepper: undefined, authJwtSecret: undefined };
    assert.equal(resolveApiKeyPepper(base), undefined);
    assert.ok(resolveApiKeyPepper({ ...base, authJwtSecret: 'a-secret' }));
    assert.deepEqual(resolveApiKeyPepper({ ...base, apiKeyPepper: 'p' }), Buffer.from('p'));
  });
});

describe('credential settings', () => {
  it('has defaults', () => {
    const config = loadConfig({});
    assert.equal(config.publicBaseUrl, 'http://127.0.0.1:8080');
    assert.equal(config.publicBaseUrlSet, false);
    assert.equal(config.oauthTokenTtlSeconds, 3600);
    assert.equal(config.rateLimitMax, 1000);
    assert.equal(config.rateLimitWindowMs, 60_000);
    assert.equal(config.authFailureLimitMax, 20);
    assert.equal(config.authFailureLimitWindowMs, 300_000);
    assert.equal(config.redisUrl, undefined);
  });

  it('reads them, and refuses malformed values with a message naming the setting', () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: 'https://api.example/',
      RATE_LIMIT_MAX: '5',
      RATE_LIMIT_WINDOW: '10s',
    });
    assert.equal(config.publicBaseUrl, 'https://api.example');
    assert.equal(config.publicBaseUrlSet, true);
    assert.equal(config.rateLimitMax, 5);
    assert.equal(config.rateLimitWindowMs, 10_000);
    for (const [name, value] of [
      ['PUBLIC_BASE_URL', 'api.example'],
      ['PUBLIC_BASE_URL', 'ftp://api.example'],
      ['RATE_LIMIT_MAX', '-1'],
      ['RATE_LIMIT_WINDOW', 'soon'],
      ['OAUTH_TOKEN_TTL', '0'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: Error) => error instanceof ConfigError && error.message.includes(name),
      );
    }
  });
});
