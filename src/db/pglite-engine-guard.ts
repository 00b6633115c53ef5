// What the embedded database does after a PANIC. PGlite runs PostgreSQL's one backend inside this
// process, and a PANIC there (a WAL segment that could not be written: `could not write to file
// "pg_wal/xlogtemp.42": No space left on device`, SQLSTATE 53100) is answered as an error like any
// other, but leaves the backend's state broken: the next statement that commits waits in XLogFlush,
// inside the WASM module, for a lock nobody will release. That wait is a loop without a system call
// on the main thread, so no request (/health/live included), timer or signal handler ever runs
// again, and freeing space changes nothing. PostgreSQL itself answers a PANIC by restarting every
// backend and replaying the WAL; here only a new process can (docs/decisions/database-outages.md).
//
// So every statement PGlite runs, its own included (the Sync after a failed statement, the ROLLBACK
// of a failed transaction), passes through here: the first PANIC or FATAL closes the door, and from
// then on each statement fails at once with DatabaseStoppedError instead of entering the engine.
import type { PGlite } from '@electric-sql/pglite';
import { DatabaseStoppedError } from './database.ts';

// A FATAL ends PostgreSQL's session, a PANIC its server; PGlite has the one session.
const ENGINE_ENDING = new Set(['FATAL', 'PANIC']);

export interface EngineGuard {
  /** Settles with the error once the engine has stopped. */
  readonly stopped: Promise<DatabaseStoppedError>;
  /** Whether it has: then the engine must not be entered again, not even to close it. */
  readonly isStopped: boolean;
}

/**
 * Puts the guard in front of `pg`'s two entry points for statements (every query, exec and
 * transaction statement goes through `execProtocolStream`; prepared statements and `close` through
 * `execProtocol`), and calls `onError` with every error a statement answers.
 */
export function guardEngine(pg: PGlite, onError: (error: unknown) => void): EngineGuard {
  let stopped: DatabaseStoppedError | undefined;
  let announce: (error: DatabaseStoppedError) => void = () => {};
  const whenStopped = new Promise<DatabaseStoppedError>((resolve) => {
    announce = resolve;
  });

  const guarded = <Args extends unknown[], Result>(entry: (...args: Args) => Promise<Result>) => {
    const original = entry.bind(pg);
    return async (...args: Args): Promise<Result> => {
      if (stopped) throw stopped;
      try {
        return await original(...args);
      } catch (error) {
        const severity = (error as { severity?: unknown } | null)?.severity;
        if (!stopped && typeof severity === 'string' && ENGINE_ENDING.has(severity)) {
          stopped = new DatabaseStoppedError(`The embedded database stopped after a ${severity}`, error);
          announce(stopped);
        }
        onError(error);
        throw error;
      }
    };
  };
  pg.execProtocolStream = guarded(pg.execProtocolStream);
  pg.execProtocol = guarded(pg.execProtocol);
  return {
    stopped: whenStopped,
    get isStopped() {
      return stopped !== undefined;
    },
  };
}
