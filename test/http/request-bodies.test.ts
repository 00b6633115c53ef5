// Client mistakes that would reach the database or JSON.stringify before being caught, and answer
// 500 or store something other than what was sent: each is a 400 (or 415) that changes nothing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { fitsTerms } from '../../src/db/keyset.ts';
import { MAX_JSON_DEPTH } from '../../src/http/json-body.ts';
import { MAX_FIELD_ERRORS } from '../../src/http/problem.ts';
import { startCompanyTestApp } from '../support/company-app.ts';

const { t, company, token } = await startCompanyTestApp();

const newAccount = (fields: Record<string, unknown> = {}) => ({
  companyId: company,
  externalId: `ext-${randomUUID()}`,
  name: 'Bank charges',
  archived: false,
  ...fields,
});

/** POSTs `text` as it is, so that escapes such as \ud800 reach the server unchanged. */
const postText = (text: string | Buffer, contentType = 'application/json') =>
  t.request('POST', '/v1-beta/accounts', { token, body: text, headers: { 'content-type': contentType } });

/** Whether an account with `externalId` exists: a create of it answers 201 only if none does. */
async function wasStored(externalId: string): Promise<boolean> {
  const response = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount({ externalId }) });
  return response.status !== 201;
}

const paths = (body: { errors: { path: string }[] }) => body.errors.map((e) => e.path).sort();

