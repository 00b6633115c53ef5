// Two API processes on one PostgreSQL database, as the README's production block starts them behind a
// load balancer: a client's token from either process's /oauth/token must be accepted by the other.
// They share OAUTH_SIGNING_KEY (made by `ledgerhook oauth-signing-key`) and PUBLIC_BASE_URL, the
// `iss` of every token; without PUBLIC_BASE_URL each process issues tokens under its own address,
// refuses the other's, and says so when it starts (docs/decisions/credentials.md).
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { PGLITE_PASS_ONLY, POSTGRES_PASS_ONLY, TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { seededDataDir } from '../support/pglite-image.ts';
import { runCli, type Served, startServe } from './processes.ts';

const PUBLIC_BASE_URL = 'https://api.ledgerhook.test';
// Settings of the test's environment that would change what is tested.
const CLEAN = {
  DATA_DIR: '',
  AUTH_JWT_SECRET: '',
  AUTH_JWKS_URL: '',
  PUBLIC_BASE_URL: '',
  REDIS_URL: '',
  AUTH_FAILURE_LIMIT_MAX: '0',
};

/** The start-up warning about the issuer, from a process's JSON log lines. */
function issuerWarnings(server: Served): { level: number; msg: string }[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((entry) => entry.msg.startsWith('PUBLIC_BASE_URL is not set'));
}

describe('API processes on one PostgreSQL database, tokens from either', {
  timeout: 180_000,
  skip: POSTGRES_PASS_ONLY,
}, () => {
  let target: WorkerDatabase;
  let env: Record<string, string>;
  const company = randomUUID();
  let client: { client_id: string; client_secret: string };
  const servers: Served[] = [];
  const start = async (settings: Record<string, string>) => {
    const server = await startServe({ ...env, ...settings });
    servers.push(server);
    return server;
  };
  const stopAll = () => Promise.all(servers.splice(0).map((server) => server.stop()));

  before(async () => {
    target = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_shared_issuer');
    const { stdout: key } = await runCli(['oauth-signing-key'], {});
    env = {
      ...CLEAN,
      ...target.env,
      OAUTH_SIGNING_KEY: key.trim(),
      API_KEY_PEPPER: randomBytes(32).toString('base64url'),
    };
    const created = await runCli(
      ['clients', 'create', '--name', 'Behind a balancer', '--company', company, '--scope', 'accounts:read', '--json'],
      env,
    );
    client = JSON.parse(created.stdout);
  });
  after(async () => {
    await stopAll();
    await target?.drop();
  });

  const tokenFrom = async (server: Served) => {
    const response = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await response.json()) as { access_token: string };
    assert.equal(response.status, 200, JSON.stringify(body));
    return body.access_token;
  };
  const searchAt = async (server: Served, token: string) => {
    const response = await fetch(`${server.url}/v1-beta/accounts:search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ companyId: company }),
    });
    return { status: response.status, body: await response.text() };
  };

  it('accepts each process’s tokens at the other when they share PUBLIC_BASE_URL', async () => {
    const [first, second] = await Promise.all([start({ PUBLIC_BASE_URL }), start({ PUBLIC_BASE_URL })]);
    for (const [issuing, receiving] of [
      [first, second],
      [second, first],
    ] as const) {
      const token = await tokenFrom(issuing);
      assert.equal(decodeJwt(token).iss, PUBLIC_BASE_URL);
      const answer = await searchAt(receiving, token);
      assert.equal(answer.status, 200, answer.body);
    }
    await stopAll(); // their start-up lines are all read then
    assert.deepEqual([...issuerWarnings(first), ...issuerWarnings(second)], []);
  });

  it('without PUBLIC_BASE_URL, warns at start and refuses the other process’s tokens', async () => {
    // Two addresses of this machine, so that the processes' own addresses differ as two hosts' would.
    const [first, second] = await Promise.all([start({ HOST: '127.0.0.1' }), start({ HOST: '127.0.0.2' })]);
    const token = await tokenFrom(first);
    assert.equal((await searchAt(first, token)).status, 200);
    assert.equal((await searchAt(second, token)).status, 401);
    await stopAll();
    // PORT=0 (any free port) is the port of the address the setting's default is made of.
    for (const [server, own] of [
      [first, 'http://127.0.0.1:0'],
      [second, 'http://127.0.0.2:0'],
    ] as const) {
      const warnings = issuerWarnings(server);
      assert.equal(warnings.length, 1, server.output());
      assert.equal(warnings[0]?.level, 40);
      assert.ok(warnings[0]?.msg.includes(`its own address (${own}) as issuer`), warnings[0]?.msg);
    }
  });
});

describe('one process on the embedded database', { timeout: 120_000, skip: PGLITE_PASS_ONLY }, () => {
  let dataDir: string;
  let server: Served | undefined;
  before(async () => {
    dataDir = await seededDataDir('ledgerhook-issuer');
  });
  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('issues tokens under its own address without a warning: no other process shares its data', async () => {
    server = await startServe({ ...CLEAN, DATABASE_URL: '', OAUTH_SIGNING_KEY: '', DATA_DIR: dataDir });
    const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    assert.equal(jwks.keys.length, 1); // the token endpoint is on, with a key kept in DATA_DIR
    await server.stop();
    assert.deepEqual(issuerWarnings(server), []);
  });
});
