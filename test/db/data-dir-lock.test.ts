import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../../src/config.ts';
import { HOLDER_FILE, isEnding, lockDataDir } from '../../src/db/data-dir-lock.ts';
import { openPglite } from '../../src/db/pglite-database.ts';
import { type LockContender, startLockContender } from '../support/lock-contender.ts';
import { processState } from '../support/process-state.ts';

// One process per DATA_DIR: a second PGlite on the same folder would see only its own writes, and
// the last to close would overwrite the other's. test/faults/kill-and-restart.test.ts kills a
// running service and starts it again.
describe('the embedded database folder', () => {
  const dirs: string[] = [];
  const contenders: LockContender[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerhook-lock-'));
    dirs.push(dir);
    return dir;
  };
  const contender = async (dir: string) => {
    const started = await startLockContender(dir);
    contenders.push(started);
    return started;
  };
  after(async () => {
    for (const started of contenders) await started.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('admits one database at a time, and the next once the first has closed', async () => {
    const dir = newDir();
    const first = await openPglite(dir);
    assert.equal(readFileSync(join(dir, HOLDER_FILE), 'utf8'), `${process.pid}\n`);
    await assert.rejects(openPglite(dir), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(
        error.message,
        `DATA_DIR ${dir} is in use by process ${process.pid}: one process per embedded database`,
      );
      return true;
    });
    await first.close();
    assert.throws(() => readFileSync(join(dir, HOLDER_FILE)), /ENOENT/);
    const second = await openPglite(dir);
    await second.close();
  });

  it('is refused while another process holds it, and free once that process is killed, a zombie', async () => {
    const dir = newDir();
    const holder = await contender(dir);
    assert.equal(await holder.ask('lock'), 'held');
    await assert.rejects(lockDataDir(dir), new RegExp(`in use by process ${holder.pid}:`));
    await holder.kill();
    // Waited for while the kernel frees the killed holder's memory, then taken.
    (await lockDataDir(dir))();
    // Taken before the holder was reaped (its parent, `sleep`, never reaps it): the kernel may still
    // be ending it (state R with the exiting flag) or it is a zombie already; it ends a zombie.
    assert.ok(isEnding(holder.pid) && processState(holder.pid) !== undefined, 'the killed holder is not reaped');
    while (processState(holder.pid) !== 'Z') {
      assert.notEqual(processState(holder.pid), undefined, 'the killed holder is not reaped');
      await sleep(5);
    }
  });

  it('is not held by a pid in the holder file, whether that process is gone or runs', async () => {
    // A pid that is gone, this process's own (a restarted container often gets the crashed one's),
    // and a running process that is not ledgerhook (pids are handed out again).
    for (const stale of [gonePid(), process.pid, process.ppid]) {
      const dir = newDir();
      writeFileSync(join(dir, HOLDER_FILE), String(stale));
      const release = await lockDataDir(dir);
      assert.equal(readFileSync(join(dir, HOLDER_FILE), 'utf8'), `${process.pid}\n`);
      release();
    }
  });

  it('goes to exactly one of two processes that ask for it at once, with a stale holder file', {
    timeout: 60_000,
  }, async (t) => {
    const dir = newDir();
    const pair = await Promise.all([contender(dir), contender(dir)]);
    const stale = String(gonePid());
    let rounds = 0;
    // Many rounds, bounded in time: two processes asking at once rarely overlap to the microsecond.
    for (const end = Date.now() + 5_000; rounds < 500 && Date.now() < end; rounds++) {
      writeFileSync(join(dir, HOLDER_FILE), stale);
      const answers = await Promise.all(pair.map((process) => process.ask('lock')));
      const winners = pair.filter((_, i) => answers[i] === 'held');
      assert.equal(winners.length, 1, `round ${rounds}: ${answers.join(' / ')}`);
      assert.match(answers.find((answer) => answer !== 'held') ?? '', /^refused DATA_DIR .* is in use by /);
      assert.equal(await winners[0]?.ask('release'), 'released');
    }
    assert.ok(rounds >= 20, `only ${rounds} rounds`);
    t.diagnostic(`${rounds} rounds`);
  });
});

/** The pid of a process that has exited. */
function gonePid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
}
