import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIRST_PASS_ONLY } from '../support/database.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const COMPANY = '6f1c2a7e-1b2d-4c3e-8f4a-5b6c7d8e9f01';

/** Runs `ledgerhook …` and resolves with its exit code and output, whatever the code. */
function ledgerhook(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      // A usage answers at once; a command still running after this is killed, so that the test fails.
      { env: { ...process.env, DATABASE_URL: '', ...env }, timeout: 60_000, killSignal: 'SIGKILL' },
      // A process killed (or not started) has no exit code: -1, which no test expects.
      (error, stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stdout, stderr }),
    );
  });
}

describe('ledgerhook usage', { skip: FIRST_PASS_ONLY }, () => {
  for (const args of [['--help'], ['-h'], ['help'], []]) {
    it(`prints the whole usage and exits 0 for "${args.join(' ')}"`, async () => {
      const { code, stdout, stderr } = await ledgerhook(args);
      assert.equal(code, 0);
      assert.match(stdout, /^Usage:\n {2}ledgerhook serve/);
      for (const command of [
        'migrate',
        'token',
        'clients create',
        'api-keys revoke',
        'listen',
        'oauth-signing-key',
        '--version',
      ])
        assert.match(stdout, new RegExp(`^ {2}ledgerhook ${command}`, 'm'));
      assert.equal(stderr, '');
    });
  }

  // Each command's --help shows its own lines only: the commands it names and no other.
  for (const [args, shown] of [
    [['serve', '--help'], ['serve']],
    [['migrate', '-h'], ['migrate']],
    [['token', '--sub', 'x', '--help'], ['token']],
    [
      ['clients', '--help'],
      ['clients create', 'clients list', 'clients revoke'],
    ],
    [['clients', 'create', '--help'], ['clients create']],
    [['clients', 'revoke', '--help'], ['clients revoke']],
    [
      ['api-keys', '--help'],
      ['api-keys create', 'api-keys revoke'],
    ],
    [['api-keys', 'create', '--help'], ['api-keys create']],
    [['listen', '--help'], ['listen']],
    [['oauth-signing-key', '--help'], ['oauth-signing-key']],
  ] as const) {
    it(`prints only ${shown.join(', ')} for "${args.join(' ')}"`, async () => {
      const { code, stdout, stderr } = await ledgerhook([...args]);
      assert.equal(code, 0);
      assert.equal(stderr, '');
      const listed = [...stdout.matchAll(/^ {2}ledgerhook ([a-z-]+(?: (?:create|list|revoke))?)/gm)].map((m) => m[1]);
      assert.deepEqual(listed, shown);
    });
  }

  it('prints the package version for --version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const { code, stdout } = await ledgerhook(['--version']);
    assert.equal(code, 0);
    assert.equal(stdout, `${version}\n`);
  });

  // A command missing what it needs is refused before anything is opened, so no DATA_DIR appears.
  for (const args of [
    ['api-keys', 'create'],
    ['api-keys', 'revoke'],
    ['clients', 'create', '--name', 'x'],
  ]) {
    it(`refuses "${args.join(' ')}" with exit 2 and creates no DATA_DIR`, async () => {
      const parent = mkdtempSync(join(tmpdir(), 'ledgerhook-usage-'));
      try {
        const dataDir = join(parent, 'data');
        const { code, stdout, stderr } = await ledgerhook(args, { DATA_DIR: dataDir });
        assert.equal(code, 2);
        assert.equal(stdout, '');
        assert.match(stderr, new RegExp(`^ledgerhook: ${args[0]} ${args[1]} needs .*--help\\)\n$`));
        assert.equal(existsSync(dataDir), false);
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    });
  }

  for (const [args, message] of [
    [['token', '--bogus'], /^ledgerhook: Unknown option '--bogus'.*\(see ledgerhook --help\)\n$/],
    [['token', '--sub'], /^ledgerhook: Option '--sub <value>' argument missing \(see ledgerhook --help\)\n$/],
    [['serve', '--role'], /^ledgerhook: Option '--role <value>' argument missing \(see ledgerhook --help\)\n$/],
    [['clients', 'list', '--bogus'], /^ledgerhook: Unknown option '--bogus'.*\(see ledgerhook --help\)\n$/],
    [['frobnicate'], /^ledgerhook: unknown command "frobnicate"; see ledgerhook --help\n$/],
    [['migrate', '--bogus'], /^ledgerhook: Unknown option '--bogus'.*\(see ledgerhook --help\)\n$/],
    [['migrate', 'now'], /^ledgerhook: Unexpected argument 'now'.*\(see ledgerhook --help\)\n$/],
    [['oauth-signing-key', '--pem'], /^ledgerhook: Unknown option '--pem'.*\(see ledgerhook --help\)\n$/],
    // Claims the service would refuse are refused before any token is printed.
    [
      ['token', '--sub', 'alice', '--company', COMPANY, '--scope', 'accounts:read'],
      /^ledgerhook: --sub alice is not a uuid\n$/,
    ],
    [
      ['token', '--sub', COMPANY, '--company', 'acme', '--scope', 'accounts:read'],
      /^ledgerhook: --company acme is not a uuid\n$/,
    ],
    [
      ['token', '--sub', COMPANY, '--company', COMPANY, '--scope', 'accounts:read accounts:reed export-items:write'],
      /^ledgerhook: --scope: no such scope accounts:reed, export-items:write; the scopes are accounts:read /,
    ],
  ] as const) {
    it(`refuses "${args.join(' ')}" in one line, exit 2`, async () => {
      const { code, stdout, stderr } = await ledgerhook([...args]);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, message);
    });
  }
});
