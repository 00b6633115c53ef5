// A PostgreSQL backend allocates through glibc's malloc, which by default gives memory back to the
// system once 128 KiB lie free at the top of its heap. A page of 100 accounts needs a few hundred
// KiB: each such statement's memory would go back at its end and be faulted in again, page by page,
// by the next one (9–25 minor page faults per page request, 86 per name search, without this).
// glibc raises that threshold by itself when it frees a block it had mapped on its own (any
// allocation over its 128 KiB mmap threshold): to twice that block's size, for the rest of the
// process. So each connection's first statement allocates and frees one value of 1 MiB; its backend
// then keeps up to 2 MiB free for the statements that follow (decisions/backend-memory.md).
import type pg from 'pg';

const KEEP_FREED_MEMORY = "SELECT length(repeat('x', 1048576))";

/**
 * Run on each new connection before any other statement. It only tunes memory, so it never fails:
 * on a connection that is broken the next statement fails instead.
 */
export function keepFreedMemory(client: pg.ClientBase): Promise<void> {
  return client.query(KEEP_FREED_MEMORY).then(
    () => undefined,
    () => undefined,
  );
}
