// A small filesystem of a test's own (a tmpfs), for the tests that fill the disk under the
// embedded database. Mounting needs privileges (root, or CAP_SYS_ADMIN): CI runs as root. The
// component `mount` of test/support/components.ts is `cannotMount`: a suite that mounts one takes
// `await needs('mount')` as its skip.
import { execFile } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
// mount and umount answer at once; one that does not within this is killed, so that the test fails.
const run = (program: string, args: string[]) =>
  execFileAsync(program, args, { timeout: 30_000, killSignal: 'SIGKILL' });

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
