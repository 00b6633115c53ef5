// The database every test file's in-memory PGlite starts from: a new cluster with every migration
// applied, as PGlite dumps it. Making one (initdb in WASM, then the migrations) is the same work in
// every file and was most of what opening a test database cost: about 3.2 s of CPU against 0.85 s
// to load the dump, on a loaded 2-core machine. The first test process that needs it makes one and
// leaves the dump in the system's temporary folder, named by the user, PGlite's version and the
// migrations; every later process loads that file. Making one removes the user's dumps made more
// than an hour before (of other migrations: changing one leaves 27 MB behind each time).
//
// The dump holds the service's database alone: template0 and template1, which nothing in a test
// copies, are dropped before it is made. They were 15 MB of its 42, and loading it took half as
// long without them.
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { HOLDER_FILE, LOCK_FILE } from '../../src/db/data-dir-lock.ts';
import { listMigrations } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open-database.ts';

const PGLITE_VERSION: string = JSON.parse(
  readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8'),
).version;

let image: Promise<Blob> | undefined;

/** What the dump holds besides the migrations: a new format makes a new file. */
const IMAGE_FORMAT = 'without template databases';

/** The migrated cluster, dumped: once per process, from the file a process left when there is one. */
export function migratedClusterImage(): Promise<Blob> {
  image ??= loadOrMake();
  return image;
}

/**
 * A new DATA_DIR holding the migrated cluster, for a test whose service processes open an embedded
 * database that is not the subject of the test: the first `ledgerhook serve` of an empty folder
 * makes its cluster and applies every migration, about 6 s of CPU against 0.1 s to write this one.
 * The dump is a tar of the cluster's folder (PGlite's dumpDataDir 'none').
 */
export async function seededDataDir(prefix: string): Promise<string> {
  const tar = new Uint8Array(await (await migratedClusterImage()).arrayBuffer());
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  for (const entry of tarEntries(tar)) {
    const path = join(dataDir, entry.name);
    if (entry.kind === 'directory') mkdirSync(path, { recursive: true });
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, entry.content);
    }
  }
  return dataDir;
}

interface TarEntry {
  name: string;
  kind: 'file' | 'directory';
  content: Uint8Array;
}

/** The files and folders of a ustar archive: 512-byte headers, each followed by its content in blocks. */
function* tarEntries(tar: Uint8Array): Generator<TarEntry> {
  const text = (from: number, length: number) =>
    Buffer.from(tar.subarray(from, from + length))
      .toString('utf8')
      .replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const prefix = text(at + 345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(at, 100);
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[at + 156] ?? 0);
    const content = tar.subarray(at + 512, at + 512 + size);
    if (type === '5') yield { name, kind: 'directory', content };
    else if (type === '0' || type === '\0') yield { name, kind: 'file', content };
    else throw new Error(`the cluster image holds an entry of tar type ${JSON.stringify(type)}: ${name}`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

const STALE_MS = 3_600_000;

async function loadOrMake(): Promise<Blob> {
  const key = createHash('sha256').update(PGLITE_VERSION).update(IMAGE_FORMAT);
  for (const migration of listMigrations()) key.update(migration.name).update(migration.sql);
  const prefix = `ledgerhook-test-db-${process.getuid?.() ?? 0}-`;
  const file = join(tmpdir(), `${prefix}${key.digest('hex').slice(0, 16)}.tar`);
  try {
    return new Blob([readFileSync(file)]);
  } catch {}
  const dumped = await make();
  // Written whole under another name, then renamed: a process never reads half of one.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await dumped.arrayBuffer()));
  renameSync(partial, file);
  for (const name of readdirSync(tmpdir())) {
    const other = join(tmpdir(), name);
    if (!name.startsWith(prefix) || other === file) continue;
    try {
      if (Date.now() - statSync(other).mtimeMs > STALE_MS) rmSync(other, { force: true });
    } catch {}
  }
  return dumped;
}

/** Migrates a new cluster in a folder, as the service does its DATA_DIR, and has PGlite dump it. */
async function make(): Promise<Blob> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledgerhook-test-db-'));
  try {
    await (await openDatabase({ databaseUrl: undefined, dataDir })).close();
    // The service's own files, not the cluster's.
    for (const own of [LOCK_FILE, HOLDER_FILE]) rmSync(join(dataDir, own), { force: true });
    const pg = await PGlite.create({ dataDir });
    try {
      await pg.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
      await pg.exec('DROP DATABASE template0');
      await pg.exec('DROP DATABASE template1');
      await pg.exec('CHECKPOINT');
      return await pg.dumpDataDir('none');
    } finally {
      await pg.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
