// What /proc says of a process, for the tests that kill processes that are not their children (the
// server under `npm start`) and so get no exit event for them.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { isEnding } from '../../src/db/data-dir-lock.ts';

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

/** Resolves once `pid` is gone, a zombie or being ended. Not a child of this process: no event says so, so polled. */
export async function untilEnding(pid: number, timeoutMs = 10_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !isEnding(pid); await sleep(5)) {
    if (Date.now() > end)
      throw new Error(`process ${pid} still runs (${processState(pid)}) ${timeoutMs} ms after its signal`);
  }
}
