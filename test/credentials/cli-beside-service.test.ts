// `ledgerhook clients …` and `ledgerhook api-keys …` while the service runs: on an embedded DATA_DIR
// through the service's socket (src/credentials/cli-socket.ts), on PostgreSQL on the database itself.
// Each command prints what it prints while the service is stopped, the keys it makes work on the
// running service at once, and a service killed with SIGKILL blocks neither the commands nor the
// next start.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { type CliOutcome, cliOutcome, type Served, startServe } from './processes.ts';

const BASE_ENV: Record<string, string> = {
  DATABASE_URL: '',
  DATA_DIR: '',
  // Processes sharing a PostgreSQL database share a key, configured (API keys' pepper is derived from
  // it); an embedded DATA_DIR keeps its own.
  AUTH_JWT_SECRET: TEST_DATABASE_URL ? randomBytes(32).toString('base64url') : '',
  AUTH_JWKS_URL: '',
  OAUTH_SIGNING_KEY: '',
  API_KEY_PEPPER: '',
  REDIS_URL: '',
  RATE_LIMIT_MAX: '1000',
  AUTH_FAILURE_LIMIT_MAX: '0',
};
const embedded = !TEST_DATABASE_URL;
const COMPANY = randomUUID();
const OTHER_COMPANY = randomUUID();
// Named by no client or key, in both runs.
const UNKNOWN = randomUUID();

describe(`clients and api-keys while the service runs (${embedded ? 'embedded' : 'PostgreSQL'})`, {
  timeout: 300_000,
}, () => {
  const targets: WorkerDatabase[] = [];
  const served: Served[] = [];
  const newTarget = async () => {
    const target = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_cli_beside');
    targets.push(target);
    return { ...BASE_ENV, ...target.env };
  };
  const start = async (env: Record<string, string>, options?: Parameters<typeof startServe>[1]) => {
    const server = await startServe(env, options);
    served.push(server);
    return server;
  };
  after(async () => {
    for (const server of served) await server.kill();
    for (const target of targets) await target.drop();
  });

  let stoppedEnv: Record<string, string>;
  let runningEnv: Record<string, string>;
  let stopped: Transcript;
  before(async () => {
    [stoppedEnv, runningEnv] = [await newTarget(), await newTarget()];
    stopped = await runScript(stoppedEnv);
  });

  it('prints the same, with the same exit codes, as while it is stopped; its keys work on the service at once', async () => {
    const server = await start(runningEnv);
    if (embedded) {
      const socket = join(runningEnv.DATA_DIR as string, 'run', 'cli.sock');
      assert.equal(statSync(socket).mode & 0o777, 0o600);
      assert.equal(statSync(join(runningEnv.DATA_DIR as string, 'run')).mode & 0o777, 0o700);
    }
    const running = await runScript(runningEnv, server.url);
    // Four creates, two revokes, five refusals, two lists.
    assert.deepEqual(
      stopped.outcomes.map((outcome) => outcome.code),
      [0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 0, 0],
    );
    assert.equal(running.normalizedTranscript, stopped.normalizedTranscript);

    const listedWhileRunning = await cliOutcome(['clients', 'list', '--json'], runningEnv);
    await server.stop();
    if (embedded) {
      assert.match(server.output(), /"command":"clients create","msg":"CLI command answered"/);
      assert.equal(existsSync(join(runningEnv.DATA_DIR as string, 'run', 'cli.sock')), false, 'removed on stop');
    }
    // The same data, whoever answers: byte for byte.
    assert.deepEqual(await cliOutcome(['clients', 'list', '--json'], runningEnv), listedWhileRunning);
  });

  it('after the service is killed with SIGKILL, works on the data directly, then through the next start', async () => {
    const env = await newTarget();
    const first = await start(env, { npmStart: true });
    const created = await cliOutcome(createArgs('Killed books', '--json'), env);
    assert.equal(created.code, 0, created.stderr);
    const { client_id: clientId } = JSON.parse(created.stdout);
    await first.kill();
    const socket = join(env.DATA_DIR ?? '', 'run', 'cli.sock');
    if (embedded) assert.ok(existsSync(socket), 'a killed service leaves its socket behind');

    // Beside the killed service (a zombie under npm, or being ended by the kernel).
    const revoked = await cliOutcome(['clients', 'revoke', clientId], env);
    assert.deepEqual(revoked, {
      code: 0,
      stdout: `revoked ${clientId}; 0 subscription(s) set INACTIVE, 0 pending message(s) cancelled\n`,
      stderr: '',
    });

    const second = await start(env, { npmStart: true });
    const again = await cliOutcome(createArgs('Restarted books', '--json'), env);
    assert.equal(again.code, 0, again.stderr);
    const printed = JSON.parse(again.stdout);
    assert.equal(await accountStatus(second.url, printed.api_key), 404, 'its key is accepted');
    const listed = JSON.parse((await cliOutcome(['clients', 'list', '--json'], env)).stdout) as {
      id: string;
      revokedAt: string | null;
    }[];
    assert.deepEqual(
      listed.map(({ id, revokedAt }) => ({ id, revoked: revokedAt !== null })),
      [
        { id: clientId, revoked: true },
        { id: printed.client_id, revoked: false },
      ],
    );
    if (embedded) assert.match(second.output(), /"command":"clients list","msg":"CLI command answered"/);
    await second.stop();
  });
});

