// The signal that asks the service to stop: SIGTERM (an orchestrator) or SIGINT (Ctrl-C); for a
// command run in a terminal, SIGHUP too (the terminal closed).

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** What stops a command that lives in a terminal (`ledgerhook listen`). */
export const TERMINAL_STOP_SIGNALS = [...STOP_SIGNALS, 'SIGHUP'] as const;
export type StopSignal = (typeof TERMINAL_STOP_SIGNALS)[number];

export interface StopRequest {
  /** The signal received so far, if any. */
  readonly received: StopSignal | undefined;
  /** Resolves with the first signal. */
  readonly next: Promise<StopSignal>;
}

/**
 * Listens from now on. Each signal is caught once: a second one of the same kind ends the process
 * at once (Node's default), which is how an operator cuts a slow shutdown short.
 */
export function listenForStop(signals: readonly StopSignal[] = STOP_SIGNALS): StopRequest {
  let received: StopSignal | undefined;
  const next = new Promise<StopSignal>((resolve) => {
    for (const signal of signals) {
      process.once(signal, () => {
        received ??= signal;
        resolve(received);
      });
    }
  });
  return {
    get received() {
      return received;
    },
    next,
  };
}
