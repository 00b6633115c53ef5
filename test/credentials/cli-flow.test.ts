// The whole integration set-up as an operator and an integrator do it: `ledgerhook clients create`,
// then HTTP with the printed credentials, then `ledgerhook clients revoke` beside the live server (on
// an embedded DATA_DIR through the server's socket: cli-beside-service.test.ts).
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { seededDataDir } from '../support/pglite-image.ts';
import { runCli, type Served, startServe } from './processes.ts';

interface Printed {
  client_id: string;
  client_secret: string;
  api_key_id: string;
  api_key: string;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe(`integration set-up through the CLI and HTTP (${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'})`, () => {
  const env: Record<string, string> = {
    DATABASE_URL: '',
    AUTH_JWT_SECRET: '',
    AUTH_JWKS_URL: '',
    OAUTH_SIGNING_KEY: '',
    API_KEY_PEPPER: '',
    REDIS_URL: '',
    RATE_LIMIT_MAX: '1000',
    AUTH_FAILURE_LIMIT_MAX: '0',
  };
  let dropDatabase = async () => {};
  before(async () => {
    if (TEST_DATABASE_URL) {
      const name = `credentials_cli_${randomBytes(5).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
      // Processes sharing a database share the signing key and the pepper, configured.
      env.OAUTH_SIGNING_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString();
      env.API_KEY_PEPPER = randomBytes(32).toString('base64url');
      dropDatabase = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } else {
      const dataDir = await seededDataDir('ledgerhook-credentials');
      env.DATA_DIR = dataDir;
      dropDatabase = async () => rmSync(dataDir, { recursive: true, force: true });
    }
  });
  after(() => dropDatabase());

  let server: Served | undefined;
  const outputs: (() => string)[] = [];
  const start = async () => {
    server = await startServe(env);
    outputs.push(server.output);
    return server;
  };
  after(() => server?.stop());

  const company = randomUUID();
  const account = { companyId: company, externalId: '1000', name: 'Cash', archived: false };
  const tokenRequest = (url: string, printed: Printed) =>
    fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${printed.client_id}:${printed.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
  const getAccount = (url: string, id: string, authorization: string) =>
    fetch(`${url}/v1-beta/accounts/${id}`, { headers: { authorization } });

  it('creates a client, gets a token, calls accounts with it and with the API key both ways, revokes, is refused', async () => {
    // 1. The operator registers the integration; the secrets are printed once.
    const created = await runCli(
      [
        'clients',
        'create',
        '--name',
        'Acme books',
        '--company',
        company,
        '--scope',
        'accounts:write export-jobs:write',
        '--json',
      ],
      env,
    );
    const printed: Printed = JSON.parse(created.stdout);
    assert.match(printed.client_secret, /^lhs_/);
    assert.match(printed.api_key, /^lhk_/);
    const second = JSON.parse(
      (await runCli(['api-keys', 'create', '--client', printed.client_id, '--json'], env)).stdout,
    );
    const listed = (await runCli(['clients', 'list'], env)).stdout;
    assert.match(listed, new RegExp(printed.client_id));
    for (const secret of [printed.client_secret, printed.api_key, second.api_key])
      assert.equal(listed.includes(secret), false);

    // 2. The integrator gets a token and calls the API with it and with the keys.
    server = await start();
    const tokenResponse = await tokenRequest(server.url, printed);
    assert.equal(tokenResponse.status, 200);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const createdAccount = await fetch(`${server.url}/v1-beta/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    assert.equal(createdAccount.status, 201);
    const { data } = (await createdAccount.json()) as { data: { id: string } };
    const byKey = `Bearer ${printed.api_key}`;
    const byBasic = `Basic ${Buffer.from(`${printed.api_key}:`).toString('base64')}`;
    const bySecondKey = `Bearer ${second.api_key}`;
    for (const authorization of [`Bearer ${token}`, byKey, byBasic, bySecondKey]) {
      assert.equal((await getAccount(server.url, data.id, authorization)).status, 200, authorization.slice(0, 12));
    }
    const subscribed = await fetch(`${server.url}/v1/subscriptions`, {
      method: 'POST',
      headers: { authorization: byKey, 'content-type': 'application/json' },
      body: JSON.stringify({ eventTypes: ['v1.export-job.created'], endpointUrl: 'https://hooks.example.com/acme' }),
    });
    assert.equal(subscribed.status, 200);

    // 3. The operator revokes one key, then the client, while the server runs.
    const revoke = async (args: string[]) => (await runCli(args, env)).stdout;
    await revoke(['api-keys', 'revoke', second.api_key_id]);
    const { url } = server;
    await refused(() => getAccount(url, data.id, bySecondKey));
    assert.equal((await getAccount(url, data.id, byKey)).status, 200);
    const revokedClient = await revoke(['clients', 'revoke', printed.client_id]);
    assert.match(revokedClient, /1 subscription\(s\) set INACTIVE/);
    for (const authorization of [`Bearer ${token}`, byKey, byBasic]) {
      await refused(() => getAccount(url, data.id, authorization));
    }
    const again = await tokenRequest(url, printed);
    assert.equal(again.status, 401);
    assert.equal(((await again.json()) as { error: string }).error, 'invalid_client');

    // 4. Nothing secret reached the logs (all written once the server has stopped).
    await server?.stop();
    const logs = outputs.map((output) => output()).join('');
    assert.ok(logs.includes('"url":"/oauth/token"'));
    for (const secret of [printed.client_secret, printed.api_key, second.api_key, token]) {
      assert.equal(logs.includes(secret), false);
    }
  });

  it('refuses a revoke of an unknown id and a create with an unknown scope, exit code 2', async () => {
    for (const args of [
      ['clients', 'revoke', randomUUID()],
      ['clients', 'create', '--name', 'x', '--company', company, '--scope', 'accounts:admin'],
      ['clients', 'create', '--name', 'x', '--company', 'not-a-uuid', '--scope', 'accounts:read'],
    ]) {
      await assert.rejects(runCli(args, env), (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 2, String(error.stderr));
        return true;
      });
    }
  });
});

/**
 * The next request is refused. On PostgreSQL the server hears the revocation through NOTIFY, a moment
 * after the CLI committed (an embedded server commits it itself); it must be well within 1 s (the
 * status cache's safety expiry is 5 s).
 */
async function refused(send: () => Promise<Response>): Promise<void> {
  const deadline = Date.now() + 1000;
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await send();
    const body = await response.text();
    if (response.status === 401) return;
    assert.equal(response.status, 200, body);
    if (Date.now() > deadline) break;
    await sleep(5);
  }
  assert.fail('still accepted 1 s after the revocation');
}
