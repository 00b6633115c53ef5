// LISTEN on PostgreSQL: a dedicated connection per listener, outside the pool (a pooled client would
// be handed to other work, and LISTEN belongs to a session). When the connection drops it is opened
// again with a growing delay; notifications sent meanwhile are lost, so once it listens again it calls
// `onNotify` with an empty payload: the listener looks for what it may have missed (see Database.listen).
import pg from 'pg';

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
const STOP_TIMEOUT_MS = 2_000;

export interface PostgresListener {
  stop(): Promise<void>;
}

export async function listenOnPostgres(
  clientConfig: pg.ClientConfig,
  channel: string,
  onNotify: (payload: string) => void,
): Promise<PostgresListener> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = FIRST_RETRY_MS;
  let listened = false;

  const connect = async (): Promise<void> => {
    const next = new pg.Client(clientConfig);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    // An error ends the session: drop it and open another. Without a listener it would crash.
    next.on('error', () => reconnect(next));
    next.on('end', () => reconnect(next));
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      reconnect(next);
      throw error;
    }
    retryMs = FIRST_RETRY_MS;
    if (listened) onNotify('');
    listened = true;
  };

  const reconnect = (failed: pg.Client) => {
    if (client !== failed) return;
    client = undefined;
    failed.end().catch(() => {});
    if (stopped) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch(() => {});
    }, retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  // The first connection must succeed: a wrong URL is a startup error, not a retry loop.
  try {
    await connect();
  } catch (error) {
    stopped = true;
    clearTimeout(retryTimer);
    throw error;
  }
  return {
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      // end() can wait long on a connection the server already dropped; do not hold up shutdown.
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STOP_TIMEOUT_MS);
      });
      await Promise.race([current?.end().catch(() => {}), bounded]);
      clearTimeout(timer);
    },
  };
}
