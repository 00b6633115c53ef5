// The embedded database's page cache. PGlite reserves all of shared_buffers in the process's memory
// when it starts, whether or not the data fills it, and a page it does not hold is read through the
// WASM file system, several times slower than PostgreSQL's read from the OS cache. So the cache is
// sized to the data found at start: a new database gets PostgreSQL's default of 128 MB, a large one
// up to 512 MB (a client walking the pages of a million accounts: 1.5 times the pages per second of
// 128 MB, docs/decisions/pglite-cache.md). PGLITE_SHARED_BUFFERS_MB sets it outright.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MIN_AUTO_SHARED_BUFFERS_MB = 128;
const MAX_AUTO_SHARED_BUFFERS_MB = 512;

/** shared_buffers in MB for the database in `dataDir`: the size of its tables and indexes, within bounds. */
export function sharedBuffersFor(dataDir: string): number {
  const dataMb = dataDir === 'memory' ? 0 : Math.ceil(sizeOf(join(dataDir, 'base')) / 2 ** 20);
  return Math.min(MAX_AUTO_SHARED_BUFFERS_MB, Math.max(MIN_AUTO_SHARED_BUFFERS_MB, dataMb));
}

/** Bytes of the files under `folder` (0 when there is none yet). */
function sizeOf(folder: string): number {
  let entries: string[];
  try {
    entries = readdirSync(folder, { recursive: true, encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let bytes = 0;
  for (const entry of entries) {
    const stats = statSync(join(folder, entry), { throwIfNoEntry: false });
    if (stats?.isFile()) bytes += stats.size;
  }
  return bytes;
}
