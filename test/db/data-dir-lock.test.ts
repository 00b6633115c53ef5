import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError } from '../../src/config.ts';
import { LOCK_FILE } from '../../src/db/data-dir-lock.ts';
import { openPglite } from '../../src/db/pglite-database.ts';

// One process per DATA_DIR: a second PGlite on the same folder would see only its own writes, and
// the last to close would overwrite the other's.
describe('the embedded database folder', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerhook-lock-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('admits one database at a time, and the next once the first has closed', async () => {
    const dir = newDir();
    const first = await openPglite(dir);
    assert.equal(readFileSync(join(dir, LOCK_FILE), 'utf8'), String(process.pid));
    await assert.rejects(openPglite(dir), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, new RegExp(`is in use by process ${process.pid}`));
      return true;
    });
    await first.close();
    assert.throws(() => readFileSync(join(dir, LOCK_FILE)), /ENOENT/);
    const second = await openPglite(dir);
    await second.close();
  });

  it('is refused while another running process holds it', async () => {
    const dir = newDir();
    writeFileSync(join(dir, LOCK_FILE), String(process.ppid));
    await assert.rejects(openPglite(dir), new RegExp(`in use by process ${process.ppid}`));
  });

  it('is taken over from a process that is gone (a crash), and from this pid when not held here', async () => {
    for (const stale of [gonePid(), process.pid]) {
      const dir = newDir();
      writeFileSync(join(dir, LOCK_FILE), String(stale));
      const db = await openPglite(dir);
      assert.equal(readFileSync(join(dir, LOCK_FILE), 'utf8'), String(process.pid));
      await db.close();
    }
  });
});

/** The pid of a process that has exited. */
function gonePid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
}
