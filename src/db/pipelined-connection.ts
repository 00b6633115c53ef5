// One PostgreSQL connection that quick statements share without waiting for each other's answers
// (node-postgres's pipeline mode): each is written at once, behind those not yet answered, and
// PostgreSQL answers them in order, each with its own result or error. A statement that takes a pool
// connection instead finds that connection's backend asleep and pays for waking it; on this shared
// connection the backend is often still busy with the one before (docs/decisions/query-plans.md).
// A slow statement would hold up every one behind it: only statements of microseconds come here.
import pg from 'pg';

export interface PipelinedConnection {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  /** Statements sent and not yet answered (or failed). */
  readonly pending: number;
  end(): Promise<void>;
}

interface Session {
  client: pg.Client;
  /** Forgets this session (the next statement opens another) and closes it. */
  drop(): void;
}

/**
 * Opens the connection at the first statement, and runs `onConnect` (which must not throw) on each
 * connection it opens before any other statement. A connection that fails, closes or is terminated is
 * dropped: the statements in flight on it fail with its error, and the next statement opens a new one.
 */
export function openPipelinedConnection(
  config: pg.ClientConfig,
  { onConnect }: { onConnect?: (client: pg.Client) => unknown } = {},
): PipelinedConnection {
  let connected: Session | undefined;
  let opening: Promise<Session> | undefined;
  let ended = false;
  let pending = 0;

  const open = (): Promise<Session> => {
    const client = new pg.Client({ ...config, pipeline: true });
    const session: Session = {
      client,
      drop: () => {
        if (connected === session) connected = undefined;
        if (opening === attempt) opening = undefined;
        client.end().catch(() => {});
      },
    };
    // Without a listener an error on an idle connection would crash the process.
    client.on('error', session.drop);
    client.on('end', session.drop);
    const attempt: Promise<Session> = client.connect().then(
      () => {
        // Unless it failed or was closed while connecting.
        if (opening === attempt) connected = session;
        // Sent now, it runs before every statement that follows: PostgreSQL answers in order.
        onConnect?.(client);
        return session;
      },
      (error: unknown) => {
        session.drop();
        throw error;
      },
    );
    return attempt;
  };

  // Answers the statement `query` counted as pending.
  const send = ({ client, drop }: Session, queryConfig: pg.QueryConfig) =>
    client.query(queryConfig).then(
      (result) => {
        pending--;
        return result;
      },
      (error: unknown) => {
        pending--;
        // A statement's own error (severity ERROR) leaves the session usable; a FATAL one (the backend
        // terminated) or a network error is announced before the client itself notices the end.
        if ((error as { severity?: string }).severity !== 'ERROR') drop();
        throw error;
      },
    );

  return {
    query(queryConfig) {
      if (ended) return Promise.reject(new Error('The pipelined connection has been closed'));
      // Pending from now, also while the connection opens.
      pending++;
      // The connected session is used directly: no promise to wait for on every statement.
      if (connected) return send(connected, queryConfig);
      opening ??= open();
      return opening.then(
        (session) => send(session, queryConfig),
        (error: unknown) => {
          pending--;
          throw error;
        },
      );
    },
    get pending() {
      return pending;
    },
    async end() {
      ended = true;
      const session = connected ?? (await opening?.catch(() => undefined));
      connected = undefined;
      opening = undefined;
      await session?.client.end();
    },
  };
}
