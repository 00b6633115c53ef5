// The service started as a user starts it (`npm start`, its own process group) with its embedded
// database on a small filesystem of the test's own (a tmpfs: needs mount privileges), which the test
// fills under six concurrent writers of ~50 kB accounts and an export-job loop. Every answer is 2xx
// or 503 STORAGE_FULL with Retry-After (never a 500, never a hang: /health/live answers while
// /health/ready does not say ready); once the filler file is deleted the service either takes
// writes again by itself, or (after a PANIC of the engine, src/db/pglite-engine-guard.ts) has exited
// with code 1, and a start on the same folder serves every account it acknowledged.
//
// Which of the two happens depends on what the disk refuses first: a table's growth (an ERROR the
// engine survives) or a new WAL segment (a PANIC). The first case leaves no room at all, the second
// less than a WAL segment (16 MB) but room for tables; each says which happened. Runs on the
// embedded database in both suite passes.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintToken } from '../../src/auth/mint-token.ts';
import { type Served, startServe } from '../credentials/processes.ts';
import { needs } from '../support/components.ts';
import { PGLITE_PASS_ONLY } from '../support/database.ts';
import { mountSmallFilesystem, type SmallFilesystem } from '../support/small-filesystem.ts';
import { SERVICE_ENV } from './seeded-service.ts';

const WRITERS = 6;
// Enough refused writes to have seen the service under a full disk for a while.
const REFUSALS = 30;
const FATAL_LOG = 'the embedded database stopped and cannot go on in this process';
// A request still unanswered after this while the process runs is a hang.
const REQUEST_DEADLINE_MS = 10_000;

