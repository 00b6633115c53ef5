// Values that are known at once on the hot path (a cached token, a count kept in process) and only
// sometimes must be waited for. Passing them on without a promise when there is none saves get-by-id
// the promises and microtask turns (docs/decisions/credentials.md, "Answered without waiting").

export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`, at once when `value` is known, else when it resolves. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** `run()`, with `onError` given what it throws at once or rejects with. */
export function recover<T>(run: () => MaybePromise<T>, onError: (error: unknown) => MaybePromise<T>): MaybePromise<T> {
  try {
    const value = run();
    return value instanceof Promise ? value.catch(onError) : value;
  } catch (error) {
    return onError(error);
  }
}
