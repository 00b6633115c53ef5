import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointUrlProblem, isPublicAddress, publicOnlyLookup } from '../../src/webhooks/endpoint-guard.ts';

const REFUSED = {
  private: ['10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', 'fc00::1', 'fd12:3456::1'],
  loopback: ['127.0.0.1', '127.255.0.9', '::1'],
  'link-local': ['169.254.169.254', 'fe80::1'],
  CGNAT: ['100.64.0.1', '100.127.255.254'],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1'],
  unspecified: ['0.0.0.0', '::'],
  'IPv4-mapped IPv6': ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:169.254.169.254'],
  'IPv4-compatible IPv6 (::/96)': ['::127.0.0.1', '::7f00:1', '::8.8.8.8', '::0.0.0.2'],
  'IPv4-translated IPv6 (::ffff:0:0:0/96)': ['::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:8.8.8.8'],
  'NAT64 (64:ff9b::/96, 64:ff9b:1::/48)': [
    '64:ff9b::7f00:1',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1:ffff::1',
  ],
  '6to4 of a non-public IPv4 (2002::/16)': ['2002:7f00:1::', '2002:a00:1::1', '2002:c0a8:101::1', '2002::'],
  'Teredo (2001::/32)': ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  documentation: ['192.0.2.1', '2001:db8::1', '3fff::1'],
  'scoped link-local': ['fe80::1%eth0'],
};

describe('the endpoint guard', () => {
  for (const [kind, addresses] of Object.entries(REFUSED)) {
    it(`refuses ${kind} addresses`, () => {
      for (const address of addresses) assert.equal(isPublicAddress(address), false, address);
    });
  }

  it('accepts public addresses, also IPv4-mapped', () => {
    const publicAddresses = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '100.128.0.1'];
    // 6to4 of a public IPv4 reaches that IPv4; 2001:4860:: is Google, outside Teredo's 2001::/32.
    for (const address of [...publicAddresses, '2002:808:808::1', '2001:4860:4860::8888']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  it('refuses http, credentials and literal private hosts in endpoint URLs unless private targets are allowed', () => {
    assert.equal(endpointUrlProblem('https://hooks.example.com/ledger', false), undefined);
    assert.match(endpointUrlProblem('http://hooks.example.com/', false) ?? '', /https/);
    assert.match(endpointUrlProblem('https://127.0.0.1/', false) ?? '', /public/);
    assert.match(endpointUrlProblem('https://[::ffff:127.0.0.1]/', false) ?? '', /public/);
    assert.match(endpointUrlProblem('https://localhost:8443/', false) ?? '', /public/);
    assert.match(endpointUrlProblem('https://user:pw@hooks.example.com/', false) ?? '', /credentials/);
    assert.match(endpointUrlProblem('ftp://hooks.example.com/', true) ?? '', /http/);
    assert.match(endpointUrlProblem('not a url', false) ?? '', /absolute/);
    assert.equal(endpointUrlProblem('http://127.0.0.1:9000/', true), undefined);
  });

  it('refuses a literal address in the endpoint URL exactly when the connect-time lookup refuses it', async () => {
    const addresses = [
      ...Object.values(REFUSED).flat(),
      '8.8.8.8',
      '::ffff:8.8.8.8',
      '2002:808:808::1',
      '2606:4700::1',
    ];
    for (const address of addresses.filter((a) => !a.includes('%'))) {
      const host = address.includes(':') ? `[${address}]` : address;
      const urlRefused = endpointUrlProblem(`https://${host}/hook`, false) !== undefined;
      const lookupError = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
        publicOnlyLookup(address, {}, (e) => resolve(e)),
      );
      assert.equal(urlRefused, !isPublicAddress(address), address);
      assert.equal(lookupError?.code === 'ERR_PRIVATE_ADDRESS', urlRefused, address);
    }
  });

  it('refuses URLs with surrounding whitespace or control characters, which the URL parser would drop', () => {
    for (const url of [
      '  https://hooks.example.com/',
      'https://hooks.example.com/\n',
      '\thttps://hooks.example.com/',
      'https://hooks.example.com/ ',
    ]) {
      assert.match(endpointUrlProblem(url, false) ?? '', /whitespace/, JSON.stringify(url));
      assert.match(endpointUrlProblem(url, true) ?? '', /whitespace/, JSON.stringify(url));
    }
    for (const url of [
      'https://hooks.exa\nmple.com/',
      'https://hooks.example.com/a\tb',
      'https://hooks.example.com/\u0000',
    ]) {
      assert.match(endpointUrlProblem(url, false) ?? '', /control characters/, JSON.stringify(url));
    }
  });

  it('reads a name with trailing dots as the name without them', () => {
    for (const url of [
      'https://localhost./',
      'https://foo.localhost./',
      'https://LOCALHOST../',
      'https://127.0.0.1./',
    ]) {
      assert.match(endpointUrlProblem(url, false) ?? '', /public address/, url);
    }
    assert.equal(endpointUrlProblem('https://hooks.example.com./', false), undefined);
  });

  it('says how to allow http and private addresses for local development', () => {
    for (const url of ['http://127.0.0.1:9000/hook', 'https://192.168.1.10/hook', 'https://localhost/hook']) {
      assert.match(
        endpointUrlProblem(url, false) ?? '',
        /WEBHOOK_ALLOW_PRIVATE_TARGETS=true allows http and private/,
        url,
      );
    }
  });

  it('refuses at connect time a name that resolves to a loopback address', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (e) => resolve(e)),
    );
    assert.equal(error?.code, 'ERR_PRIVATE_ADDRESS');
    assert.match(error?.message ?? '', /not a public address/);
  });
});
