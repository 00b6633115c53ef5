import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openPglite } from '../../src/db/pglite-database.ts';
import { sharedBuffersFor } from '../../src/db/pglite-shared-buffers.ts';
import { PGLITE_PASS_ONLY } from '../support/database.ts';

const MB = 2 ** 20;

describe('the embedded database cache (shared_buffers)', { skip: PGLITE_PASS_ONLY }, () => {
  const root = mkdtempSync(join(tmpdir(), 'ledgerhook-cache-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A data folder whose tables and indexes (base/) add up to `mb`, as sparse files. */
  function dataDirOf(name: string, files: number[]): string {
    const dir = join(root, name);
    files.forEach((mb, i) => {
      const folder = join(dir, 'base', String(i));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, '16384'), '');
      truncateSync(join(folder, '16384'), mb * MB);
    });
    // Outside base/ (WAL, settings): not data a page cache holds.
    mkdirSync(join(dir, 'pg_wal'), { recursive: true });
    writeFileSync(join(dir, 'pg_wal', 'segment'), '');
    truncateSync(join(dir, 'pg_wal', 'segment'), 1000 * MB);
    return dir;
  }

  it("is PostgreSQL's default for a new database, in memory or on disk", () => {
    assert.equal(sharedBuffersFor('memory'), 128);
    assert.equal(sharedBuffersFor(join(root, 'not-created-yet')), 128);
    assert.equal(sharedBuffersFor(dataDirOf('small', [3, 5])), 128);
  });

  it('follows the size of the tables and indexes found at start, up to 512 MB', () => {
    assert.equal(sharedBuffersFor(dataDirOf('medium', [200, 99.5])), 300);
    assert.equal(sharedBuffersFor(dataDirOf('large', [400, 900])), 512);
  });

  it('is what PGlite runs with: sized to the data, or as set', async () => {
    const shown = async (dataDir: string, size?: number | 'auto') => {
      const db = await openPglite(dataDir, size === undefined ? {} : { pgliteSharedBuffersMb: size });
      try {
        const [row] = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
        return row?.shared_buffers;
      } finally {
        await db.close();
      }
    };
    assert.equal(await shown('memory'), '128MB');
    assert.equal(await shown('memory', 48), '48MB');
    const onDisk = join(root, 'real');
    assert.equal(await shown(onDisk, 'auto'), '128MB');
    // A file PostgreSQL never reads, that makes the data look 200 MB larger at the next start.
    writeFileSync(join(onDisk, 'base', 'padding'), '');
    truncateSync(join(onDisk, 'base', 'padding'), 200 * MB);
    const grown = sharedBuffersFor(onDisk);
    assert.ok(grown > 200 && grown < 512, `${grown}`);
    assert.equal(await shown(onDisk), `${grown}MB`);
  });
});
