// process.nextTick stays on V8's fast path when next-tick-shape.ts is loaded: its tick-object
// literal keeps one known shape at every computed key (MONOMORPHIC feedback), even after garbage
// collections while no tick object was alive. Without the module the same steps leave it
// MEGAMORPHIC; when that control fails, this Node version no longer needs the module.
// The feedback is read from V8's %DebugPrint, in a child process with natives syntax on.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';

const MODULE = new URL('../src/next-tick-shape.ts', import.meta.url).href;

/** The feedback states of nextTick's literal definitions after three bursts of ticks, each followed by a full GC. */
function literalFeedbackAfterCollections(loadModule: boolean): string[] {
  const script = `
    ${loadModule ? `await import(${JSON.stringify(MODULE)});` : ''}
    const noop = () => {};
    for (let burst = 0; burst < 3; burst++) {
      for (let i = 0; i < 100; i++) process.nextTick(noop);
      await new Promise((resolve) => setImmediate(resolve));
      globalThis.gc();
    }
    %DebugPrint(process.nextTick);
  `;
  const printed = execFileSync(
    process.execPath,
    ['--expose-gc', '--allow-natives-syntax', '--input-type=module', '--eval', script],
    { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' },
  );
  return [...printed.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] ?? '');
}

describe('nextTick fast path', () => {
  it('keeps every computed key of the tick object monomorphic when the module is loaded', () => {
    const states = literalFeedbackAfterCollections(true);
    assert.ok(states.length >= 2, `expected nextTick's literal definitions in V8's output, got ${states.length}`);
    assert.deepEqual(new Set(states), new Set(['MONOMORPHIC']));
  });

  it('is needed: without it the same collections leave the literal megamorphic', () => {
    const states = literalFeedbackAfterCollections(false);
    assert.ok(states.includes('MEGAMORPHIC'), `states: ${states.join(', ')}`);
  });
});
