// Quick statements (QueryOptions.quick): on PostgreSQL they share one pipelined connection, each
// written without waiting for the answers before it. Each must still get its own rows or its own
// error, and a connection that dies must be replaced by the next statement.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { Database } from '../../src/db/database.ts';
import { openPipelinedConnection, type PipelinedConnection } from '../../src/db/pipelined-connection.ts';
import { openTestDatabase, TEST_DATABASE_URL } from '../support/database.ts';

const QUICK = { reusePlan: true, quick: true };
const DOUBLE = 'SELECT $1::int * 2 AS doubled';
const INVERSE = 'SELECT 1 / $1::int AS inverse';
// PGlite is one session: no pipeline and no pool.
const POSTGRES_ONLY = TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL: PostgreSQL only';

describe('quick statements', () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it('answers each of many statements sent at once with its own rows', async () => {
    const numbers = Array.from({ length: 200 }, (_, i) => i);
    const answers = await Promise.all(numbers.map((n) => db.query<{ doubled: number }>(DOUBLE, [n], QUICK)));
    assert.deepEqual(
      answers.map(([row]) => row?.doubled),
      numbers.map((n) => n * 2),
    );
  });

  it('fails only the statement that fails, not those sent before or after it', async () => {
    const outcomes = await Promise.allSettled([2, 0, 4].map((n) => db.query<{ inverse: number }>(INVERSE, [n], QUICK)));
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /division by zero/);
    assert.deepEqual(await db.query(DOUBLE, [21], QUICK), [{ doubled: 42 }]);
  });
});

describe('quick statements while PostgreSQL is slow to answer them', { skip: POSTGRES_ONLY }, () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it('sends a quick statement to the pool rather than behind three unanswered ones', async () => {
    const answered: string[] = [];
    const slow = [1, 2, 3].map((n) =>
      db.query('SELECT pg_sleep($1::float8 / 10)', [5], QUICK).then(() => answered.push(`slow ${n}`)),
    );
    await db.query(DOUBLE, [1], QUICK);
    answered.push('quick');
    await Promise.all(slow);
    assert.deepEqual(answered, ['quick', 'slow 1', 'slow 2', 'slow 3']);
  });
});

describe('the pipelined connection', { skip: POSTGRES_ONLY }, () => {
  let connection: PipelinedConnection;
  let admin: pg.Client;
  const backendOf = async () =>
    (await connection.query({ text: 'SELECT pg_backend_pid() AS pid' })).rows[0]?.pid as number;

  before(async () => {
    connection = openPipelinedConnection({ connectionString: TEST_DATABASE_URL });
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  after(async () => {
    await connection.end();
    await admin.end();
  });

  it('runs statements sent together on one backend', async () => {
    const pids = await Promise.all(Array.from({ length: 20 }, backendOf));
    assert.equal(new Set(pids).size, 1);
  });

  it('opens a new connection for the next statement when its backend is terminated', async () => {
    const first = await backendOf();
    const ended = new Promise<void>((resolve) => {
      // The statement in flight when the backend goes fails; it does not hang.
      connection.query({ text: 'SELECT pg_sleep(5)' }).then(
        () => assert.fail('a statement on a terminated backend succeeded'),
        () => resolve(),
      );
    });
    await admin.query('SELECT pg_terminate_backend($1)', [first]);
    await ended;
    const second = await backendOf();
    assert.notEqual(second, first);
    assert.deepEqual((await connection.query({ text: DOUBLE, values: [4] })).rows, [{ doubled: 8 }]);
  });

  it('counts the statements not yet answered, failed ones included', async () => {
    const sent = [connection.query({ text: DOUBLE, values: [1] }), connection.query({ text: INVERSE, values: [0] })];
    assert.equal(connection.pending, 2);
    await Promise.allSettled(sent);
    assert.equal(connection.pending, 0);
  });

  it('refuses statements once ended', async () => {
    const closing = openPipelinedConnection({ connectionString: TEST_DATABASE_URL });
    await closing.query({ text: 'SELECT 1' });
    await closing.end();
    await assert.rejects(closing.query({ text: 'SELECT 1' }), /closed/);
  });
});
