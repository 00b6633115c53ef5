// A process that takes and releases a DATA_DIR lock when told, for the tests of src/db/data-dir-lock.ts
// that need the lock held by another process. Run as a program, it reads `lock` and `release` lines
// on stdin and answers `held`, `refused <message>` or `released` on stdout.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { lockDataDir } from '../../src/db/data-dir-lock.ts';
import { within } from './deadlines.ts';
import { untilEnding } from './process-state.ts';

// Far above what starting Node and taking a lock take on a loaded machine.
const ANSWER_GUARD_MS = 30_000;

export interface LockContender {
  pid: number;
  /** Sends `lock` or `release` and resolves with the answer. */
  ask(command: 'lock' | 'release'): Promise<string>;
  /** SIGKILL; resolves once the kernel is ending it (a zombie then, since its parent never reaps it). */
  kill(): Promise<void>;
  /** Ends its parent too, which hands the zombie to PID 1. */
  close(): Promise<void>;
}

/**
 * Starts a contender whose parent is `sleep`, which never reaps a child: once killed, the contender
 * stays a zombie, as a killed service does under a PID 1 that does not reap orphans.
 */
export async function startLockContender(dataDir: string): Promise<LockContender> {
  // The shell gives the contender its stdin (fd 3: a background job's fd 0 is /dev/null), then becomes sleep.
  const script = 'exec 3<&0; "$0" "$1" "$2" <&3 3<&- & exec sleep 600 3<&-';
  const parent = spawn('sh', ['-c', script, process.execPath, import.meta.filename, dataDir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const parentExited = once(parent, 'exit');
  const answers = createInterface({ input: parent.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const answer = async (to: string) => {
    const line = await within(ANSWER_GUARD_MS, `the lock contender answering ${to}`, answers.next());
    if (line.done) throw new Error(`the lock contender exited before answering ${to}`);
    return line.value;
  };
  let pid: number;
  try {
    pid = Number((await answer('its start')).replace(/^started /, ''));
  } catch (error) {
    // Without its parent and its stdin the contender ends too.
    parent.kill('SIGKILL');
    parent.stdin?.destroy();
    throw error;
  }
  return {
    pid,
    async ask(command) {
      parent.stdin?.write(`${command}\n`);
      return answer(command);
    },
    async kill() {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
      await untilEnding(pid);
    },
    async close() {
      parent.kill('SIGKILL');
      await parentExited;
    },
  };
}

if (import.meta.main) {
  const [dataDir = ''] = process.argv.slice(2);
  let release: (() => void) | undefined;
  console.log(`started ${process.pid}`);
  for await (const command of createInterface({ input: process.stdin })) {
    if (command === 'lock') {
      try {
        release = await lockDataDir(dataDir);
        console.log('held');
      } catch (error) {
        console.log(`refused ${(error as Error).message}`);
      }
    } else if (command === 'release') {
      release?.();
      release = undefined;
      console.log('released');
    }
  }
}