describe('a service whose embedded database fills its disk', {
  skip: PGLITE_PASS_ONLY || (await needs('mount')),
}, () => {
  let disk: SmallFilesystem;
  let served: Served | undefined;
  const all: Served[] = [];
  const company = randomUUID();
  let headers: Record<string, string>;
  // Every account the service answered 201 for, by id.
  const acknowledged = new Map<string, string>();

  const start = async () => {
    served = await startServe({ ...SERVICE_ENV, DATA_DIR: join(disk.path, 'data') }, { npmStart: true });
    all.push(served);
    return served;
  };
  const exited = (server: Served) => server.child.exitCode !== null || server.child.signalCode !== null;
  const call = (server: Served, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
    });

  before(
    async () => {
      disk = await mountSmallFilesystem(96);
      const token = await mintToken(SERVICE_ENV.AUTH_JWT_SECRET as string, {
        subject: randomUUID(),
        companies: [company],
        scope: 'accounts:write export-jobs:write',
      });
      headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    },
    { timeout: 10_000 },
  );
  // A new folder takes PGlite's initdb and the migrations: tens of seconds on a busy machine.
  beforeEach(
    async () => {
      if (!served || exited(served)) await start();
    },
    { timeout: 120_000 },
  );
  after(async () => {
    for (const server of all) await server.kill();
    await disk?.unmount();
  });

  for (const { leaveMb, what } of [
    { leaveMb: 0, what: 'no room at all' },
    { leaveMb: 10, what: 'room for tables but not for a WAL segment' },
  ]) {
    it(`answers 503 STORAGE_FULL with ${what}, and loses nothing it acknowledged once there is room`, {
      timeout: 60_000,
    }, async (t) => {
      const server = served as Served;
      const outcome = await writeUntilRefused(t, server, () => disk.fill(leaveMb));
      disk.free();

      if (outcome === 'exited') {
        t.diagnostic('the engine stopped (PANIC): the process exited');
        assert.notEqual(server.child.exitCode, 0, 'exits with an error, for its supervisor to start it again');
        await start();
      } else {
        t.diagnostic('the engine refused writes (ERROR) and stayed up');
        if ((await untilWriteTakenOrExited(server)) === 'exited') await start();
      }
      const current = served as Served;
      for (const [id, externalId] of acknowledged) {
        const got = await call(current, 'GET', `/v1-beta/accounts/${id}`);
        assert.equal(got.status, 200, `account ${externalId}, acknowledged while the disk filled`);
      }
      t.diagnostic(`${acknowledged.size} accounts acknowledged, all there`);
      // A stop asked for after the disk was full is served as any other.
      await current.stop();
      assert.match(current.output(), /"msg":"stopped"/);
    });
  }

  /**
   * Writes with WRITERS accounts loops and an export-job loop; `fill` runs once some accounts are
   * acknowledged. Resolves once REFUSALS writes were refused, or the server exited after its fatal
   * log line. Checks every answer, and liveness and readiness while the disk is full.
   */
  async function writeUntilRefused(t: TestContext, server: Served, fill: () => void): Promise<'refused' | 'exited'> {
    let refusals = 0;
    let checkedHealth: Promise<void> | undefined;
    const stopping = () => server.output().includes(FATAL_LOG);
    const done = () => refusals >= REFUSALS || exited(server) || stopping();

    const answered = async (what: string, sent: () => Promise<Response>, ok: number[]) => {
      let response: Response;
      try {
        response = await sent();
      } catch (error) {
        if (await stoppingSoon(server)) return;
        throw new Error(`${what}: no answer while the process runs (${(error as Error).message})`);
      }
      const text = await response.text();
      if (ok.includes(response.status)) return response.status === 201 ? JSON.parse(text).data : undefined;
      if (!isStorageFull(response, text)) {
        // Closing, the server answers a bare 503 to requests that arrive.
        if (await stoppingSoon(server)) return;
        assert.fail(`${what}: ${response.status} ${text}`);
      }
      refusals++;
      checkedHealth ??= checkHealth(server, stopping);
    };

    const writer = async (w: number) => {
      for (let i = 0; !done(); i++) {
        const externalId = `${w}-${i}-${randomUUID().slice(0, 8)}`;
        const account = await answered(
          `account ${externalId}`,
          () =>
            call(server, 'POST', '/v1-beta/accounts', {
              companyId: company,
              externalId,
              name: `Account ${externalId}`,
              archived: false,
              // Random, so that it does not compress: ~50 kB stored.
              metadata: { blob: randomBytes(37_500).toString('base64') },
            }),
          [201],
        );
        if (account) acknowledged.set(account.id, externalId);
      }
    };
    const exporter = async () => {
      while (!done()) {
        const job = await answered(
          'export job',
          () => call(server, 'POST', '/v2/export-jobs', { companyId: company }),
          [201, 409],
        );
        if (job) {
          await answered(
            'export job event',
            () => call(server, 'POST', '/v2/export-job-events', { jobId: job.id, event: 'failed' }),
            [202],
          );
        }
      }
    };
    const filler = (async () => {
      const before = acknowledged.size;
      while (acknowledged.size < before + 2 * WRITERS && !done()) await sleep(20);
      fill();
    })();

    const deadline = AbortSignal.timeout(40_000);
    await Promise.race([
      Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), exporter(), filler]),
      new Promise((_, reject) =>
        deadline.addEventListener('abort', () =>
          reject(new Error(`${refusals} writes refused and the process still runs after 40 s`)),
        ),
      ),
    ]);
    await checkedHealth;
    t.diagnostic(`${refusals} writes refused`);
    if (!stopping()) return 'refused';
    await untilExited(server);
    return 'exited';
  }

  /** While the disk is full: alive, not ready, with the reason. */
  async function checkHealth(server: Served, stopping: () => boolean): Promise<void> {
    try {
      const live = await fetch(`${server.url}/health/live`, { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
      const ready = await fetch(`${server.url}/health/ready`, { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
      if (stopping()) return;
      assert.equal(live.status, 200);
      assert.equal(ready.status, 503, 'not ready while writes are refused');
      assert.equal((await ready.json()).type, 'STORAGE_FULL');
      assert.equal(ready.headers.get('retry-after'), '2');
    } catch (error) {
      if (!stopping()) throw error;
    }
  }

  /** Once there is room: a write is taken again without a restart, unless the engine stops first. */
  async function untilWriteTakenOrExited(server: Served): Promise<'taken' | 'exited'> {
    for (let i = 0; ; i++) {
      const externalId = `after-${i}-${randomUUID().slice(0, 8)}`;
      const response = await call(server, 'POST', '/v1-beta/accounts', {
        companyId: company,
        externalId,
        name: externalId,
        archived: false,
      }).catch(() => undefined);
      if (response?.status === 201) {
        acknowledged.set((await response.json()).data.id, externalId);
        return 'taken';
      }
      const text = await response?.text();
      if (response && isStorageFull(response, text as string)) {
        await sleep(100);
        continue;
      }
      if (!(await stoppingSoon(server))) assert.fail(`a write once there is room: ${response?.status} ${text}`);
      await untilExited(server);
      return 'exited';
    }
  }
});

/** A refused write: 503 STORAGE_FULL with Retry-After. */
function isStorageFull(response: Response, text: string): boolean {
  if (response.status !== 503 || !response.headers.get('content-type')?.includes('json')) return false;
  const { type } = JSON.parse(text);
  if (type === 'STORAGE_FULL') assert.equal(response.headers.get('retry-after'), '2');
  return type === 'STORAGE_FULL';
}

/**
 * Whether the server is stopping after its engine stopped: its fatal log line, which may still be
 * on its way through the pipe when its connections already close.
 */
async function stoppingSoon(server: Served): Promise<boolean> {
  for (const end = Date.now() + 5_000; Date.now() < end; await sleep(50)) {
    if (server.output().includes(FATAL_LOG)) return true;
  }
  return false;
}

async function untilExited(server: Served): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  await new Promise((resolve) => server.child.once('exit', resolve));
}
