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
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../config.ts';

/** The file whose lock is held. It stays in the folder: removing it would let two processes lock two files. */
export const LOCK_FILE = 'ledgerhook.lock';
/** The holder's pid, written once it holds the lock, for the message that names it; never decides who holds it. */
export const HOLDER_FILE = 'ledgerhook.pid';
// A killed process keeps its files, and so the lock, until the kernel has freed its memory: most of
// a second for a large one on a busy machine. A start meanwhile waits for that, this long at most.
const ENDING_HOLDER_WAIT_MS = 10_000;

/**
 * Takes the folder's lock and answers its release. A process that holds it is answered at once with
 * a ConfigError naming it, unless that process is ending: then the lock is waited for.
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const deadline = Date.now() + ENDING_HOLDER_WAIT_MS;
  let release = tryLock(dataDir);
  while (!release) {
    const holder = holderOf(dataDir);
    if (!(holder === undefined || isEnding(holder)) || Date.now() > deadline) {
      const name = holder === undefined ? 'another process' : `process ${holder}`;
      throw new ConfigError(`DATA_DIR ${dataDir} is in use by ${name}: one process per embedded database`);
    }
    await sleep(10);
    release = tryLock(dataDir);
  }
  return release;
}

function tryLock(dataDir: string): (() => void) | undefined {
  // timeout 0: a held lock is answered at once (SQLITE_BUSY), never waited for by SQLite.
  const lock = new DatabaseSync(join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    // IMMEDIATE takes SQLite's RESERVED lock, one write lock on one byte that one process at a time
    // can hold; nothing is written, so the file stays empty.
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    lock.close();
    if ((error as { errcode?: number }).errcode === SQLITE_BUSY) return undefined;
    throw error;
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

/** The pid in the holder file; undefined while there is none (the holder writes it just after locking). */
export function holderOf(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, HOLDER_FILE), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

// The flag the kernel sets on a process it has begun to end (PF_EXITING, include/linux/sched.h).
const EXITING = 0x4;

/** Whether `pid` is gone, a zombie or being ended by the kernel, from /proc where there is one. */
export function isEnding(pid: number): boolean {
  if (!existsSync('/proc/self/stat')) return !isRunning(pid);
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true;
  }
  // After the name in parentheses (which may hold either): state, ppid, pgrp, session, tty, tpgid, flags.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[0] === 'Z' || (Number(fields[6]) & EXITING) !== 0;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it runs, as another user
  }
}
