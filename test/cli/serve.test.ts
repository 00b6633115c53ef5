import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { PGLITE_PASS_ONLY } from '../support/database.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const execFileAsync = promisify(execFile);
// `ledgerhook token` answers at once; one still running after this is killed, so that the test fails.
const run = (file: string, args: string[], options: { env: NodeJS.ProcessEnv }) =>
  execFileAsync(file, args, { ...options, timeout: 60_000, killSignal: 'SIGKILL' });

// Every server a test started, killed after the file if still running: a test that fails or
// times out before its own stop leaves no process (nor the file's run) going.
const spawned = new Set<ChildProcess>();
after(() => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `ledgerhook serve` on a free port, logging at info to its stdout. */
function spawnServe(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  spawned.add(child);
  return child;
}

/** Starts `ledgerhook serve` and resolves with the address it logs once listening, and its start line. */
async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; started: Record<string, unknown> }> {
  const child = spawnServe(env);
  let url: string | undefined;
  for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
    url ??= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    const entry: Record<string, unknown> = line.startsWith('{') ? JSON.parse(line) : {};
    if (url && entry.msg === 'ledgerhook started') return { child, url, started: entry };
  }
  throw new Error('the server exited before it had started');
}

describe('ledgerhook serve and token on the embedded database', { skip: PGLITE_PASS_ONLY }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledgerhook-cli-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', AUTH_JWT_SECRET: '', AUTH_JWKS_URL: '' };

  it('generates and keeps a signing key, accepts tokens the CLI mints with it, and stops cleanly on SIGTERM', async () => {
    const { child, url, started } = await startServer(env);
    // A new embedded database starts with PostgreSQL's default cache (pglite-shared-buffers.ts).
    assert.equal(started.database, 'pglite');
    assert.equal(started.cache, '128MB');
    const secretFile = join(dataDir, 'auth-jwt-secret');
    assert.ok(existsSync(secretFile));
    assert.equal(statSync(secretFile).mode & 0o777, 0o600);

    const company = randomUUID();
    const { stdout: token } = await run(
      process.execPath,
      [MAIN, 'token', '--sub', randomUUID(), '--company', company, '--scope', 'accounts:write'],
      {
        env: { ...process.env, ...env },
      },
    );
    const created = await fetch(`${url}/v1-beta/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.trim()}`, 'content-type': 'application/json;charset=UTF-8' },
      body: JSON.stringify({ companyId: company, externalId: '1000', name: 'Cash', archived: false }),
    });
    assert.equal(created.status, 201);

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0);
  });

  it('stops on SIGTERM within its grace although a client never finishes sending its request', {
    timeout: 30_000,
  }, async () => {
    const { child, url } = await startServer(env);
    const { hostname, port } = new URL(url);
    // Headers without their blank line: Node stops timing such a request once the server closes.
    const socket = connect(Number(port), hostname, () => socket.write(`GET /health/live HTTP/1.1\r\nHost: x\r\n`));
    socket.on('error', () => {});
    await once(socket, 'connect');
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    // Bounded, so that a stop that waits for the client fails here rather than holding the suite.
    const bound = new AbortController();
    const outcome = await Promise.race([
      exited,
      sleep(20_000, 'still running', { signal: bound.signal }).catch(() => 'aborted'),
    ]);
    bound.abort();
    child.kill('SIGKILL');
    socket.destroy();
    assert.deepEqual(outcome, [0, null]);
  });

  it('keeps the data and the key across restarts', async () => {
    const { child, url } = await startServer(env);
    const ready = await fetch(`${url}/health/ready`);
    assert.equal(ready.status, 200);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null]);
  });

  it('expires export jobs on its own when they outlive EXPORT_JOB_TTL', async () => {
    const { child, url } = await startServer({ ...env, EXPORT_JOB_TTL: '1' });
    const company = randomUUID();
    const { stdout } = await run(
      process.execPath,
      [MAIN, 'token', '--sub', randomUUID(), '--company', company, '--scope', 'export-jobs:write'],
      { env: { ...process.env, ...env } },
    );
    const headers = { authorization: `Bearer ${stdout.trim()}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/v2/export-jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ companyId: company }),
    });
    assert.equal(created.status, 201);
    const { data: job } = (await created.json()) as { data: { id: string } };
    // The sweeper runs every 100 ms with a 1 s TTL: the job fails within a few seconds.
    let status = 'pending';
    for (const deadline = Date.now() + 10_000; status !== 'failed' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const got = await fetch(`${url}/v2/export-jobs/${job.id}`, { headers });
      status = ((await got.json()) as { data: { status: string } }).data.status;
    }
    assert.equal(status, 'failed');
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null]);
  });

  it('stops cleanly on a SIGTERM during start-up, and the data opens afterwards', async () => {
    // A new folder: PGlite creates its cluster and applies every migration, seconds of start-up.
    const fresh = mkdtempSync(join(tmpdir(), 'ledgerhook-cli-'));
    try {
      const child = spawnServe({ ...env, DATA_DIR: fresh });
      const exited = once(child, 'exit');
      const messages: unknown[] = [];
      for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
        const { msg } = line.startsWith('{') ? JSON.parse(line) : { msg: line };
        messages.push(msg);
        // Logged once the signals are listened for, before the database opens.
        if (msg === 'ledgerhook starting') child.kill('SIGTERM');
      }
      assert.deepEqual(await exited, [0, null]);
      assert.deepEqual(messages, [
        'ledgerhook starting',
        'stopping after the start-up step under way; send it again to stop at once',
        'shutting down',
        'stopped',
      ]);
      const { child: again, url } = await startServer({ ...env, DATA_DIR: fresh });
      assert.equal((await fetch(`${url}/health/ready`)).status, 200);
      const stopped = once(again, 'exit');
      again.kill('SIGTERM');
      assert.deepEqual(await stopped, [0, null]);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('refuses a token command without the required options, exit code 2', async () => {
    await assert.rejects(
      run(process.execPath, [MAIN, 'token', '--sub', randomUUID()], { env: { ...process.env, ...env } }),
      (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 2);
        assert.match(error.stderr ?? '', /--company/);
        return true;
      },
    );
  });
});