interface Transcript {
  outcomes: CliOutcome[];
  /** Every output with ids, secrets, keys and times replaced, ids numbered as they first appear. */
  normalizedTranscript: string;
}

/**
 * The commands an operator runs, in order, each outcome kept: creates (JSON and text), more keys, a
 * key and a client revoked, the refusals, and the lists. With `url`, the running service is asked
 * whether the keys work as the commands said.
 */
async function runScript(env: Record<string, string>, url?: string): Promise<Transcript> {
  const outcomes: CliOutcome[] = [];
  const run = async (args: string[]) => {
    const outcome = await cliOutcome(args, env);
    outcomes.push(outcome);
    return outcome;
  };
  const first = JSON.parse((await run(createArgs('Acme books', '--json'))).stdout);
  const second = await run([...createArgs('Beta'), '--company', OTHER_COMPANY]);
  const secondId = /^client_id: +(\S+)$/m.exec(second.stdout)?.[1] as string;
  const extraKey = JSON.parse((await run(['api-keys', 'create', '--client', first.client_id, '--json'])).stdout);
  await run(['api-keys', 'create', '--client', first.client_id]);
  if (url) assert.equal(await accountStatus(url, extraKey.api_key), 404, 'a new key is accepted');
  await run(['api-keys', 'revoke', extraKey.api_key_id]);
  if (url) assert.equal(await accountStatus(url, extraKey.api_key), 401, 'a revoked key is refused at once');
  await run(['clients', 'revoke', secondId]);
  await run(['clients', 'revoke', UNKNOWN]);
  await run(['api-keys', 'revoke', UNKNOWN]);
  await run(['api-keys', 'create', '--client', secondId]);
  await run(['clients', 'create', '--name', 'x', '--company', COMPANY, '--scope', 'accounts:admin']);
  await run(['clients', 'create', '--name', ' ', '--company', COMPANY, '--scope', 'accounts:read']);
  await run(['clients', 'list']);
  await run(['clients', 'list', '--json']);
  if (url) assert.equal(await accountStatus(url, first.api_key), 404, 'the first key is still accepted');
  return { outcomes, normalizedTranscript: normalize(outcomes.map((o) => `${o.code}\n${o.stdout}${o.stderr}`)) };
}

function createArgs(name: string, ...more: string[]): string[] {
  return ['clients', 'create', '--name', name, '--company', COMPANY, '--scope', 'accounts:read', ...more];
}

/** GET of an account no one has: 404 once the key is accepted, 401 when it is refused. */
async function accountStatus(url: string, apiKey: string): Promise<number> {
  const response = await fetch(`${url}/v1-beta/accounts/${randomUUID()}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  await response.body?.cancel();
  return response.status;
}

const VARYING =
  /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|(lhs_[\w-]+)|(lhk_[\w-]+)|(\d{4}-\d\d-\d\dT[\d:.]+Z)/g;

/** `texts` joined, each id, secret and key replaced by a name numbered in order of first appearance, and times by `<time>`. */
function normalize(texts: string[]): string {
  const names = new Map<string, string>();
  return texts.join('\n---\n').replace(VARYING, (value, id, secret, key) => {
    if (!id && !secret && !key) return '<time>';
    const kind = id ? 'id' : secret ? 'secret' : 'key';
    let name = names.get(value);
    if (!name) {
      name = `<${kind}-${names.size}>`;
      names.set(value, name);
    }
    return name;
  });
}
