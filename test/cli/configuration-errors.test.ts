// A configuration error ends `ledgerhook` with exit code 2 and one line on stderr saying which setting
// is wrong, never a stack trace: the documented systemd units restart on any other failure, every 2 s,
// but not on exit code 2 (RestartPreventExitStatus=2, docs/operations.md). Settings the API checks
// are checked before the database is opened, so a wrong one is reported whatever the database's state.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FIRST_PASS_ONLY, POSTGRES_PASS_ONLY, TEST_DATABASE_URL } from '../support/database.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
// A process that has not ended by then is killed, and the test fails on its signal.
const DEADLINE_MS = 60_000;
const UUID = '6f1c2a7e-1b2d-4c3e-8f4a-5b6c7d8e9f01';
const TOKEN = ['token', '--sub', UUID, '--company', UUID, '--scope', 'accounts:read'];
// Settings of the test's environment that would change the outcome.
const CLEAN = {
  DATABASE_URL: '',
  DATA_DIR: 'memory',
  AUTH_JWT_SECRET: '',
  AUTH_JWKS_URL: '',
  OAUTH_SIGNING_KEY: '',
  API_KEY_PEPPER: '',
  PUBLIC_BASE_URL: '',
  REDIS_URL: '',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'info',
  OTEL_SDK_DISABLED: '',
  OTEL_EXPORTER_OTLP_ENDPOINT: '',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
  OTEL_EXPORTER_OTLP_PROTOCOL: '',
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: '',
  OTEL_EXPORTER_OTLP_HEADERS: '',
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: '',
  OTEL_TRACES_EXPORTER: '',
  OTEL_TRACES_SAMPLER: '',
  OTEL_TRACES_SAMPLER_ARG: '',
  OTEL_RESOURCE_ATTRIBUTES: '',
};

interface Ended {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

function ledgerhook(args: string[], env: Record<string, string>): Promise<Ended> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { env: { ...process.env, ...CLEAN, ...env }, timeout: DEADLINE_MS, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const ended = error as { code?: unknown; signal?: string | null } | null;
        resolve({
          code: ended ? (typeof ended.code === 'number' ? ended.code : null) : 0,
          signal: ended?.signal ?? null,
          stdout,
          stderr,
        });
      },
    );
  });
}

/** Exit code 2, and stderr one line that matches `message`. */
function assertRefused(ended: Ended, message: RegExp): void {
  assert.deepEqual([ended.code, ended.signal], [2, null], ended.stderr);
  assert.match(ended.stderr, /^ledgerhook: [^\n]+\n$/, 'one line');
  assert.match(ended.stderr, message);
}

