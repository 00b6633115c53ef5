// A start-up that fails must end the process with its error. On PostgreSQL the pools' idle
// connections kept it alive after the error, so an orchestrator saw a silent process, not a crash.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase, type WorkerDatabase } from '../support/delivery-fixtures.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
// How long the process may live on after it has reported its error. Counted from the report, not
// from the spawn, so a slow start (a fresh embedded database runs every migration) cannot use it up.
const STILL_RUNNING_MS = 10_000;

describe(`ledgerhook serve whose port is taken (${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'})`, () => {
  let target: WorkerDatabase;
  let taken: Server;
  let port: number;

  before(async () => {
    target = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_start_failure');
    taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    port = (taken.address() as { port: number }).port;
  });
  after(async () => {
    taken?.close();
    await target?.drop();
  });

  it('exits with code 1 and the reason, after opening and migrating the database', { timeout: 120_000 }, async (t) => {
    const child = spawn(process.execPath, [MAIN, 'serve'], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: '',
        ...target.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        AUTH_JWT_SECRET: 'start-failure-test-secret-of-at-least-32-bytes',
        REDIS_URL: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // A process that outlives its reported failure is what this test is about: end it, and fail.
    let stillRunning: NodeJS.Timeout | undefined;
    const onOutput = () => {
      if (stillRunning || !/EADDRINUSE/.test(stdout + stderr)) return;
      stillRunning = setTimeout(() => child.kill('SIGKILL'), STILL_RUNNING_MS);
    };
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      onOutput();
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      onOutput();
    });
    // Ended with the test, should it fail or time out before the process exits.
    t.after(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const [code, signal] = await once(child, 'exit');
    clearTimeout(stillRunning);
    assert.notEqual(signal, 'SIGKILL', `still running ${STILL_RUNNING_MS / 1000} s after its error:\n${stderr}`);
    assert.deepEqual([code, signal], [1, null], stderr);
    assert.match(stderr, /EADDRINUSE/);
    assert.match(stdout, /"msg":"ledgerhook starting"/);
    assert.doesNotMatch(stdout, /"msg":"ledgerhook started"/);
    // The database was opened and left consistent: it opens again with every migration applied.
    const db = await target.open();
    try {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      assert.ok((row?.n ?? 0) > 0);
    } finally {
      await db.close();
    }
  });
});
