// One process per embedded database folder. PGlite keeps the database in its process's memory and
// writes it back to DATA_DIR, so two processes on one folder each saw only their own writes, and the
// last to stop overwrote what the other had acknowledged (session 18, found by an audit). The lock
// is a file holding its owner's pid: a lock whose process is gone (a crash, kill -9) is taken over
// at once, where a lock library's staleness by age would hold a restart back for its timeout.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';

export const LOCK_FILE = 'ledgerhook.pid';

// Folders this process holds: a lock with our own pid is stale only if we do not hold it (in a
// container, a restarted service often gets the pid of the one that crashed).
const held = new Set<string>();

/** Takes the folder's lock, or throws ConfigError naming the process that holds it; answers the release. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      held.add(path);
      return () => release(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = ownerOf(path);
    if (owner !== undefined && (held.has(path) || (owner !== process.pid && isRunning(owner)))) {
      throw new ConfigError(`DATA_DIR ${dataDir} is in use by process ${owner}: one process per embedded database`);
    }
    removeIfPresent(path); // stale: its process is gone
  }
  throw new ConfigError(`DATA_DIR ${dataDir}: its lock ${LOCK_FILE} could not be taken`);
}

function release(path: string): void {
  if (!held.delete(path)) return;
  if (ownerOf(path) === process.pid) removeIfPresent(path);
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
