// LISTEN on PostgreSQL (src/db/postgres-listener.ts): one connection per process for all its
// channels. It listens on each channel once, comes back by itself when PostgreSQL ends it, listening
// on every channel again and telling each listener so (an empty payload), stops hearing a channel
// once its last listener leaves, and closes once none is left. A first connection that cannot open is
// the caller's error. Runs in the PostgreSQL pass, on the shared server: it ends only its own session.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { postgresListeners } from '../../src/db/postgres-listener.ts';
import { POSTGRES_PASS_ONLY, TEST_DATABASE_URL } from '../support/database.ts';
import { waitFor } from '../support/outage-requests.ts';

describe('the LISTEN connection', { timeout: 30_000, skip: POSTGRES_PASS_ONLY }, () => {
  let admin: pg.Client;
  before(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  after(() => admin?.end());

  // Channels of one test, named so that only its own sessions match `prefix%`.
  const channelsOfTest = () => {
    const prefix = `listener_${randomUUID().replaceAll('-', '')}`;
    return { prefix, a: `${prefix}_a`, b: `${prefix}_b` };
  };
  /** The sessions whose last statement LISTENed (or UNLISTENed) on channels of `prefix`, and that statement. */
  const sessionsListening = async (prefix: string) =>
    (
      await admin.query<{ pid: number; query: string }>(
        "SELECT pid, query FROM pg_stat_activity WHERE query ~ '^(UN)?LISTEN ' AND query LIKE $1",
        [`%"${prefix}_%`],
      )
    ).rows;
  const notify = (channel: string, payload: string) => admin.query('SELECT pg_notify($1, $2)', [channel, payload]);

  it('hears every channel on one connection, and comes back on all of them once ended', async () => {
    const { prefix, a, b } = channelsOfTest();
    const listeners = postgresListeners({ connectionString: TEST_DATABASE_URL });
    const heard: string[] = [];
    try {
      await listeners.listen(a, (payload) => heard.push(`a:${payload}`));
      await listeners.listen(b, (payload) => heard.push(`b:${payload}`));
      await notify(a, '1');
      await notify(b, '2');
      await waitFor(async () => heard.length === 2, 'both notifications heard');
      assert.deepEqual(heard, ['a:1', 'b:2']);
      const [session, ...others] = await sessionsListening(prefix);
      assert.ok(session, 'a session listens');
      assert.deepEqual(others, [], 'one session listens on both channels');

      await admin.query('SELECT pg_terminate_backend($1)', [session.pid]);
      await waitFor(async () => heard.includes('a:') && heard.includes('b:'), 'each listener told it is back');
      const [back, ...more] = await sessionsListening(prefix);
      assert.notEqual(back?.pid, session.pid);
      assert.deepEqual(more, []);
      assert.deepEqual(back?.query.split('; ').sort(), [`LISTEN "${a}"`, `LISTEN "${b}"`]);
      heard.length = 0;
      await notify(b, '3');
      await notify(a, '4');
      await waitFor(async () => heard.length === 2, 'both heard again');
      assert.deepEqual(heard, ['b:3', 'a:4']);
    } finally {
      await listeners.stop();
    }
  });

  it('stops hearing a channel once its last listener leaves, and closes once none is left', async () => {
    const { prefix, a, b } = channelsOfTest();
    const listeners = postgresListeners({ connectionString: TEST_DATABASE_URL });
    const heard: string[] = [];
    try {
      const leaveA = await listeners.listen(a, (payload) => heard.push(`a:${payload}`));
      const leaveA2 = await listeners.listen(a, (payload) => heard.push(`a2:${payload}`));
      const leaveB = await listeners.listen(b, (payload) => heard.push(`b:${payload}`));
      await leaveA();
      await notify(a, '1');
      await waitFor(async () => heard.length === 1, 'the other listener of a hears');
      assert.deepEqual(heard, ['a2:1']);
      await leaveA2();
      // Notifications come in the order sent: had a still been heard, its would come first.
      await notify(a, '2');
      await notify(b, '3');
      await waitFor(async () => heard.length === 2, 'b heard');
      assert.deepEqual(heard, ['a2:1', 'b:3']);
      assert.equal((await sessionsListening(prefix)).length, 1);
      await leaveB();
      await waitFor(async () => (await sessionsListening(prefix)).length === 0, 'the session closed');
    } finally {
      await listeners.stop();
    }
  });

  it('counts the same function listening twice as two listeners', async () => {
    const { a } = channelsOfTest();
    const listeners = postgresListeners({ connectionString: TEST_DATABASE_URL });
    let calls = 0;
    const onNotify = () => void calls++;
    try {
      const leaveFirst = await listeners.listen(a, onNotify);
      await listeners.listen(a, onNotify);
      await notify(a, '1');
      await waitFor(async () => calls === 2, 'both heard');
      await leaveFirst();
      await notify(a, '2');
      await waitFor(async () => calls === 3, 'the second still hears');
    } finally {
      await listeners.stop();
    }
  });

  it('refuses to listen once stopped, and leaves no session open', async () => {
    const { prefix, a, b } = channelsOfTest();
    const listeners = postgresListeners({ connectionString: TEST_DATABASE_URL });
    await listeners.listen(a, () => {});
    const racing = assert.rejects(
      listeners.listen(b, () => {}),
      /closed/,
    );
    await listeners.stop();
    await racing;
    await assert.rejects(
      listeners.listen(b, () => {}),
      /closed/,
    );
    await waitFor(async () => (await sessionsListening(prefix)).length === 0, 'no session left');
  });

  it('fails the first listen when no connection opens, and tries nothing more', async () => {
    const listeners = postgresListeners({ connectionString: 'postgres://postgres@127.0.0.1:1/nowhere' });
    try {
      await assert.rejects(listeners.listen('nowhere', () => {}));
      await assert.rejects(
        listeners.listen('nowhere', () => {}),
        'a second listen opens again, and fails again',
      );
    } finally {
      await listeners.stop();
    }
  });
});
