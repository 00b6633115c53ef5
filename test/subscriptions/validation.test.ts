import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { createSubscription, EVENT_TYPE, errorPaths, subscriptionBody } from './fixtures.ts';

const { t, token } = await startCompanyTestApp();

const post = (body: unknown) => t.request('POST', '/v1/subscriptions', { token, body });
const basic = { type: 'BASIC', credentials: { username: 'user', password: 'pass' } };

/** Each case: the request fields, and the JSON pointers its 400 must name. */
async function assertInvalid(cases: [Record<string, unknown>, string[]][]) {
  for (const [fields, paths] of cases) {
    const response = await post(subscriptionBody(fields));
    assert.deepEqual(errorPaths(response), paths, `${JSON.stringify(fields)}: ${response.text}`);
    assert.equal(response.body.type, 'VALIDATION_FAILED');
  }
}

describe('subscription request validation', () => {
  it("lists the schema's broken fields and the request rules' together, on create and on update", async () => {
    const body = {
      status: 'PAUSED', // the schema's
      eventTypes: ['v9.nothing'], // the rules': not a type of GET /v1/event-types
      customHeaders: { 'Webhook-Id': 'x', 'x-ok': 1 }, // the rules' (reserved name), the schema's (not a string)
    };
    await assertInvalid([[body, ['/customHeaders/Webhook-Id', '/customHeaders/x-ok', '/eventTypes/0', '/status']]]);
    const created = await createSubscription(t, token);
    const update = await t.request('PUT', `/v1/subscriptions/${created.data.id}`, {
      token,
      body: subscriptionBody(body),
    });
    assert.deepEqual(errorPaths(update), [
      '/customHeaders/Webhook-Id',
      '/customHeaders/x-ok',
      '/eventTypes/0',
      '/status',
    ]);
  });

  it('status is ACTIVE or INACTIVE, ACTIVE by default', async () => {
    await assertInvalid([
      [{ status: 'PAUSED' }, ['/status']],
      [{ status: 'active' }, ['/status']],
      [{ status: null }, ['/status']],
    ]);
    assert.equal((await createSubscription(t, token)).data.status, 'ACTIVE');
    assert.equal((await createSubscription(t, token, { status: 'INACTIVE' })).data.status, 'INACTIVE');
  });

  it('eventTypes is a non-empty list of distinct known types', async () => {
    const missing = await post({ endpointUrl: 'https://example.com/hook' });
    assert.deepEqual(errorPaths(missing), ['/eventTypes']);
    await assertInvalid([
      [{ eventTypes: [] }, ['/eventTypes']],
      [{ eventTypes: EVENT_TYPE }, ['/eventTypes']],
      [{ eventTypes: [EVENT_TYPE, EVENT_TYPE] }, ['/eventTypes']],
      [{ eventTypes: [EVENT_TYPE, 'v1.export-job.deleted'] }, ['/eventTypes/1']],
      [{ eventTypes: ['export-job.created', 'V1.EXPORT-JOB.CREATED'] }, ['/eventTypes/0', '/eventTypes/1']],
      [{ eventTypes: [42] }, ['/eventTypes/0']],
    ]);
  });

  it('endpointUrl is an absolute URL of at most 2048 characters, without credentials', async () => {
    const missing = await post({ eventTypes: [EVENT_TYPE] });
    assert.deepEqual(errorPaths(missing), ['/endpointUrl']);
    const base = 'https://example.com/';
    await assertInvalid([
      [{ endpointUrl: '' }, ['/endpointUrl']],
      [{ endpointUrl: 'example.com/hook' }, ['/endpointUrl']],
      [{ endpointUrl: 'ftp://example.com/hook' }, ['/endpointUrl']],
      [{ endpointUrl: 'https://user:pass@example.com/hook' }, ['/endpointUrl']],
      [{ endpointUrl: base + 'a'.repeat(2049 - base.length) }, ['/endpointUrl']],
    ]);
    const longest = base + 'a'.repeat(2048 - base.length);
    assert.equal((await createSubscription(t, token, { endpointUrl: longest })).data.endpointUrl, longest);
  });

  it('customHeaders: at most 20, valid names, none the delivery sets itself', async () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, 'v']));
    await assertInvalid([
      [{ customHeaders: many(21) }, ['/customHeaders']],
      [{ customHeaders: { 'bad header': 'v' } }, ['/customHeaders/bad header']],
      [{ customHeaders: { 'x-é': 'v', '': 'v' } }, ['/customHeaders/', '/customHeaders/x-é']],
      [{ customHeaders: { 'a/b': 'v' } }, ['/customHeaders/a~1b']],
      [
        { customHeaders: { 'webhook-id': 'v', 'Webhook-Signature': 'v' } },
        ['/customHeaders/Webhook-Signature', '/customHeaders/webhook-id'],
      ],
      [
        { customHeaders: { HOST: 'v', 'Content-Length': '1', 'transfer-encoding': 'chunked', Connection: 'close' } },
        [
          '/customHeaders/Connection',
          '/customHeaders/Content-Length',
          '/customHeaders/HOST',
          '/customHeaders/transfer-encoding',
        ],
      ],
      [{ customHeaders: { 'X-Key': 'a', 'x-key': 'b' } }, ['/customHeaders/x-key']],
      [{ customHeaders: { 'x-key': 1 } }, ['/customHeaders/x-key']],
      [{ customHeaders: { [`x-${'a'.repeat(255)}`]: '1' } }, [`/customHeaders/x-${'a'.repeat(255)}`]],
      [{ customHeaders: [] }, ['/customHeaders']],
    ]);
    const longest = { [`x-${'a'.repeat(254)}`]: '1' };
    assert.deepEqual((await createSubscription(t, token, { customHeaders: longest })).data.customHeaders, longest);
    const twenty = many(20);
    assert.deepEqual((await createSubscription(t, token, { customHeaders: twenty })).data.customHeaders, twenty);
  });

  it('customHeaders: values without CR or LF, at most 1024 characters', async () => {
    await assertInvalid([
      [{ customHeaders: { 'x-a': 'one\r\nx-injected: yes' } }, ['/customHeaders/x-a']],
      [{ customHeaders: { 'x-a': 'line\nbreak' } }, ['/customHeaders/x-a']],
      [{ customHeaders: { 'x-a': 'nul\u0000' } }, ['/customHeaders/x-a']],
      [{ customHeaders: { 'x-a': 'a'.repeat(1025) } }, ['/customHeaders/x-a']],
      [{ customHeaders: { 'x-a': 'emoji 🙂' } }, ['/customHeaders/x-a']],
    ]);
    const headers = { 'x-a': 'a'.repeat(1024), 'x-b': '', 'x-c': 'tab\tand space, café' };
    assert.deepEqual((await createSubscription(t, token, { customHeaders: headers })).data.customHeaders, headers);
  });

  it('customHeaders may set content-type, user-agent and authorization, but not authorization with BASIC', async () => {
    const headers = { 'Content-Type': 'application/json', 'User-Agent': 'their-agent', Authorization: 'Bearer abc' };
    const created = await createSubscription(t, token, { customHeaders: headers });
    assert.deepEqual(created.customHeaders, headers);
    await assertInvalid([
      [{ customHeaders: { Authorization: 'Bearer abc' }, endpointAuth: basic }, ['/customHeaders/Authorization']],
      [{ customHeaders: { authorization: 'Bearer abc' }, endpointAuth: basic }, ['/customHeaders/authorization']],
    ]);
    const withBasic = await createSubscription(t, token, { customHeaders: { 'x-key': 'k' }, endpointAuth: basic });
    assert.deepEqual(withBasic.endpointAuth, { type: 'BASIC' });
  });

  it('endpointAuth is NONE without credentials or BASIC with a username and password', async () => {
    await assertInvalid([
      [{ endpointAuth: { type: 'BEARER' } }, ['/endpointAuth/type']],
      [{ endpointAuth: { type: 'BASIC' } }, ['/endpointAuth/credentials']],
      [{ endpointAuth: { type: 'NONE', credentials: basic.credentials } }, ['/endpointAuth/credentials']],
      [{ endpointAuth: { credentials: basic.credentials } }, ['/endpointAuth/credentials']],
      [{ endpointAuth: { type: 'BASIC', credentials: { username: 'u' } } }, ['/endpointAuth/credentials/password']],
      [
        { endpointAuth: { type: 'BASIC', credentials: { username: 'a:b', password: 'p\r\n' } } },
        ['/endpointAuth/credentials/password', '/endpointAuth/credentials/username'],
      ],
      [
        { endpointAuth: { type: 'BASIC', credentials: { username: '', password: 'p' } } },
        ['/endpointAuth/credentials/username'],
      ],
    ]);
    assert.deepEqual((await createSubscription(t, token, { endpointAuth: {} })).endpointAuth, { type: 'NONE' });
    assert.deepEqual((await createSubscription(t, token, { endpointAuth: { type: 'NONE' } })).endpointAuth, {
      type: 'NONE',
    });
  });

  it('lists every invalid field at once, and checks the body before the scopes', async () => {
    const response = await t.request('POST', '/v1/subscriptions', {
      token: await t.token({ scopes: [] }),
      body: {
        status: 'ON',
        eventTypes: ['v9.unknown'],
        endpointUrl: 'not a url',
        customHeaders: { host: 'x' },
        endpointAuth: { type: 'BASIC' },
      },
    });
    assert.deepEqual(errorPaths(response), [
      '/customHeaders/host',
      '/endpointAuth/credentials',
      '/endpointUrl',
      '/eventTypes/0',
      '/status',
    ]);
    const domain = await t.request('POST', '/v1/subscriptions', {
      token: await t.token({ scopes: [] }),
      body: {
        eventTypes: ['v9.unknown'],
        endpointUrl: 'not a url',
        customHeaders: { host: 'x' },
        endpointAuth: { type: 'BASIC' },
      },
    });
    assert.deepEqual(errorPaths(domain), [
      '/customHeaders/host',
      '/endpointAuth/credentials',
      '/endpointUrl',
      '/eventTypes/0',
    ]);
  });

  it('refuses an endpoint URL that would be read as another address than it shows, on create and update', async () => {
    const { data } = await createSubscription(t, token);
    const refused: [string, RegExp][] = [
      ['https:example.com/hook', /two slashes/],
      ['https:/example.com/hook', /two slashes/],
      ['https:///example.com/hook', /two slashes/],
      ['https://example.com\\hook', /backslash/],
      ['https://exa\u200bmple.com/hook', /invisible/],
      ['https://example.com\u2060/hook', /invisible/],
      ['https://example.com/\u202egnp.exe', /invisible/],
      ['https://example.com/a hook', /spaces/],
      ['https://example.com:0/hook', /port/],
      ['http://127.0.0.1:0/hook', /port/],
      ['https://0x7f.1/hook', /127\.0\.0\.1/],
      ['https://134744072/hook', /8\.8\.8\.8/],
      ['https://ex%61mple.com/hook', /ASCII/],
      ['https://b\u00fccher.example/hook', /xn--/],
    ];
    for (const [endpointUrl, message] of refused) {
      for (const [method, url] of [
        ['POST', '/v1/subscriptions'],
        ['PUT', `/v1/subscriptions/${data.id}`],
      ]) {
        const response = await t.request(method as string, url as string, {
          token,
          body: subscriptionBody({ endpointUrl }),
        });
        assert.deepEqual(errorPaths(response), ['/endpointUrl'], `${method} ${JSON.stringify(endpointUrl)}`);
        assert.match(response.body.errors[0].message, message, JSON.stringify(endpointUrl));
      }
    }
    const stored = await t.request('GET', `/v1/subscriptions/${data.id}`, { token });
    assert.equal(stored.body.data.endpointUrl, data.endpointUrl);
    // What the parser reads as written is kept as sent: the case of a name, the default port, an
    // international name in its ASCII form, IPv6.
    for (const endpointUrl of [
      'https://Example.COM/hook',
      'https://example.com:443/hook',
      'https://xn--bcher-kva.example/hook?q=%20#f',
      'https://[2001:4860:4860::8888]:8443/hook',
    ]) {
      assert.equal((await createSubscription(t, token, { endpointUrl })).data.endpointUrl, endpointUrl);
    }
  });

  it('accepts http and local endpoints while private targets are allowed (the test default)', async () => {
    const local = await createSubscription(t, token, { endpointUrl: 'http://127.0.0.1:9999/hook' });
    assert.equal(local.data.endpointUrl, 'http://127.0.0.1:9999/hook');
  });

  it('refuses an endpoint URL with surrounding whitespace also then, rather than storing it as sent', async () => {
    for (const endpointUrl of [' http://127.0.0.1:9999/hook', 'http://127.0.0.1:9999/hook\n']) {
      const response = await t.request('POST', '/v1/subscriptions', { token, body: subscriptionBody({ endpointUrl }) });
      assert.deepEqual(errorPaths(response), ['/endpointUrl'], JSON.stringify(endpointUrl));
      assert.match(response.body.errors[0].message, /whitespace/);
    }
  });
});

