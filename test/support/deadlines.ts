// Bounds for the waits of the test harness: a process or browser that never answers makes a test
// fail, and whatever a fixture started is closed even when a later step or another close fails.

/** Rejects with `what` if `promise` has not settled within `ms`: a guard against hangs, not a timing. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

// Far above what closing a server, a worker or a browser takes, even on a loaded machine.
const CLOSE_GUARD_MS = 30_000;

/** What a fixture started, in order, each with how to close it. */
export class Started {
  readonly #closers: { what: string; close: () => Promise<unknown> }[] = [];

  /** Records `value` (named `what`) as started; answers it. */
  add<T>(what: string, value: T, close: (value: T) => Promise<unknown>): T {
    this.#closers.push({ what, close: () => close(value) });
    return value;
  }

  /**
   * Closes everything, newest first, each within CLOSE_GUARD_MS, every one even when another fails;
   * then throws the first failure.
   */
  async close(): Promise<void> {
    const failures: unknown[] = [];
    for (const { what, close } of this.#closers.splice(0).reverse()) {
      await within(CLOSE_GUARD_MS, `closing ${what}`, close()).catch((error) => failures.push(error));
    }
    if (failures.length > 0) throw failures[0];
  }
}
