// One process per embedded database folder. PGlite keeps the database in its process's memory and
// writes it back to DATA_DIR, so two processes on one folder would each see only their own writes,
// and the last to stop would overwrite what the other had acknowledged.
//
// The lock is an advisory lock the kernel holds for the process (fcntl, taken through Node's own
// SQLite: a write transaction on DATA_DIR/ledgerhook.lock that stays open while the process runs).
// The kernel drops it when the process ends however it ends, before a killed process is even a
// zombie, so a crash never blocks the next start, a reused pid means nothing, and two processes
// started at once cannot both take it. Nothing else in the process may open that file: closing any
// descriptor of a file drops the process's fcntl locks on it (SQLite keeps its own open).
// docs/decisions/process-lifecycle.md says why not a pid file.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ConfigError } from '../config.ts';

/** The file whose lock is held. It stays in the folder: removing it would let two processes lock two files. */
export const LOCK_FILE = 'ledgerhook.lock';
/** The holder's pid, written once it holds the lock, for the message that names it; never decides anything. */
export const HOLDER_FILE = 'ledgerhook.pid';

/** Takes the folder's lock, or throws ConfigError naming the process that holds it; answers the release. */
export function lockDataDir(dataDir: string): () => void {
  // timeout 0: a held lock is answered at once (SQLITE_BUSY), never waited for.
  const lock = new DatabaseSync(join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    // IMMEDIATE takes SQLite's RESERVED lock, one write lock on one byte that one process at a time
    // can hold; nothing is written, so the file stays empty.
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    lock.close();
    if ((error as { errcode?: number }).errcode !== SQLITE_BUSY) throw error;
    const holder = holderOf(dataDir);
    throw new ConfigError(`DATA_DIR ${dataDir} is in use by ${holder}: one process per embedded database`);
  }
  const holderFile = join(dataDir, HOLDER_FILE);
  const written = `${holderFile}.${process.pid}`;
  writeFileSync(written, `${process.pid}\n`);
  renameSync(written, holderFile); // whole or not at all, for a reader that is refused meanwhile
  return () => {
    if (!lock.isOpen) return;
    rmSync(holderFile, { force: true }); // first, while no other process can have written its own
    lock.close();
  };
}

const SQLITE_BUSY = 5;

function holderOf(dataDir: string): string {
  let pid = Number.NaN;
  try {
    pid = Number(readFileSync(join(dataDir, HOLDER_FILE), 'utf8').trim());
  } catch {}
  // The holder writes its pid a moment after it has taken the lock.
  return Number.isInteger(pid) && pid > 0 ? `process ${pid}` : 'another process';
}
