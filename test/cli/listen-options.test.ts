// The command line of `ledgerhook listen`: which service, which credential (options before the
// environment, one kind only), and the refusals, each a ConfigError (one line, exit code 2) before
// anything starts. The command itself runs in listen.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { parseListenOptions } from '../../src/listen/options.ts';

const config = loadConfig({ HOST: '127.0.0.1', PORT: '8080' });
const parse = (argv: string[], env: Record<string, string> = {}) => parseListenOptions(argv, config, env);
const refused = (argv: string[], env: Record<string, string>, message: RegExp) =>
  assert.throws(
    () => parse(argv, env),
    (error: unknown) => error instanceof ConfigError && message.test(error.message),
  );

describe('ledgerhook listen options', () => {
  it('asks the service where it listens by default (PUBLIC_BASE_URL, else HOST and PORT), else at --url', () => {
    assert.equal(parse(['--api-key', 'k']).url.href, 'http://127.0.0.1:8080/');
    const behind = loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/ledger' });
    assert.equal(parseListenOptions(['--api-key', 'k'], behind, {}).url.href, 'https://api.example.com/ledger/');
    assert.equal(parse(['--api-key', 'k', '--url', 'http://localhost:9000']).url.href, 'http://localhost:9000/');
  });

  it('takes one credential from the options, else from the environment', () => {
    assert.deepEqual(parse(['--api-key', 'lhk_a']).credential, { kind: 'api-key', key: 'lhk_a' });
    assert.deepEqual(parse(['--token', 'eyJ']).credential, { kind: 'token', token: 'eyJ' });
    assert.deepEqual(parse(['--client-id', 'c', '--client-secret', 's']).credential, {
      kind: 'client',
      clientId: 'c',
      clientSecret: 's',
    });
    assert.deepEqual(parse([], { LEDGERHOOK_API_KEY: 'lhk_env' }).credential, { kind: 'api-key', key: 'lhk_env' });
    // An option wins over a variable of another kind; a client's two may come one from each.
    assert.deepEqual(parse(['--token', 'eyJ'], { LEDGERHOOK_API_KEY: 'lhk_env' }).credential, {
      kind: 'token',
      token: 'eyJ',
    });
    assert.deepEqual(parse(['--client-id', 'c'], { LEDGERHOOK_CLIENT_SECRET: 's' }).credential, {
      kind: 'client',
      clientId: 'c',
      clientSecret: 's',
    });
  });

  it('refuses no credential, two kinds, half a client and an empty key', () => {
    refused([], { LEDGERHOOK_API_KEY: '' }, /^listen needs a credential: --api-key, --token, or --client-id/);
    refused(['--api-key', 'k', '--token', 't'], {}, /^listen takes one credential, not --api-key and --token$/);
    refused([], { LEDGERHOOK_API_KEY: 'k', LEDGERHOOK_TOKEN: 't' }, /not LEDGERHOOK_API_KEY and LEDGERHOOK_TOKEN$/);
    refused(['--client-id', 'c'], {}, /^--client-id needs --client-secret/);
    refused(['--api-key', ''], {}, /^the API key is empty$/);
  });

  it('reads --events, --forward and --port, and refuses them malformed', () => {
    const options = parse([
      '--api-key',
      'k',
      '--events',
      'v1.account.created, v1.account.updated,v1.account.created',
      '--forward',
      'http://localhost:3000/hook',
      '--port',
      '4000',
      '--verbose',
    ]);
    assert.deepEqual(options.events, ['v1.account.created', 'v1.account.updated']);
    assert.equal(options.forward?.href, 'http://localhost:3000/hook');
    assert.equal(options.port, 4000);
    assert.equal(options.verbose, true);
    assert.equal(parse(['--api-key', 'k']).events, undefined);
    assert.equal(parse(['--api-key', 'k']).port, 0);
    refused(['--api-key', 'k', '--events', 'a,,b'], {}, /^--events "a,,b" has an empty event type$/);
    refused(['--api-key', 'k', '--forward', 'localhost:3000'], {}, /^--forward localhost:3000 must be http\(s\)$/);
    refused(['--api-key', 'k', '--forward', '/hook'], {}, /^--forward \/hook is not an absolute URL$/);
    refused(['--api-key', 'k', '--port', '65536'], {}, /^--port 65536 is not a port from 0 to 65535$/);
    refused(['--api-key', 'k', '--port=-1'], {}, /^--port -1 is not a port/);
  });
});
