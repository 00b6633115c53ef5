// The signal that asks the service to stop: SIGTERM (an orchestrator) or SIGINT (Ctrl-C).

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

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
export function listenForStop(): StopRequest {
  let received: StopSignal | undefined;
  const next = new Promise<StopSignal>((resolve) => {
    for (const signal of STOP_SIGNALS) {
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
