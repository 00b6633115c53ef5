// Tokens that fit a request (src/auth/token-size.ts): Node answers 431 to a request whose line and
// headers pass 16 KiB, so neither `ledgerhook token` nor `clients create` makes a token that would
// be refused on every request; a token of 200 companies is issued and accepted over real HTTP.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../src/auth/mint-token.ts';
import { accessTokenLength, MAX_TOKEN_LENGTH } from '../../src/auth/token-size.ts';
import { type CredentialsApp, startCredentialsApp } from '../credentials/support.ts';
import { TEST_JWT_SECRET } from '../support/harness.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const companies = (count: number) => Array.from({ length: count }, () => randomUUID());

/** Runs `ledgerhook token …` (30 s at most) and resolves with its exit code and output. */
function ledgerhookToken(companyIds: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = [
    'token',
    '--sub',
    randomUUID(),
    '--scope',
    'accounts:read',
    ...companyIds.flatMap((c) => ['--company', c]),
  ];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { env: { ...process.env, DATABASE_URL: '', AUTH_JWT_SECRET: TEST_JWT_SECRET }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
    );
  });
}

describe('tokens that fit a request', { timeout: 60_000 }, () => {
  let t: CredentialsApp;
  let url: string;
  before(async () => {
    t = await startCredentialsApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  /** The status of GET /v1/event-types over a real connection with `token`. */
  const statusWith = async (token: string) =>
    (await fetch(`${url}/v1/event-types`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('are the only ones `ledgerhook token` mints: 300 companies exit 2 in one line, 200 are accepted', async () => {
    const tooMany = companies(300);
    const refused = await ledgerhookToken(tooMany);
    assert.equal(refused.code, 2);
    assert.equal(refused.stdout, '');
    assert.match(
      refused.stderr,
      new RegExp(`^ledgerhook: a token naming 300 companies would be \\d+ bytes, more than the ${MAX_TOKEN_LENGTH} `),
    );
    assert.equal(refused.stderr.split('\n').length, 2);
    // Why: a token a little longer, minted anyway, is refused before any route runs.
    const oversized = await mintToken(TEST_JWT_SECRET, {
      subject: randomUUID(),
      companies: companies(400),
      scope: 'accounts:read',
    });
    assert.equal(await statusWith(oversized), 431);

    const minted = await ledgerhookToken(companies(200));
    assert.equal(minted.code, 0, minted.stderr);
    assert.equal(await statusWith(minted.stdout.trim()), 200);
  });

  it('are the only ones a client can be issued: a client of 300 companies is refused, one of 200 works', async () => {
    await assert.rejects(t.createClient({ companies: companies(300) }), /a token naming 300 companies/);
    const scope = 'accounts:read';
    const { client, clientSecret } = await t.createClient({ companies: companies(200), scope });
    const issued = await t.token({
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: clientSecret,
    });
    assert.equal(issued.status, 200, issued.text);
    const accessToken: string = issued.body.access_token;
    assert.ok(accessToken.length <= accessTokenLength(client.companies, scope), 'the estimate is an upper bound');
    assert.equal(await statusWith(accessToken), 200);
  });
});
