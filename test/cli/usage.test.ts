import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const COMPANY = '6f1c2a7e-1b2d-4c3e-8f4a-5b6c7d8e9f01';

/** Runs `ledgerhook …` and resolves with its exit code and output, whatever the code. */
function ledgerhook(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { env: { ...process.env, DATABASE_URL: '' } },
      (error, stdout, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
    );
  });
}

describe('ledgerhook usage', () => {
  for (const args of [['--help'], ['-h'], ['help'], ['token', '--help'], []]) {
    it(`prints the usage and exits 0 for "${args.join(' ')}"`, async () => {
      const { code, stdout, stderr } = await ledgerhook(args);
      assert.equal(code, 0);
      assert.match(stdout, /^Usage:\n {2}ledgerhook serve/);
      assert.equal(stderr, '');
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
