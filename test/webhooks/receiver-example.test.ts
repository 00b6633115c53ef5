// The README's receiver, examples/receiver.mjs, run as its reader runs it outside this repository: a
// copy in a folder as `npm init -y && npm install svix` leaves it (a CommonJS package.json, svix in
// node_modules). A notification of an export job created through the API reaches it signed, it
// verifies it with svix and prints the payload (which matches the document's `webhooks` entry); a
// notification with a forged signature it refuses.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { startTestWorker, type TestWorker } from './delivery/fixtures.ts';

const EXAMPLE = new URL('../../examples/receiver.mjs', import.meta.url).pathname;
const SVIX = dirname(createRequire(import.meta.url).resolve('svix/package.json'));
const EVENT_TYPE = 'v1.export-job.created';

let t: TestApp;
let worker: TestWorker;
let receiver: ChildProcess | undefined;
let folder: string;
before(async () => {
  t = await startTestApp();
  worker = await startTestWorker(t.db);
  // What `npm init -y && npm install svix` makes, with this repository's svix linked in.
  folder = await mkdtemp(join(tmpdir(), 'ledgerhook-receiver-'));
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'receiver', version: '1.0.0', type: 'commonjs' }),
  );
  await mkdir(join(folder, 'node_modules'));
  await symlink(SVIX, join(folder, 'node_modules', 'svix'), 'dir');
  await copyFile(EXAMPLE, join(folder, 'receiver.mjs'));
});
after(async () => {
  if (receiver && receiver.exitCode === null) {
    receiver.kill();
    await once(receiver, 'exit');
  }
  await worker.stop();
  await t.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('examples/receiver.mjs', { timeout: 60_000 }, () => {
  it('verifies a real notification with svix, prints its payload, and refuses a forged one', async () => {
    const company = randomUUID();
    const token = await t.token({ companies: [company], scopes: ['export-jobs:read', 'export-jobs:write'] });
    const subscription = { eventTypes: [EVENT_TYPE], endpointUrl: 'http://127.0.0.1:9/not-yet' };
    const created = await t.request('POST', '/v1/subscriptions', { token, body: subscription });
    assert.equal(created.status, 200, created.text);
    const id = created.body.data.id;
    const secret = (await t.request('GET', `/v1/subscriptions/${id}/secret`, { token })).body.data.secretKey;

    receiver = spawn(process.execPath, ['receiver.mjs'], {
      cwd: folder,
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: receiver.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
    const stderr: string[] = [];
    receiver.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const first = (await lines.next()).value as string;
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(first)?.[1];
    assert.ok(url, first);
    const updated = await t.request('PUT', `/v1/subscriptions/${id}`, {
      token,
      body: { ...subscription, endpointUrl: `${url}hook` },
    });
    assert.equal(updated.status, 200, updated.text);

    const forged = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
      },
      body: JSON.stringify({ payload: { data: {}, eventId: randomUUID(), eventType: EVENT_TYPE } }),
    });
    assert.equal(forged.status, 400);

    const job = await t.request('POST', '/v2/export-jobs', { token, body: { companyId: company } });
    assert.equal(job.status, 201, job.text);
    // The forged request printed nothing: the next line is the real notification's payload.
    const payload = JSON.parse((await lines.next()).value as string);
    assert.equal(payload.eventType, EVENT_TYPE);
    assert.deepEqual(payload.data, job.body.data);
    const [attempt] = await worker.recorded(1);
    assert.equal(attempt?.outcome.statusCode, 204);
    assert.match(stderr.join(''), /^refused msg_forged: /);

    // What it printed is what the OpenAPI document says a notification carries.
    const document = (await t.request('GET', '/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(document.webhooks[EVENT_TYPE].post.requestBody.content['application/json'].schema);
    assert.ok(validate({ payload }), ajv.errorsText(validate.errors));
  });
});
