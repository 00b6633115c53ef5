// The socket through which `clients` and `api-keys` reach a service that holds an embedded DATA_DIR
// (src/credentials/cli-socket.ts): what it takes, who can reach it, and what the CLI passes over.
// Always on a DATA_DIR: on PostgreSQL there is no socket (cli-beside-service.test.ts runs the
// commands beside a service on either database).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PGLITE_PASS_ONLY } from '../support/database.ts';
import { seededDataDir } from '../support/pglite-image.ts';
import { cliOutcome, type Served, startServe } from './processes.ts';

const ENV: Record<string, string> = {
  DATABASE_URL: '',
  AUTH_JWT_SECRET: '',
  AUTH_JWKS_URL: '',
  OAUTH_SIGNING_KEY: '',
  API_KEY_PEPPER: '',
  REDIS_URL: '',
};
const NOBODY = 65534;

describe('the CLI socket of a service on an embedded DATA_DIR', { timeout: 300_000, skip: PGLITE_PASS_ONLY }, () => {
  const dirs: string[] = [];
  const served: Served[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerhook-cli-socket-'));
    dirs.push(dir);
    return dir;
  };
  // A DATA_DIR holding the migrated cluster: the tests are of the socket, not of a first start.
  const newDataDir = async () => {
    const dir = await seededDataDir('ledgerhook-cli-socket');
    dirs.push(dir);
    return dir;
  };
  const start = async (dataDir: string) => {
    const server = await startServe({ ...ENV, DATA_DIR: dataDir });
    served.push(server);
    return server;
  };
  after(async () => {
    for (const server of served) await server.kill();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('answers the five commands and nothing else (no other command, field, or SQL); an idle connection holds nothing', async () => {
    const dataDir = await newDataDir();
    const server = await start(dataDir);
    const socket = join(dataDir, 'run', 'cli.sock');
    const notTaken = { failed: 'not a request it takes' };
    for (const request of [
      '{"command":"clients list","sql":"DROP TABLE clients"}',
      'DROP TABLE clients',
      '{"command":"migrate"}',
      '{"command":"clients revoke","id":["x"]}',
      '{"command":"clients create","name":"x","companies":"not a list","scope":"accounts:read"}',
      '',
    ]) {
      assert.deepEqual(JSON.parse(await ask(socket, request)), notTaken, request);
    }
    assert.deepEqual(JSON.parse(await ask(socket, ' '.repeat(2 * 1024 * 1024))), {
      failed: `a request larger than ${1024 * 1024} bytes`,
    });
    assert.deepEqual(JSON.parse(await ask(socket, '{"command":"clients list"}')), {
      answer: { command: 'clients list', clients: [] },
    });
    // The clients table is still there.
    const env = { ...ENV, DATA_DIR: dataDir };
    const company = '6f1c2a7e-1b2d-4c3e-8f4a-5b6c7d8e9f01';
    const created = await cliOutcome(['clients', 'create', '--name', 'x', '--company', company, '--scope', 'a:b'], env);
    assert.deepEqual(created, { code: 2, stdout: '', stderr: 'ledgerhook: unknown scope a:b\n' });
    assert.equal((await cliOutcome(['clients', 'list'], env)).stdout, 'no clients\n');

    // A connection that never sends its request holds neither the socket nor the stop.
    const idle = connect(socket);
    idle.on('error', () => {});
    await once(idle, 'connect');
    const closed = once(idle, 'close');
    const stopped = server.stop();
    const bound = AbortSignal.timeout(30_000);
    await Promise.race([
      Promise.all([closed, stopped]),
      once(bound, 'abort').then(() => assert.fail('the stop waited 30 s for an idle connection')),
    ]);
  });

  it('is reached by no other user: the folder keeps them out', {
    skip: process.getuid?.() !== 0 && 'needs root, to try as another user',
  }, async () => {
    const dataDir = await newDataDir();
    chmodSync(dataDir, 0o755); // DATA_DIR itself open to all, as a folder made with the usual umask is
    const server = await start(dataDir);
    const socket = join(dataDir, 'run', 'cli.sock');
    // The other user runs a copy of this Node in a folder it may enter: the checkout's own folders
    // may be closed to it (a clone in a folder made by mktemp is), which would test nothing.
    const nodeOfOthers = join(newDir(), 'node');
    chmodSync(join(nodeOfOthers, '..'), 0o755);
    copyFileSync(process.execPath, nodeOfOthers);
    chmodSync(nodeOfOthers, 0o755);
    assert.equal(await connectAs(NOBODY, socket, nodeOfOthers), 'EACCES');
    // (The CLI's own refusal of a folder it does not own: the next test.)
    // Only the folder's and the socket's modes stood in the way: opened, the same user gets in.
    chmodSync(join(dataDir, 'run'), 0o711);
    chmodSync(socket, 0o666);
    assert.equal(await connectAs(NOBODY, socket, nodeOfOthers), 'connected');
    await server.stop();
  });

  it('passes over a socket folder another user could enter or owns, and a socket no one listens on', async () => {
    const dataDir = await newDataDir();
    const env = { ...ENV, DATA_DIR: dataDir };
    const run = join(dataDir, 'run');
    mkdirSync(run, { mode: 0o700 });
    chmodSync(run, 0o755);
    const open = await cliOutcome(['clients', 'list'], env);
    assert.equal(open.code, 2);
    assert.match(open.stderr, /run is not a folder of this user's that only it can enter/);
    chmodSync(run, 0o700);
    if (process.getuid?.() === 0) {
      chownSync(run, NOBODY, NOBODY);
      assert.equal((await cliOutcome(['clients', 'list'], env)).code, 2);
      chownSync(run, 0, 0);
    }
    // A socket left by a process that was killed: refused at connect, so the data is opened directly.
    await leaveSocket(join(run, 'cli.sock'));
    assert.deepEqual(await cliOutcome(['clients', 'list'], env), { code: 0, stdout: 'no clients\n', stderr: '' });
  });
});

/** Sends `request` and half-closes; resolves with everything the service wrote back. */
async function ask(path: string, request: string): Promise<string> {
  const socket = connect(path);
  await once(socket, 'connect');
  socket.end(request);
  let reply = '';
  for await (const chunk of socket.setEncoding('utf8')) reply += chunk;
  return reply;
}

/** Whether a process of user `uid` can connect to the socket at `path`: `connected` or the error's code. */
async function connectAs(uid: number, path: string, node: string): Promise<string> {
  const script = `require('node:net').connect(process.argv[1])
    .on('connect', function () { process.stdout.write('connected'); this.destroy(); })
    .on('error', (error) => process.stdout.write(error.code));`;
  const child = spawn(node, ['-e', script, path], { uid, gid: uid, stdio: ['ignore', 'pipe', 'inherit'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  await once(child, 'exit');
  clearTimeout(timer);
  return output;
}

/** A socket file at `path` that nothing listens on: its listener killed with SIGKILL. */
async function leaveSocket(path: string): Promise<void> {
  const script = `require('node:net').createServer().listen(process.argv[1], () => process.stdout.write('listening'));`;
  const child = spawn(process.execPath, ['-e', script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    const [chunk] = await once(child.stdout, 'data');
    assert.equal(String(chunk), 'listening');
    child.kill('SIGKILL');
    await once(child, 'exit');
  } finally {
    clearTimeout(timer);
  }
}
