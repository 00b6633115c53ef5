// The Authorization header's forms (RFC 9110 §11.4): the scheme is case-insensitive, spaces around
// the credential do not matter, anything else is 401. A token verified before is answered from the
// cache, without waiting, and is still checked for its scope.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';

const { t, company, token } = await startCompanyTestApp();

describe('the Authorization header', () => {
  let url: string;
  before(async () => {
    const created = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: { companyId: company, externalId: 'a-1', name: 'Cash', archived: false },
    });
    assert.equal(created.status, 201, created.text);
    url = `/v1-beta/accounts/${created.body.data.id}`;
  });

  const send = (authorization: string) => t.request('GET', url, { headers: { authorization } });

  it('accepts the scheme in any case and spaces around the token', async () => {
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `BEARER   ${token}  `]) {
      const response = await send(header);
      assert.equal(response.status, 200, `${JSON.stringify(header.slice(0, 12))}: ${response.text}`);
    }
  });

  it('answers 401 for another scheme, a missing token or one with a space inside', async () => {
    const halves = [token.slice(0, 20), token.slice(20)];
    for (const header of ['Bearer', 'Bearer ', `Token ${token}`, `Bearer ${halves.join(' ')}`, `${token}`]) {
      const response = await send(header);
      assert.equal(response.status, 401, `${JSON.stringify(header.slice(0, 12))}: ${response.text}`);
      assert.equal(response.body.type, 'UNAUTHORIZED');
    }
  });

  it('answers 400 to two Authorization lines, whichever comes first', async () => {
    // Over a socket: Node's parser keeps the first line and drops the second, which inject does not show.
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { hostname, port } = new URL(address);
    for (const lines of [
      [`Bearer ${token}`, 'Bearer not-a-token'],
      ['Bearer not-a-token', `Bearer ${token}`],
    ]) {
      const head = await rawRequest(hostname, Number(port), [
        `GET ${url} HTTP/1.1`,
        `Host: ${hostname}`,
        ...lines.map((line) => `Authorization: ${line}`),
        'Connection: close',
      ]);
      assert.match(head, /^HTTP\/1\.1 400 /);
      assert.match(head, /"type":"MALFORMED_REQUEST"/);
    }
  });

  it('still checks the scope of a token it has verified before', async () => {
    const readOnly = await t.token({ scopes: ['tax-codes:read'] });
    for (let i = 0; i < 2; i++) {
      const response = await send(`Bearer ${readOnly}`);
      assert.equal(response.status, 403, response.text);
      assert.equal(response.body.type, 'FORBIDDEN');
    }
  });
});

/** Sends `lines` as a request's head and answers everything the server sent back. */
function rawRequest(host: string, port: number, lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => socket.end(`${lines.join('\r\n')}\r\n\r\n`));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
