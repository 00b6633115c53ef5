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
};

describe('the endpoint guard', () => {
  for (const [kind, addresses] of Object.entries(REFUSED)) {
    it(`refuses ${kind} addresses`, () => {
      for (const address of addresses) assert.equal(isPublicAddress(address), false, address);
    });
  }

  it('accepts public addresses, also IPv4-mapped', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '100.128.0.1']) {
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

  it('refuses at connect time a name that resolves to a loopback address', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (e) => resolve(e)),
    );
    assert.equal(error?.code, 'ERR_PRIVATE_ADDRESS');
    assert.match(error?.message ?? '', /not a public address/);
  });
});
