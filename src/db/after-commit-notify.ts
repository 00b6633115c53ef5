// NOTIFY sent after the work that calls for it has committed, from one statement at a time per
// channel. A NOTIFY inside a transaction makes PostgreSQL take one exclusive lock on its notification
// queue from the commit's start to its end, WAL flush included, so that every notifying commit of the
// server waits for the one before: under concurrent writes a listener cost each write about three
// times what its message did (docs/decisions/events.md, "Waking the workers"). Sent after commit,
// the writes commit side by side, and the notifications sent while one is on its way become one.
//
// PostgreSQL only: on the embedded database every listener is in the process, and is called directly.
//
// A NOTIFY only wakes listeners, who also poll: one lost to a crash between commit and NOTIFY, or to
// a failed statement, delays delivery until the next poll and loses nothing.

/** Sends one NOTIFY; any error is the caller's to swallow. */
export type SendNotify = (channel: string, payload: string) => Promise<unknown>;

/**
 * Answers `notify(channel, payload)`, which sends NOTIFY at once when none was sent on that channel
 * in the last `spacingMs`, and otherwise once more when that much time has passed since the last one
 * started and it has been sent, with the last payload asked for.
 */
export function coalescedNotifier(send: SendNotify, spacingMs = 0): (channel: string, payload: string) => void {
  // Per channel: present while a NOTIFY is on its way; its value the payload to send after it.
  const sending = new Map<string, string | undefined>();
  const sendNow = (channel: string, payload: string): void => {
    sending.set(channel, undefined);
    const started = Date.now();
    send(channel, payload)
      .catch(() => {})
      .finally(() => {
        const next = sending.get(channel);
        if (next === undefined) {
          sending.delete(channel);
          return;
        }
        const wait = started + spacingMs - Date.now();
        if (wait <= 0) sendNow(channel, next);
        else setTimeout(() => sendNow(channel, sending.get(channel) ?? next), wait).unref();
      });
  };
  return (channel, payload) => {
    if (sending.has(channel)) sending.set(channel, payload);
    else sendNow(channel, payload);
  };
}

/**
 * Collects a transaction's notifications until it ends: `commit()` sends them (one per channel),
 * and a transaction that rolls back drops the collector.
 */
export function notificationsOfTransaction(notify: (channel: string, payload: string) => void) {
  const pending = new Map<string, string>();
  return {
    add: (channel: string, payload: string) => void pending.set(channel, payload),
    commit: () => {
      for (const [channel, payload] of pending) notify(channel, payload);
    },
  };
}
