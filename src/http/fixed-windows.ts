// Fixed-window counts kept in this process, for the rate limits when no Redis shares them (or
// while it does not answer). Synchronous on purpose: every authenticated request counts here. The
// semantics are those of the counts in Redis (redis-counts.ts): a key's window starts with its
// first hit and ends `windowMs` later; the next hit after that starts a new one.
import { LRUCache } from 'lru-cache';

export interface Window {
  /** Hits in this window, the latest included. */
  count: number;
  /** When the window ends, in ms since the epoch. */
  endsAt: number;
}

export class FixedWindows {
  readonly #windowMs: number;
  // The least recently counted key makes room when the bound is reached.
  readonly #windows: LRUCache<string, Window>;

  constructor(windowMs: number, maxKeys: number) {
    this.#windowMs = windowMs;
    this.#windows = new LRUCache({ max: maxKeys });
  }

  /** Counts one hit of `key` and answers its window. */
  hit(key: string, now = Date.now()): Window {
    const window = this.#windows.get(key);
    if (window && window.endsAt > now) {
      window.count++;
      return window;
    }
    const fresh = { count: 1, endsAt: now + this.#windowMs };
    this.#windows.set(key, fresh);
    return fresh;
  }

  /** The window `key` is in, without counting; undefined when it has none that has not ended. */
  peek(key: string, now = Date.now()): Readonly<Window> | undefined {
    const window = this.#windows.peek(key);
    return window && window.endsAt > now ? window : undefined;
  }
}
