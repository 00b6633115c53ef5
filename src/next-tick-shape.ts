// Keeps process.nextTick fast for the life of the process. Imported first by the entry point.
//
// Node 24 builds each tick object as an object literal with computed symbol keys. V8 remembers the
// object's shape (map) at each of those keys only weakly, and the first time it sees a second shape
// there it gives up for good: from then on every nextTick builds its object in the runtime, about
// 900 ns instead of 130 ns. A garbage collection while no tick object is alive (at start-up, between
// two bursts of work) drops the remembered shapes, the next nextTick makes new ones, and that is
// the second shape. Node's HTTP server calls nextTick about 7 times per request: in 8 of 11 service
// starts, get-by-id spent 5-6 % of its CPU building tick objects (docs/decisions/stack.md).
//
// One tick object held for the life of the process keeps its shape, and the ones before it, alive.
// Inside a tick's callback, executionAsyncResource() is that tick's object. (Calling it makes Node
// route native callbacks through its JavaScript trampoline from then on, a far smaller cost: the
// service measured 9 % less CPU per get-by-id with this module. An async hook's init would also
// hand over a tick object, but once enabled, even briefly, it slows every await for good.)
// test/next-tick-shape.test.ts fails when a Node version no longer needs this.
import { executionAsyncResource } from 'node:async_hooks';

function captureTickObject(): Promise<object> {
  return new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource())));
}

/** Exported so that nothing mistakes it for dead code. */
export const keptTickObject = await captureTickObject();