describe('configuration errors: exit code 2 and one line', { timeout: 240_000 }, () => {
  // A "database" that accepts connections and never answers: a process that reached it before
  // refusing its settings would be seen here (and would hang until its deadline).
  let silent: Server;
  const connections: Socket[] = [];
  let silentUrl: string;
  let folder: string;
  before(async () => {
    silent = createServer((socket) => connections.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    silentUrl = `postgres://ledgerhook@127.0.0.1:${(silent.address() as { port: number }).port}/ledgerhook`;
    folder = mkdtempSync(join(tmpdir(), 'ledgerhook-settings-'));
    writeFileSync(join(folder, 'a-file'), '');
  });
  after(() => {
    for (const socket of connections) socket.destroy();
    silent?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const beforeTheDatabase: [string, string[], () => Record<string, string>, RegExp][] = [
    [
      'an API on DATABASE_URL without a shared key',
      ['serve', '--role', 'api'],
      () => ({ DATABASE_URL: silentUrl }),
      /^ledgerhook: with DATABASE_URL, set AUTH_JWT_SECRET, AUTH_JWKS_URL or OAUTH_SIGNING_KEY/,
    ],
    [
      'OAUTH_SIGNING_KEY that is not a key',
      ['serve'],
      () => ({ DATABASE_URL: silentUrl, OAUTH_SIGNING_KEY: 'not-a-key' }),
      /^ledgerhook: OAUTH_SIGNING_KEY is not a private key in PEM or JWK form\n$/,
    ],
    [
      'a token on DATABASE_URL without AUTH_JWT_SECRET',
      TOKEN,
      () => ({ DATABASE_URL: silentUrl, OAUTH_SIGNING_KEY: 'any' }),
      /^ledgerhook: token needs AUTH_JWT_SECRET/,
    ],
    [
      'an API key created on DATABASE_URL without a pepper',
      ['clients', 'create', '--name', 'x', '--company', UUID, '--scope', 'accounts:read'],
      () => ({ DATABASE_URL: silentUrl }),
      /^ledgerhook: API keys need API_KEY_PEPPER/,
    ],
    [
      'DATABASE_URL of another scheme',
      ['migrate'],
      () => ({ DATABASE_URL: 'mysql://ledgerhook@127.0.0.1/ledgerhook' }),
      /^ledgerhook: DATABASE_URL must be a postgres: or postgresql:\/\/ URL\n$/,
    ],
    [
      'DATABASE_URL that is no URL (a port out of range)',
      ['serve', '--role', 'worker'],
      () => ({ DATABASE_URL: 'postgres://db.internal:99999/ledgerhook' }),
      /^ledgerhook: DATABASE_URL is not an absolute URL\n$/,
    ],
    ['a PORT out of range', ['serve'], () => ({ PORT: '65536' }), /^ledgerhook: PORT=65536 /],
    [
      'a HOST with a comment after it, as systemd passes it',
      ['serve'],
      () => ({ HOST: '127.0.0.1   # only the proxy' }),
      /^ledgerhook: HOST=127\.0\.0\.1 {3}# only the proxy is not an IP address or a host name\n$/,
    ],
    [
      'a value with a line break, written escaped',
      ['serve'],
      () => ({ LOG_LEVEL: 'info\ndebug' }),
      /^ledgerhook: LOG_LEVEL=info\\ndebug must be one of /,
    ],
    [
      'a REDIS_URL of another scheme',
      ['serve'],
      () => ({ REDIS_URL: 'http://127.0.0.1:6379' }),
      /^ledgerhook: REDIS_URL must be a redis: or rediss:\/\/ URL\n$/,
    ],
    [
      'the gRPC OTLP protocol, which no exporter here speaks',
      ['serve'],
      () => ({
        DATABASE_URL: silentUrl,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      }),
      /^ledgerhook: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported \(no gRPC exporter ships\): use http\/protobuf or http\/json\n$/,
    ],
    [
      'an unknown OTEL_TRACES_SAMPLER',
      ['serve'],
      () => ({ DATABASE_URL: silentUrl, OTEL_TRACES_SAMPLER: 'sometimes' }),
      /^ledgerhook: OTEL_TRACES_SAMPLER=sometimes must be one of always_on, always_off, traceidratio, /,
    ],
    [
      'a sampler ratio above 1',
      ['serve', '--role', 'worker'],
      () => ({
        DATABASE_URL: silentUrl,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '10%',
      }),
      /^ledgerhook: OTEL_TRACES_SAMPLER_ARG=10% is not a ratio from 0 to 1\n$/,
    ],
    [
      'an OTLP endpoint that is no http(s) URL',
      ['serve'],
      () => ({ DATABASE_URL: silentUrl, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' }),
      /^ledgerhook: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be a http: or https:\/\/ URL\n$/,
    ],
    [
      'OTLP headers not in key=value form, without echoing them',
      ['serve'],
      () => ({ DATABASE_URL: silentUrl, OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s3cret,Bearer s3cret' }),
      /^ledgerhook: OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value\n$/,
    ],
    [
      'a traces exporter that does not ship',
      ['serve'],
      () => ({ DATABASE_URL: silentUrl, OTEL_TRACES_EXPORTER: 'console' }),
      /^ledgerhook: OTEL_TRACES_EXPORTER=console is not supported: use otlp or none\n$/,
    ],
    [
      'OTEL_SDK_DISABLED that is not a boolean',
      ['serve'],
      () => ({ DATABASE_URL: silentUrl, OTEL_SDK_DISABLED: 'yes' }),
      /^ledgerhook: OTEL_SDK_DISABLED=yes must be one of true, false\n$/,
    ],
    [
      'a token with DATA_DIR under a file',
      TOKEN,
      () => ({ DATA_DIR: join(folder, 'a-file', 'data') }),
      /^ledgerhook: DATA_DIR .*a-file\/data cannot be the embedded database's folder: a file is in the way\n$/,
    ],
  ];
  // Refused before any database is opened: the same in either pass, so run in the first.
  describe('refused before a database is opened', { skip: FIRST_PASS_ONLY }, () => {
    for (const [what, args, env, message] of beforeTheDatabase) {
      it(`refuses ${what} before opening a database (${args[0]})`, async () => {
        const opened = connections.length;
        const ended = await ledgerhook(args, env());
        assertRefused(ended, message);
        assert.equal(ended.stdout, '', 'nothing logged before the refusal');
        assert.equal(connections.length, opened, 'no connection to the database');
      });
    }

    it('refuses a DATA_DIR that is a file, at serve', async () => {
      assertRefused(
        await ledgerhook(['serve'], { DATA_DIR: join(folder, 'a-file') }),
        /^ledgerhook: DATA_DIR .*a-file cannot be the embedded database's folder: a file is in the way\n$/,
      );
    });
  });

  describe('a PostgreSQL server that refuses DATABASE_URL', { skip: POSTGRES_PASS_ONLY }, () => {
    const url = (change: (url: URL) => void) => {
      const changed = new URL(TEST_DATABASE_URL as string);
      change(changed);
      return changed.toString();
    };
    const missing = `ledgerhook_missing_${randomBytes(5).toString('hex')}`;

    it('names a database it does not have', async () => {
      const DATABASE_URL = url((u) => {
        u.pathname = `/${missing}`;
      });
      assertRefused(
        await ledgerhook(['migrate'], { DATABASE_URL }),
        new RegExp(`^ledgerhook: DATABASE_URL: database "${missing}" does not exist\\n$`),
      );
    });

    it('names a role it does not have, at serve', async () => {
      const DATABASE_URL = url((u) => {
        u.username = missing;
      });
      assertRefused(
        await ledgerhook(['serve', '--role', 'worker'], { DATABASE_URL }),
        // As the server's authentication has it: an unknown role, or a password it does not take.
        new RegExp(`^ledgerhook: DATABASE_URL: (role|password authentication failed for user) "${missing}"`),
      );
    });
  });
});
