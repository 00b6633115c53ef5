// The in-process rate-limit counts (src/http/fixed-windows.ts): fixed windows from a key's first
// hit, a fresh window once one ends, peeks that count nothing, and a bound on the keys kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixedWindows } from '../../src/http/fixed-windows.ts';

describe('fixed windows', () => {
  it('counts the hits of a key in the window its first hit started', () => {
    const windows = new FixedWindows(1000, 10);
    assert.deepEqual(windows.hit('a', 5000), { count: 1, endsAt: 6000 });
    assert.deepEqual(windows.hit('a', 5999), { count: 2, endsAt: 6000 });
    // Another key has its own window.
    assert.deepEqual(windows.hit('b', 5500), { count: 1, endsAt: 6500 });
  });

  it('starts a new window with the first hit after one ends', () => {
    const windows = new FixedWindows(1000, 10);
    windows.hit('a', 5000);
    windows.hit('a', 5500);
    assert.deepEqual(windows.hit('a', 6000), { count: 1, endsAt: 7000 });
  });

  it('peeks at a live window without counting, and at none once it ended', () => {
    const windows = new FixedWindows(1000, 10);
    assert.equal(windows.peek('a', 5000), undefined);
    windows.hit('a', 5000);
    assert.deepEqual(windows.peek('a', 5999), { count: 1, endsAt: 6000 });
    assert.deepEqual(windows.peek('a', 5999), { count: 1, endsAt: 6000 });
    assert.equal(windows.peek('a', 6000), undefined);
  });

  it('keeps at most its bound of keys, dropping the least recently counted', () => {
    const windows = new FixedWindows(1000, 2);
    windows.hit('a', 5000);
    windows.hit('b', 5000);
    windows.hit('a', 5001);
    windows.hit('c', 5002);
    assert.equal(windows.peek('b', 5003), undefined);
    assert.equal(windows.peek('a', 5003)?.count, 2);
    assert.equal(windows.peek('c', 5003)?.count, 1);
  });
});
