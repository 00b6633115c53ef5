// LISTEN on PostgreSQL: one dedicated connection per process for every channel it listens on,
// outside the pools (a pooled client would be handed to other work, and LISTEN belongs to a
// session). When the connection drops it is opened again with a growing delay and listens on every
// channel again in one statement; notifications sent meanwhile are lost, so each listener is then
// called with an empty payload: it looks for what it may have missed (see Database.listen).
import pg from 'pg';
import { isDatabaseUnavailable } from './database.ts';

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
const STOP_TIMEOUT_MS = 2_000;

type OnNotify = (payload: string) => void;
// One per listen() call, so that the same function listening twice is two listeners.
type Listener = { onNotify: OnNotify };

export interface PostgresListeners {
  /**
   * Calls `onNotify` with each payload sent on `channel` until the answered function is called.
   * With no connection open yet, it must open: a wrong URL is a startup error, not a retry loop.
   */
  listen(channel: string, onNotify: OnNotify): Promise<() => Promise<void>>;
  stop(): Promise<void>;
}

export function postgresListeners(clientConfig: pg.ClientConfig): PostgresListeners {
  const listenersOf = new Map<string, Set<Listener>>();
  // The connection, open or opening (`connecting`), and the channels it listens on.
  let session: pg.Client | undefined;
  let connecting = false;
  let listening = new Set<string>();
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = FIRST_RETRY_MS;
  let stopped = false;

  // Listening and unlistening run one at a time, so each sees the connection as the last one left it.
  let last: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(work, work);
    last = run.catch(() => {});
    return run;
  };

  const listenStatement = (channels: Iterable<string>) =>
    [...channels].map((channel) => `LISTEN ${pg.escapeIdentifier(channel)}`).join('; ');
  const callEach = (listeners: Iterable<Listener>, payload: string) => {
    for (const listener of listeners) listener.onNotify(payload);
  };

  const open = async (retryOnFailure: boolean): Promise<void> => {
    const next = new pg.Client(clientConfig);
    next.on('notification', (message) => callEach(listenersOf.get(message.channel) ?? [], message.payload ?? ''));
    // An error ends the session: drop it and open another. Without a listener it would crash.
    next.on('error', () => dropped(next));
    next.on('end', () => dropped(next));
    session = next;
    connecting = true;
    try {
      // stop() leaves a connecting client alone (a client ended while it connects never settles
      // its connect): it is closed here once connected (CONNECT_TIMEOUT_MS at most).
      await next.connect();
      connecting = false;
      if (stopped) throw new Error('The database is closed');
      const channels = new Set(listenersOf.keys());
      if (channels.size > 0) await next.query(listenStatement(channels));
      listening = channels;
    } catch (error) {
      connecting = false;
      if (retryOnFailure && !stopped) {
        dropped(next);
      } else {
        // The first connection: its caller hears of the failure, and nothing is retried.
        clearTimeout(retryTimer);
        retryTimer = undefined;
        close(next);
      }
      throw error;
    }
    retryMs = FIRST_RETRY_MS;
  };

  /** Forgets `client` as the session; answers whether it was. */
  const detach = (client: pg.Client): boolean => {
    if (session !== client) return false;
    session = undefined;
    listening = new Set();
    return true;
  };

  const close = (client: pg.Client) => {
    if (detach(client)) client.end().catch(() => {});
  };

  const dropped = (failed: pg.Client) => {
    if (session !== failed) return;
    close(failed);
    if (stopped || listenersOf.size === 0 || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      serially(async () => {
        if (session || stopped || listenersOf.size === 0) return;
        await open(true);
        for (const listeners of listenersOf.values()) callEach(listeners, '');
      }).catch(() => {}); // a failed open has scheduled the next try
    }, retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  const add = async (channel: string, listener: Listener): Promise<void> => {
    if (stopped) throw new Error('The database is closed');
    const listeners = listenersOf.get(channel) ?? new Set();
    listeners.add(listener);
    listenersOf.set(channel, listeners);
    // Down and being retried: the reopened connection listens on this channel too.
    if (retryTimer) return;
    if (!session) {
      try {
        await open(false);
      } catch (error) {
        remove(channel, listener);
        throw error;
      }
      return;
    }
    if (listening.has(channel)) return;
    const current = session;
    try {
      await current.query(listenStatement([channel]));
      listening.add(channel);
    } catch (error) {
      // The connection broke meanwhile (PostgreSQL may fail the statement before the socket
      // closes): it is opened again, listening on this channel too.
      if (session !== current) return;
      if (isDatabaseUnavailable(error)) {
        dropped(current);
        return;
      }
      remove(channel, listener);
      throw error;
    }
  };

  /** Forgets `listener`; answers whether it was the channel's last. */
  const remove = (channel: string, listener: Listener): boolean => {
    const listeners = listenersOf.get(channel);
    if (!listeners?.delete(listener) || listeners.size > 0) return false;
    listenersOf.delete(channel);
    return true;
  };

  const unlisten = async (channel: string, listener: Listener): Promise<void> => {
    if (!remove(channel, listener) || !session) return;
    if (listenersOf.size === 0) {
      await endBounded(session);
      return;
    }
    if (!listening.delete(channel)) return;
    await session.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
  };

  // end() can wait long on a connection the server already dropped; do not hold up shutdown.
  const endBounded = async (client: pg.Client) => {
    detach(client);
    let timer: NodeJS.Timeout | undefined;
    const bounded = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_TIMEOUT_MS);
    });
    await Promise.race([client.end().catch(() => {}), bounded]);
    clearTimeout(timer);
  };

  return {
    async listen(channel, onNotify) {
      const listener = { onNotify };
      await serially(() => add(channel, listener));
      return () => serially(() => unlisten(channel, listener));
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      listenersOf.clear();
      if (session && !connecting) await endBounded(session);
    },
  };
}