describe('JSON request bodies', () => {
  it('refuses lone surrogates in values and keys with 400, naming each field', async () => {
    const body = newAccount({ name: '\ud800', metadata: { note: 'a\udc00b', '\ud801': 1 } });
    // JSON.stringify writes a lone surrogate as its \u escape, as a client would send it.
    const response = await postText(JSON.stringify(body));
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
    assert.deepEqual(paths(response.body), ['/metadata/note', '/metadata/\ud801', '/name']);
    assert.equal(await wasStored(body.externalId as string), false);
  });

  it('refuses numbers beyond a double, and reads -0 as 0 so that a replay is a replay', async () => {
    const externalId = `ext-${randomUUID()}`;
    const huge = await postText(
      `{"companyId":"${company}","externalId":"${externalId}","name":"n","archived":false,"metadata":{"a":1e400}}`,
    );
    assert.equal(huge.status, 400, huge.text);
    assert.deepEqual(paths(huge.body), ['/metadata/a']);
    assert.equal(await wasStored(externalId), false);

    const negativeZero = `{"companyId":"${company}","externalId":"ext-${randomUUID()}","name":"n","archived":false,"metadata":{"a":-0,"b":[-0]}}`;
    const created = await postText(negativeZero);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.data.metadata, { a: 0, b: [0] });
    const replay = await postText(negativeZero);
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.body.data.id, created.body.data.id);
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels with 400, and takes it up to there`, async () => {
    const nested = (levels: number) => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i++) value = [value];
      return value;
    };
    // The body is one level and metadata another: metadata may nest MAX_JSON_DEPTH - 2 more.
    const deepest = await t.request('POST', '/v1-beta/accounts', {
      token,
      body: newAccount({ metadata: { a: nested(MAX_JSON_DEPTH - 2) } }),
    });
    assert.equal(deepest.status, 201, deepest.text);
    const body = newAccount({ metadata: { a: nested(3000) } });
    const tooDeep = await t.request('POST', '/v1-beta/accounts', { token, body });
    assert.equal(tooDeep.status, 400, tooDeep.text);
    assert.equal(tooDeep.body.type, 'VALIDATION_FAILED');
    assert.match(tooDeep.body.errors[0].message, /nests deeper than/);
    assert.equal(await wasStored(body.externalId), false);
  });

  it('refuses a __proto__ key with 400 naming it, and takes constructor.prototype as data', async () => {
    const externalId = `ext-${randomUUID()}`;
    const proto = await postText(
      `{"companyId":"${company}","externalId":"${externalId}","name":"n","archived":false,"metadata":{"__proto__":{"a":1}}}`,
    );
    assert.equal(proto.status, 400, proto.text);
    assert.deepEqual(paths(proto.body), ['/metadata/__proto__']);
    assert.equal(await wasStored(externalId), false);
    const metadata = { constructor: { prototype: { a: 1 } } };
    const created = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount({ metadata }) });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.data.metadata, metadata);
  });

  it('answers 415 for a charset other than UTF-8, and 400 for bytes that are not UTF-8', async () => {
    const externalId = `ext-${randomUUID()}`;
    const latin1 = Buffer.from(JSON.stringify(newAccount({ externalId, name: 'café' })), 'latin1');
    const declared = await postText(latin1, 'application/json; charset=latin1');
    assert.equal(declared.status, 415, declared.text);
    assert.equal(declared.body.type, 'UNSUPPORTED_MEDIA_TYPE');
    const undeclared = await postText(latin1, 'application/json');
    assert.equal(undeclared.status, 400, undeclared.text);
    assert.equal(undeclared.body.type, 'MALFORMED_JSON');
    assert.match(undeclared.body.detail, /UTF-8/);
    assert.equal(await wasStored(externalId), false);
    const quoted = await postText(JSON.stringify(newAccount({ name: 'café' })), 'application/json; charset="UTF-8"');
    assert.equal(quoted.status, 201, quoted.text);
    assert.equal(quoted.body.data.name, 'café');
  });

  it('reads an empty body as none: refused by a route that needs one, not by one that takes none', async () => {
    const created = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount() });
    const empty = await postText('');
    assert.equal(empty.status, 400, empty.text);
    assert.equal(empty.body.type, 'VALIDATION_FAILED');
    const deleted = await t.request('DELETE', `/v1-beta/accounts/${created.body.data.id}`, {
      token,
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(deleted.status, 204, deleted.text);
  });

  it(`lists the first ${MAX_FIELD_ERRORS} broken fields of a body with thousands, and says how many in all`, async () => {
    // 300,000 wrong ids fit in a 600 KB body; listed in full they answered 23 MB.
    const ids = new Array(300_000).fill(1);
    const response = await t.request('POST', '/v1-beta/accounts:search', { token, body: { companyId: company, ids } });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.errors.length, MAX_FIELD_ERRORS);
    assert.match(response.body.detail, new RegExp(`the first ${MAX_FIELD_ERRORS} of 300001 are listed`));
    assert.ok(Buffer.byteLength(response.text) < 16 * 1024, `${Buffer.byteLength(response.text)} bytes`);
  });

  it('refuses NUL in any string or key with 400 naming the field', async () => {
    const body = newAccount({ name: 'a\u0000b', metadata: { 'k\u0000': 1 } });
    const response = await postText(JSON.stringify(body));
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(paths(response.body), ['/metadata/k\u0000', '/name']);
    assert.equal(await wasStored(body.externalId as string), false);
  });
});

describe('paths and query strings', () => {
  it('tells a malformed cursor from one made for another sort', async () => {
    const search = (query: string) =>
      t.request('POST', `/v1-beta/accounts:search?${query}`, { token, body: { companyId: company } });
    await t.request('POST', '/v1-beta/accounts', { token, body: newAccount() });
    for (const cursor of ['abc', 'AAAAAAAA~', 'AAAAAAAA~abc', 'aaaaaaaa~AAAA']) {
      const response = await search(`after=${cursor}`);
      assert.equal(response.status, 400, `${cursor}: ${response.text}`);
      assert.equal(response.body.type, 'INVALID_CURSOR');
      assert.equal(response.body.detail, 'The cursor is malformed', cursor);
    }
    const byName = await search('limit=1');
    const other = await search(`sorting_keys=code&after=${byName.body.pagination.endCursor}`);
    assert.equal(other.status, 400);
    assert.match(other.body.detail, /other filters or sort/);
  });

  it('answers 400 with the error body for a path that is not valid percent-encoding or too long', async () => {
    for (const url of ['/v1-beta/accounts/%ZZ', '/v1-beta/accounts/%C0%AF', `/v1-beta/accounts/${'a'.repeat(101)}`]) {
      const response = await t.request('GET', url, { token, headers: { 'x-request-id': 'bad-path' } });
      assert.equal(response.status, 400, `${url}: ${response.text}`);
      assert.equal(response.headers['content-type'], 'application/json;charset=UTF-8');
      assert.equal(response.body.type, 'VALIDATION_FAILED');
      assert.equal(response.body.requestId, 'bad-path');
      assert.equal(response.headers['x-request-id'], 'bad-path');
    }
  });

  it('answers 400 for a query string whose percent-encoding is not UTF-8, and echoes every name as sent', async () => {
    const search = (query: string) =>
      t.request('POST', `/v1-beta/accounts:search?${query}`, { token, body: { companyId: company } });
    for (const query of ['%FF=1', 'x=%ED%A0%80', 'limit=1%']) {
      const response = await search(query);
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.equal(response.body.type, 'VALIDATION_FAILED');
      assert.equal(response.body.errors[0].in, 'query');
    }
    const echoed = await search('__proto__=1&limit=2&note=caf%C3%A9');
    assert.equal(echoed.status, 200, echoed.text);
    assert.deepEqual(JSON.parse(echoed.text).pagination.currentRequestPagination.parameters, {
      ['__proto__']: ['1'],
      limit: ['2'],
      note: ['café'],
    });
  });

  it('answers 400 for an offset past 2^53 - 1, and an empty page up to it', async () => {
    const search = (offset: string) =>
      t.request('POST', `/v1-beta/accounts:search?offset=${offset}`, { token, body: { companyId: company } });
    for (const offset of ['9223372036854775807', '1e20', String(Number.MAX_SAFE_INTEGER + 1)]) {
      const response = await search(offset);
      assert.equal(response.status, 400, `${offset}: ${response.text}`);
      assert.equal(response.body.type, 'VALIDATION_FAILED');
    }
    const last = await search(String(Number.MAX_SAFE_INTEGER));
    assert.equal(last.status, 200, last.text);
    assert.deepEqual(last.body.data, []);
  });
});

describe('integers in query strings', () => {
  it('are decimal digits: 0x10, 1e2, +5, a space, 1.0 are 400s, each field named once, and nothing is read', async () => {
    const search = (query: string) =>
      t.request('POST', `/v1-beta/accounts:search?${query}`, { token, body: { companyId: company } });
    for (const value of ['0x10', '1e2', '+5', '%205', '5%20', '1.0', '0b1']) {
      const response = await search(`limit=${value}`);
      assert.equal(response.status, 400, `${value}: ${response.text}`);
      assert.deepEqual(response.body.errors, [
        { path: '/limit', message: 'must be an integer in decimal digits', in: 'query' },
      ]);
    }
    // Ajv's own refusal is not repeated; every broken field is listed together.
    const both = await search('limit=abc&offset=0x10&sorting_keys=nope');
    assert.deepEqual(both.body.errors.map((e: { path: string }) => e.path).sort(), [
      '/limit',
      '/offset',
      '/sorting_keys/0',
    ]);
    const listed = await t.request('GET', '/v1/subscriptions?offset=0x1', { token });
    assert.equal(listed.status, 400, listed.text);
    const plain = await search('limit=007&offset=0');
    assert.equal(plain.status, 200, plain.text);
    assert.equal(plain.body.pagination.currentRequestPagination.limit, 7);
  });
});

describe('values the database cannot take', () => {
  it('answers 400 for an accounting entry dated in year 0, which PostgreSQL has not', async () => {
    const account = await t.request('POST', '/v1-beta/accounts', { token, body: newAccount() });
    const entry = { companyId: company, accountId: account.body.data.id, amount: '1', currency: 'EUR' };
    const yearZero = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: { ...entry, date: '0000-12-31' },
    });
    assert.equal(yearZero.status, 400, yearZero.text);
    assert.deepEqual(paths(yearZero.body), ['/date']);
    const search = await t.request('POST', '/v1-beta/accounting-entries:search', {
      token,
      body: { companyId: company, dateFrom: '0000-01-01' },
    });
    assert.equal(search.status, 400, search.text);
    const yearOne = await t.request('POST', '/v1-beta/accounting-entries', {
      token,
      body: { ...entry, date: '0001-01-01' },
    });
    assert.equal(yearOne.status, 201, yearOne.text);
  });

  it("refuses a cursor's time-zone offset that PostgreSQL refuses (past 15:59:59)", () => {
    const terms = [{ sql: 'created_at', type: 'timestamptz' as const, descending: false }];
    for (const value of ['2026-01-01 00:00:00+99', '2026-01-01 00:00:00+16', '2026-01-01 00:00:00+00:99']) {
      assert.equal(fitsTerms(terms, [value]), false, value);
    }
    for (const value of ['2026-01-01 00:00:00+00', '2026-01-01 00:00:00.5-15:59:59']) {
      assert.equal(fitsTerms(terms, [value]), true, value);
    }
  });
});

describe('requests that are not valid HTTP', () => {
  it('answers them with the error body as JSON too, then closes the connection', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const send = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk;
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const badHeader = await send('GET /health/live HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n');
    assert.match(badHeader, /^HTTP\/1\.1 400 /);
    assert.match(badHeader, /content-type: application\/json;charset=UTF-8\r\n/i);
    assert.equal(JSON.parse(badHeader.slice(badHeader.indexOf('\r\n\r\n') + 4)).type, 'MALFORMED_REQUEST');
    const hugeHeaders = await send(`GET /health/live HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(hugeHeaders, /^HTTP\/1\.1 431 /);
    assert.equal(JSON.parse(hugeHeaders.slice(hugeHeaders.indexOf('\r\n\r\n') + 4)).type, 'REQUEST_HEADERS_TOO_LARGE');
  });
});
