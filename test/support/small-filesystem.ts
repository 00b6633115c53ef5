// A small filesystem of a test's own (a tmpfs), for the tests that fill the disk under the
// embedded database. Mounting needs privileges (root, or CAP_SYS_ADMIN): CI runs as root. A test
// file asks `cannotMount` first and skips, saying why, where this process may not mount.
import { execFile } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SmallFilesystem {
  /** Where it is mounted. */
  path: string;
  /** Writes a filler file until the filesystem has `leaveMb` MiB of room left (none by default). */
  fill(leaveMb?: number): void;
  /** Deletes the filler file: the room it took is free again. */
  free(): void;
  /** Unmounts it and removes its mount point. */
  unmount(): Promise<void>;
}

/** Mounts a tmpfs of `sizeMb` MiB at a new temporary folder. */
export async function mountSmallFilesystem(sizeMb: number): Promise<SmallFilesystem> {
  const path = mkdtempSync(join(tmpdir(), 'ledgerhook-small-fs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', path]);
  } catch (error) {
    rmSync(path, { recursive: true, force: true });
    throw error;
  }
  const filler = join(path, 'filler');
  return {
    path,
    fill(leaveMb = 0) {
      const chunk = Buffer.alloc(64 * 1024);
      const room = () => {
        const { bavail, bsize } = statfsSync(path);
        return bavail * bsize;
      };
      const fd = openSync(filler, 'a');
      try {
        while (room() > leaveMb * 1024 * 1024) writeSync(fd, chunk);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    async unmount() {
      // Lazy: a process the test killed may still be closing its files there.
      await run('umount', ['-l', path]).catch(() => {});
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** Why this process cannot mount a small filesystem, or undefined when it can (it tries one). */
export async function cannotMount(): Promise<string | undefined> {
  try {
    await (await mountSmallFilesystem(1)).unmount();
    return undefined;
  } catch (error) {
    return `needs mount privileges (root) for a small tmpfs: ${(error as Error).message.split('\n')[0]}`;
  }
}
