// What /proc says of a process, for the tests that kill processes that are not their children (the
// server under `npm start`) and so get no exit event for them.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The state letter of a process (`R`, `S`, `Z` for a zombie…) from /proc/<pid>/stat; undefined once it is gone. */
export function processState(pid: number): string | undefined {
  try {
    // The name in parentheses may hold spaces and parentheses: the state follows the last `)`.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` has ended: gone, or a zombie whose threads have all exited. Its main thread shows Z
 * while the others still close its files (and so release its locks).
 */
export function hasEnded(pid: number): boolean {
  const state = processState(pid);
  if (state === undefined) return true;
  try {
    return state === 'Z' && readdirSync(`/proc/${pid}/task`).length === 1;
  } catch {
    return true; // gone meanwhile
  }
}

/** Resolves once `pid` has ended. Not a child of this process, so no event says so: polled. */
export async function untilEnded(pid: number, timeoutMs = 10_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !hasEnded(pid); await sleep(5)) {
    if (Date.now() > end)
      throw new Error(`process ${pid} still runs (${processState(pid)}) ${timeoutMs} ms after its signal`);
  }
}
