// PostgreSQL backends keep the memory a statement freed for the next one (src/db/backend-memory.ts),
// on every kind of connection the service opens. Observed from outside: the minor page faults of
// each backend, read from /proc, so the server must run on this machine.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { Database, QueryOptions } from '../../src/db/database.ts';
import { openTestDatabase, TEST_DATABASE_URL } from '../support/database.ts';

// About 200 KiB of text grown by doubling, as a page's string_agg grows its JSON: on a backend left
// as glibc starts it, this memory goes back to the system at the statement's end.
const STATEMENT =
  "SELECT pg_backend_pid() AS pid, length(string_agg(repeat('x', 1000), ',')) FROM generate_series(1, $1::int)";
const CALLS = 40;

function minorFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: state is the first, minflt the eighth.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/**
 * Minor page faults per call of STATEMENT, on whichever backends `run` reaches, each backend's
 * first call left out (it plans and caches).
 */
async function faultsPerCall(run: () => Promise<{ pid: number }>): Promise<number> {
  const seen = new Map<number, number>();
  let faults = 0;
  let counted = 0;
  for (let i = 0; i < CALLS; i++) {
    const { pid } = await run();
    const now = minorFaults(pid);
    const previous = seen.get(pid);
    if (previous !== undefined) {
      faults += now - previous;
      counted++;
    }
    seen.set(pid, now);
  }
  return faults / counted;
}

async function isLocalServer(): Promise<boolean | string> {
  if (!TEST_DATABASE_URL) return 'needs TEST_DATABASE_URL: PostgreSQL only';
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const [row] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    return existsSync(`/proc/${row?.pid}/stat`)
      ? false
      : 'PostgreSQL runs on another machine: its backends are not in /proc';
  } finally {
    await client.end();
  }
}

describe('PostgreSQL backends keep freed memory', { skip: await isLocalServer() }, () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  const onService = (options?: QueryOptions) => async () => {
    const [row] = await db.query<{ pid: number }>(STATEMENT, [200], options);
    assert.ok(row);
    return row;
  };

  it('a backend as glibc leaves it faults its memory in again on every statement (the control)', async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const faults = await faultsPerCall(async () => {
        const [row] = (await client.query<{ pid: number }>(STATEMENT, [200])).rows;
        assert.ok(row);
        return row;
      });
      assert.ok(faults > 10, `a plain connection's backend faulted ${faults} times per statement`);
    } finally {
      await client.end();
    }
  });

  for (const [name, options] of [
    ['pooled connections planning each call', undefined],
    ['pooled connections keeping plans', { reusePlan: true }],
    ['the pipelined connection', { reusePlan: true, quick: true }],
  ] as const) {
    it(`on ${name}, each statement reuses the memory the one before freed`, async () => {
      const faults = await faultsPerCall(onService(options));
      assert.ok(faults < 1, `${faults} page faults per statement`);
    });
  }
});
