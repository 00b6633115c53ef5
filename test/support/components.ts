// The programs some tests start besides Node and the npm packages: Chromium (the browser tests),
// redis-server (counts shared by several processes), PostgreSQL's server programs (a cluster of a
// test's own) and the right to mount a small tmpfs (a full disk). test/preflight.ts checks them
// before `npm test` runs any file; a suite that needs one takes as its `skip` what `await
// needs(name)` answered at the top of its file (before any suite, so that a throw fails the file
// before any test runs), and a file run alone says the same. Why a missing one fails the run: docs/decisions/test-suite.md.
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { cannotMount } from './small-filesystem.ts';

const run = promisify(execFile);
// Far above what `--version` takes; a program that does not answer within it is not usable.
const VERSION_GUARD_MS = 15_000;

/** Debian's Chromium, which playwright-core drives. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** redis-server: a path, or a name looked up on PATH. */
export const REDIS_SERVER = process.env.REDIS_SERVER || 'redis-server';
/** The folder of PostgreSQL's programs: initdb, pg_ctl, postgres and psql. */
export const POSTGRES_BIN = process.env.POSTGRES_BIN || '/usr/lib/postgresql/15/bin';

export type ComponentName = 'chromium' | 'redis-server' | 'postgresql' | 'mount';

export interface Component {
  name: ComponentName;
  /** The tests that need it. */
  neededBy: string;
  /** The one command that provides it (or what to do, where no package does). */
  remedy: string;
  /** The Debian package that provides it, if one does. */
  aptPackage?: string;
  /** Whether the pass on this database (PostgreSQL or the embedded one) runs a test that needs it. */
  neededOn(postgres: boolean): boolean;
  /** What was found (its version), or throws saying what is missing. */
  find(): Promise<string>;
}

export const COMPONENTS: Record<ComponentName, Component> = {
  chromium: {
    name: 'chromium',
    neededBy: "the dashboard's and /docs's browser tests",
    remedy: 'apt-get install -y chromium',
    aptPackage: 'chromium',
    neededOn: () => true,
    find: async () => firstLine(await version(program(CHROMIUM_PATH, 'CHROMIUM_PATH'))).replace(/ built on .*/, ''),
  },
  'redis-server': {
    name: 'redis-server',
    neededBy: 'the tests of rate limits shared through Redis and of Redis outages',
    remedy: 'apt-get install -y redis-server',
    aptPackage: 'redis-server',
    neededOn: () => true,
    find: async () => {
      const printed = await version(program(REDIS_SERVER, 'REDIS_SERVER'));
      return `redis-server ${/v=(\S+)/.exec(printed)?.[1] ?? firstLine(printed)}`;
    },
  },
  postgresql: {
    name: 'postgresql',
    neededBy: 'the tests that stop, restart or cut off a PostgreSQL server of their own',
    remedy: 'apt-get install -y postgresql-15',
    aptPackage: 'postgresql-15',
    neededOn: () => true,
    find: async () => {
      for (const tool of ['initdb', 'pg_ctl', 'psql']) program(join(POSTGRES_BIN, tool), 'POSTGRES_BIN');
      const printed = await version(program(join(POSTGRES_BIN, 'postgres'), 'POSTGRES_BIN'));
      // initdb refuses root: the cluster then runs as the user the package creates.
      if (process.getuid?.() === 0) {
        await run('id', ['-u', 'postgres'], { timeout: VERSION_GUARD_MS }).catch(() => {
          throw new Error('no user postgres to run a cluster as: initdb refuses root');
        });
      }
      return `PostgreSQL ${/\) (\S+)/.exec(printed)?.[1] ?? firstLine(printed)} in ${POSTGRES_BIN}`;
    },
  },
  mount: {
    name: 'mount',
    neededBy: "the full-disk tests of the embedded database (a tmpfs of their own; PostgreSQL's pass skips them)",
    remedy: 'run the suite as root (CI does)',
    neededOn: (postgres) => !postgres,
    find: async () => {
      const why = await cannotMount();
      if (why) throw new Error(why);
      return 'tmpfs mounts';
    },
  },
};

/** Whether this run is CI's (`CI` set, as CI services and .ci/run set it): there every test must run. */
export const ON_CI = Boolean(process.env.CI) && !['false', '0'].includes(String(process.env.CI).toLowerCase());

/** The components TEST_SKIP_MISSING lets a run go without, comma-separated; never under CI. */
export function skipsAllowed(): string[] {
  return (process.env.TEST_SKIP_MISSING ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

const found = new Map<ComponentName, Promise<string>>();
/** `find` of `name`, once per process. */
export function findComponent(name: ComponentName): Promise<string> {
  let finding = found.get(name);
  if (!finding) {
    finding = COMPONENTS[name].find();
    found.set(name, finding);
  }
  return finding;
}

/**
 * The `skip` of a suite that needs `name`: false when it is here; when it is missing, the reason,
 * if TEST_SKIP_MISSING names it outside CI. Otherwise throws, naming the command that provides it,
 * so that the file fails at once instead of in its first test.
 */
export async function needs(name: ComponentName): Promise<false | string> {
  const component = COMPONENTS[name];
  let missing: string;
  try {
    await findComponent(name);
    return false;
  } catch (error) {
    missing = (error as Error).message;
  }
  if (!ON_CI && skipsAllowed().includes(name)) {
    return `needs ${name}, missing here (${missing}); skipped as TEST_SKIP_MISSING says. To run it: ${component.remedy}`;
  }
  throw new Error(
    `${name} is missing (${missing}); ${component.neededBy} need it. ${component.remedy}` +
      (ON_CI ? ' (CI runs every test).' : `, or skip them: TEST_SKIP_MISSING=${name}.`),
  );
}

/** The file `path` names (looked up on PATH when it has no slash) if it is an executable file; else throws. */
function program(path: string, setting: string): string {
  const candidates = path.includes('/')
    ? [path]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((folder) => join(folder, path));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  throw new Error(path.includes('/') ? `no program at ${path} (${setting})` : `no ${path} on PATH (${setting})`);
}

/** What `path --version` prints; throws if it fails or does not answer. */
async function version(path: string): Promise<string> {
  const { stdout } = await run(path, ['--version'], { timeout: VERSION_GUARD_MS });
  return stdout;
}

const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';
