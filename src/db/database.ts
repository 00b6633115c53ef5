// One query interface over the embedded database (PGlite) and PostgreSQL (node-postgres).
// Stores receive a `Queryable` and never know which one runs underneath.

export interface QueryOptions {
  /**
   * The statement's best plan is the same whatever its parameter values (a primary-key lookup, a
   * page of a whole company in index order): PostgreSQL plans it once per connection and keeps the
   * plan. Without it a statement is planned for its values on every call, which a filter such as a
   * name substring needs (docs/decisions/query-plans.md). Inside a transaction every statement
   * is planned per call.
   */
  reusePlan?: boolean;
  /**
   * A statement of microseconds, such as a lookup by primary key, given with `reusePlan` (the
   * connection it shares keeps plans). On PostgreSQL it is written at once on one connection that
   * quick statements share, behind those not yet answered (pipelined), instead of taking a pool
   * connection. Never for a statement that may take long: every quick statement behind it would wait.
   */
  quick?: boolean;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * NOTIFY `channel` once the work this is part of has committed: at the transaction's commit, and
   * never for one rolled back; outside a transaction, at once. Only for a channel whose listeners
   * wake up and look: notifications asked for while one is on its way are sent as one, with the
   * last payload (after-commit-notify.ts).
   */
  notifyAfterCommit(channel: string, payload: string): void;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` until the returned function is
   * called (or the database closed). A wake-up only: notifications sent while the connection was
   * down are lost, so listeners also poll. On PostgreSQL a lost connection is opened again by itself;
   * once it listens again `onNotify` is called with an empty payload, for what may have been missed.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Calls `work` once the event loop has read the I/O pending now, so that requests that arrived
   * together can share one statement (get-by-id batches). A statement `work` starts runs at once.
   */
  afterPendingIo(work: () => void): void;
  /**
   * The last refusal of a write seen in the last WRITE_REFUSAL_MEMORY_MS (a full disk, a read-only
   * database), for readiness: the service may serve reads but no writes.
   */
  recentWriteRefusal(): WriteRefusal | undefined;
  /**
   * Settles with the error if the database can serve this process no more: the embedded engine after
   * a PANIC (pglite-engine-guard.ts). Never on PostgreSQL, whose server restarts its own backends.
   */
  readonly stopped: Promise<DatabaseStoppedError>;
  close(): Promise<void>;
}

/** SQLSTATE codes the callers map to client errors. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
/** A row an ON DELETE RESTRICT foreign key references: 23001 since PostgreSQL 18, 23503 before. */
export const PG_STILL_REFERENCED = ['23001', '23503'];

/** Text the database cannot store: a NUL character (22P05) or an invalid byte sequence (22021). */
export const PG_UNSTORABLE_TEXT = ['22P05', '22021'];

// PostgreSQL's classes 08 (connection exception) and the shutdown and connection-limit codes.
// Connection failures (08), shutdowns and a dropped database (57P01-57P05), too many connections
// (53300), and what a server answers a connection it will not serve: a database that does not exist
// (3D000) or takes no connections (55000), a role it does not know or admit (28000, 28P01).
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1-5]|53300|3D000|55000|28000|28P01)$/;
// What Node reports when the server cannot be reached or the connection breaks.
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
// node-postgres's own errors for a connection that ended, or that could not be had within the
// connect time-out (opening one, or waiting for a pool's busy ones), carry no code, only these messages.
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Connection ended|timeout exceeded when trying to connect$|timeout expired$)/;

/** Why the database refused a write that may succeed later, with nothing wrong in the request. */
export type WriteRefusal = 'disk-full' | 'read-only';

// 53100 disk_full: PostgreSQL's code for ENOSPC (a table or the WAL could not grow). 25006
// read_only_sql_transaction: a standby (in recovery), or default_transaction_read_only on.
const WRITE_REFUSALS: Record<string, WriteRefusal> = { '53100': 'disk-full', '25006': 'read-only' };

/** The write refusal `error` is, if it is one. */
export function writeRefusalOf(error: unknown): WriteRefusal | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? WRITE_REFUSALS[code] : undefined;
}

// How long readiness remembers a refused write. A request or the delivery worker meets a full disk
// or a read-only database only when it writes: while writes keep coming and failing, readiness keeps
// saying so; once none has failed for this long it says ready again, and the next write tells.
export const WRITE_REFUSAL_MEMORY_MS = 10_000;

/** Remembers the write refusals among the errors it is told of, for `recentWriteRefusal`. */
export function createWriteRefusalMemory(now = Date.now): {
  note(error: unknown): void;
  recent(): WriteRefusal | undefined;
} {
  let last: { refusal: WriteRefusal; at: number } | undefined;
  return {
    note(error) {
      const refusal = writeRefusalOf(error);
      if (refusal) last = { refusal, at: now() };
    },
    recent: () => (last && now() - last.at < WRITE_REFUSAL_MEMORY_MS ? last.refusal : undefined),
  };
}

/**
 * The database can serve this process no more: every statement fails with this error until the
 * process ends. It carries the SQLSTATE of the failure that stopped it (53100 for a full disk), so
 * that requests are answered for that cause.
 */
export class DatabaseStoppedError extends Error {
  readonly code: string | undefined;

  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'DatabaseStoppedError';
    this.code = (cause as { code?: string } | null)?.code;
  }
}

/**
 * Whether `error` says the database could not be reached or dropped the connection, rather than
 * refused the statement: the request may succeed if sent again shortly.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseStoppedError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_NODE_CODES.has(code);
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

export function isPgError(error: unknown, codes: string | readonly string[]): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && [codes].flat().includes(code);
}