describe('subscription endpoints with WEBHOOK_ALLOW_PRIVATE_TARGETS=false', () => {
  let strict: TestApp;
  before(async () => {
    strict = await startTestApp({ webhookAllowPrivateTargets: false });
  });
  after(() => strict.close());

  it('refuses http and private or local addresses on create and update; accepts public https', async () => {
    const as = await strict.token();
    const created = await strict.request('POST', '/v1/subscriptions', { token: as, body: subscriptionBody() });
    assert.equal(created.status, 200, created.text);
    for (const endpointUrl of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://[::1]/hook',
      'https://[::ffff:192.168.0.1]/hook',
      'https://localhost/hook',
      'https://[::127.0.0.1]/',
      'https://[::ffff:0:127.0.0.1]/',
      'https://[64:ff9b:1::7f00:1]/',
      'https://[2002:7f00:1::]/',
      'https://[2001::1]/',
      'https://localhost./',
      'https://foo.localhost./',
      '  https://example.com/hook',
      'https://example.com/hook\n',
    ]) {
      const body = subscriptionBody({ endpointUrl });
      for (const [method, url] of [
        ['POST', '/v1/subscriptions'],
        ['PUT', `/v1/subscriptions/${created.body.data.id}`],
      ] as const) {
        const response = await strict.request(method, url, { token: as, body });
        assert.deepEqual(errorPaths(response), ['/endpointUrl'], `${method} ${endpointUrl}`);
      }
    }
    const stored = await strict.request('GET', `/v1/subscriptions/${created.body.data.id}`, { token: as });
    assert.equal(stored.body.data.endpointUrl, subscriptionBody().endpointUrl);
  });

  it('tells how to allow a local http endpoint for development', async () => {
    const body = subscriptionBody({ endpointUrl: 'http://127.0.0.1:8080/hook' });
    const response = await strict.request('POST', '/v1/subscriptions', { token: await strict.token(), body });
    assert.deepEqual(errorPaths(response), ['/endpointUrl']);
    const [error] = response.body.errors;
    assert.match(error.message, /must be an https URL/);
    assert.match(error.message, /WEBHOOK_ALLOW_PRIVATE_TARGETS=true allows http and private addresses/);
  });
});
