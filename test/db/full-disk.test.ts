// The embedded database on a disk that fills up (a small tmpfs of the test's own; needs mount
// privileges). A table that cannot grow is an ERROR the engine survives: the write is refused as
// disk-full and succeeds again once there is room. A WAL segment that cannot be created is a PANIC
// the engine does not survive: the next write would wait forever inside the WASM module, blocking
// the event loop, so every statement after it is refused at once instead, and a new process
// replays what was committed (src/db/pglite-engine-guard.ts).
//
// Runs on the embedded database in both suite passes (the PostgreSQL side is read-only-database.test.ts).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Database, DatabaseStoppedError } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { needs } from '../support/components.ts';
import { PGLITE_PASS_ONLY } from '../support/database.ts';
import { mountSmallFilesystem, type SmallFilesystem } from '../support/small-filesystem.ts';

// A PGlite folder takes about 40 MB (its first WAL segment is 16 MB).
const SIZE_MB = 64;
// A row of about 640 kB that does not compress: the table must grow to take it.
const INSERT_LARGE_ROW =
  "INSERT INTO large_rows SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 20000)";

describe('the embedded database on a full disk', {
  skip: PGLITE_PASS_ONLY || (await needs('mount')),
  timeout: 60_000,
}, () => {
  let disk: SmallFilesystem;
  let dataDir: string;
  let db: Database | undefined;
  const open = () => openDatabase({ databaseUrl: undefined, dataDir });

  before(async () => {
    disk = await mountSmallFilesystem(SIZE_MB);
    dataDir = join(disk.path, 'data');
    db = await open();
    await db.query('CREATE TABLE large_rows (t text)');
  });
  after(async () => {
    await db?.close();
    await disk?.unmount();
  });

  it('refuses a write as disk-full while a table cannot grow, and takes it once there is room', async () => {
    const live = db as Database;
    disk.fill();
    await assert.rejects(live.query(INSERT_LARGE_ROW), { code: '53100', severity: 'ERROR' });
    assert.equal(live.recentWriteRefusal(), 'disk-full');
    disk.free();
    await live.query(INSERT_LARGE_ROW);
    assert.deepEqual(await live.query('SELECT count(*)::int AS n FROM large_rows'), [{ n: 1 }]);
  });

  it('stops after a PANIC: later statements fail at once, and a new process has every committed row', async () => {
    const live = db as Database;
    disk.fill();
    // The next WAL record goes to a new segment, which the full disk cannot take: PANIC at commit.
    await live.query('SELECT pg_switch_wal()');
    await assert.rejects(live.query("INSERT INTO large_rows VALUES ('not committed')"), {
      code: '53100',
      severity: 'PANIC',
    });
    const stopped = await live.stopped;
    assert.ok(stopped instanceof DatabaseStoppedError);
    assert.equal(stopped.code, '53100');
    // Without the guard this write would never return: a loop in the engine, event loop blocked.
    await assert.rejects(live.query("INSERT INTO large_rows VALUES ('after the panic')"), stopped);
    await assert.rejects(live.query('SELECT 1'), stopped);
    assert.equal(live.recentWriteRefusal(), 'disk-full');
    await live.close();
    db = undefined;

    disk.free();
    db = await open();
    assert.deepEqual(
      await db.query(
        'SELECT count(*)::int AS n, count(*) FILTER (WHERE length(t) < 100)::int AS small FROM large_rows',
      ),
      [{ n: 1, small: 0 }],
    );
  });
});
