// `ledgerhook listen` as a developer runs it: beside a running service (its own process, on the
// suite's database), with a client's credentials, forwarding to an application of the test's. A real
// change's notification is printed, forwarded with its signature intact and answered with the
// application's status; a forged one is refused; a target that is down is reported and the listener
// keeps going; Ctrl-C or SIGTERM deletes the subscription. A service that refuses private targets
// is refused in one line naming the setting that allows them.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { cliOutcome, MAIN, runCli, type Served, startServe } from '../credentials/processes.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { createWorkerDatabase, type WorkerDatabase } from '../support/delivery-fixtures.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

// A listen process that has not ended by then is killed, and the test fails.
const DEADLINE_MS = 60_000;
// Settings of the test's environment that would change what is tested.
const CLEAN = {
  DATA_DIR: '',
  DATABASE_URL: '',
  AUTH_JWT_SECRET: '',
  AUTH_JWKS_URL: '',
  OAUTH_SIGNING_KEY: '',
  API_KEY_PEPPER: '',
  PUBLIC_BASE_URL: '',
  REDIS_URL: '',
  AUTH_FAILURE_LIMIT_MAX: '0',
  LEDGERHOOK_API_KEY: '',
  LEDGERHOOK_TOKEN: '',
  LEDGERHOOK_CLIENT_ID: '',
  LEDGERHOOK_CLIENT_SECRET: '',
};
const SCOPE = 'accounts:write export-jobs:write';
// What that scope may subscribe to: the accounts' and export jobs' types, and the operational one.
const SUBSCRIBABLE = [
  'v1.export-job.created',
  'v1.export-job.started',
  'v1.export-job.completed',
  'v1.export-job.completed-with-errors',
  'v1.export-job.failed',
  'v1.export-job.expired',
  'v1.account.created',
  'v1.account.updated',
  'v1.account.deleted',
  'v1.subscription.disabled',
];
const NOTIFICATION_LINE = /^\d{4}-\d\d-\d\dT[\d:.]+Z (v1\.[a-z.-]+) (msg_\w+)$/;

interface Listening {
  child: ChildProcess;
  subscriptionId: string;
  eventTypes: string[];
  /** The listener's address, as subscribed. */
  url: string;
  /** The next stdout line matching `pattern` (lines before it are passed over); rejects past the deadline. */
  line(pattern: RegExp): Promise<RegExpExecArray>;
  stdout(): string;
  stderr(): string;
  /** Sends `signal`; resolves with the exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

const children = new Set<ChildProcess>();

/** Starts `ledgerhook listen <args>` and resolves once it says its subscription is made. */
async function startListen(args: string[], env: Record<string, string>): Promise<Listening> {
  const child = spawn(process.execPath, [MAIN, 'listen', ...args], {
    env: { ...process.env, ...CLEAN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const deadline = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
  void exited.finally(() => clearTimeout(deadline));
  const out: string[] = [];
  const err: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (into: string[]) => (line: string) => {
    into.push(line);
    for (const wake of waiters) wake();
  };
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', collect(out));
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', collect(err));
  let stdoutRead = 0;
  /** Resolves with the first line of `lines` from `from` on that matches, and its index. */
  const next = (lines: string[], from: () => number, pattern: RegExp) =>
    new Promise<[RegExpExecArray, number]>((resolve, reject) => {
      const check = () => {
        for (let i = from(); i < lines.length; i++) {
          const match = pattern.exec(lines[i] as string);
          if (match) {
            waiters.delete(check);
            return resolve([match, i]);
          }
        }
      };
      waiters.add(check);
      void exited.then((code) => {
        if (!waiters.delete(check)) return;
        reject(new Error(`listen exited (${code}) before printing ${pattern}:\n${out.join('\n')}\n${err.join('\n')}`));
      });
      check();
    });
  const [ready] = await next(err, () => 0, /^Subscription (\S+) sends (.+) to (http:\S+)$/);
  return {
    child,
    subscriptionId: ready[1] as string,
    eventTypes: (ready[2] as string).split(', '),
    url: ready[3] as string,
    async line(pattern) {
      const [match, index] = await next(out, () => stdoutRead, pattern);
      stdoutRead = index + 1;
      return match;
    },
    stdout: () => out.join('\n'),
    stderr: () => err.join('\n'),
    async stop(signal) {
      child.kill(signal);
      return exited;
    },
  };
}

/** A port nothing listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe(`ledgerhook listen beside a running service (${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'})`, {
  timeout: 240_000,
}, () => {
  let target: WorkerDatabase;
  let env: Record<string, string>;
  let client: { client_id: string; client_secret: string; api_key: string };
  let server: Served | undefined;
  let forwardTarget: Receiver | undefined;
  const company = randomUUID();

  before(async () => {
    target = await createWorkerDatabase(TEST_DATABASE_URL, 'ledgerhook_listen');
    env = { ...CLEAN, ...target.env };
    if (target.kind === 'postgres') {
      // Processes sharing a database share the signing key and the pepper, configured.
      env.OAUTH_SIGNING_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString();
      env.API_KEY_PEPPER = randomBytes(32).toString('base64url');
    }
    const created = await runCli(
      ['clients', 'create', '--name', 'Listening', '--company', company, '--scope', SCOPE, '--json'],
      env,
    );
    client = JSON.parse(created.stdout);
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await forwardTarget?.close();
    await server?.stop();
    await target?.drop();
  });

  const clientEnv = () => ({ LEDGERHOOK_CLIENT_ID: client.client_id, LEDGERHOOK_CLIENT_SECRET: client.client_secret });
  const clientForm = () => ({ client_id: client.client_id, client_secret: client.client_secret });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, (server as Served).url), {
      method,
      headers: {
        authorization: `Bearer ${client.api_key}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
  };
  /** The attempts of a message, once the service has recorded `n` (it records each after the answer). */
  const attemptsOf = async (subscriptionId: string, messageId: string, n: number) => {
    for (const end = Date.now() + 30_000; Date.now() < end; await sleep(50)) {
      const answer = await api('GET', `/v1/subscriptions/${subscriptionId}/messages/${messageId}/attempts`);
      assert.equal(answer.status, 200, answer.text);
      if (answer.body.data.length >= n) return answer.body.data as { statusCode: number | null }[];
    }
    throw new Error(`message ${messageId} has fewer than ${n} attempts after 30 s`);
  };

  it('is refused in one line naming WEBHOOK_ALLOW_PRIVATE_TARGETS when the service refuses private targets', async () => {
    server = await startServe({ ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
    const outcome = await cliOutcome(
      ['listen', '--url', server.url],
      { ...CLEAN, ...clientEnv() },
      {
        timeoutMs: DEADLINE_MS,
      },
    );
    assert.equal(outcome.code, 2, outcome.stderr);
    assert.equal(outcome.stdout, '');
    assert.match(
      outcome.stderr,
      /^ledgerhook: the service refuses the listener's address http:\/\/127\.0\.0\.1:\d+\/ as an endpoint \(must be an https URL\): start the service with WEBHOOK_ALLOW_PRIVATE_TARGETS=true, for development, to let it send to this machine\n$/,
    );
    const listed = await api('GET', '/v1/subscriptions');
    assert.deepEqual(listed.body.data, []);
    await server.stop();
    server = undefined;
  });

  it('prints a verified notification, forwards it signed, answers the service with the application’s status, and deletes its subscription on Ctrl-C', async () => {
    server = await startServe({ ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, { role: 'all' });
    forwardTarget = await startReceiver({ respond: () => ({ status: 202 }) });
    const forward = `${forwardTarget.url}hook`;
    const listening = await startListen(['--url', server.url, '--forward', forward], clientEnv());
    // Every type the client's scopes allow, found without being told them; no tax code's.
    assert.deepEqual(listening.eventTypes, SUBSCRIBABLE);
    const secret = (await api('GET', `/v1/subscriptions/${listening.subscriptionId}/secret`)).body.data.secretKey;

    // A notification the subscription's secret did not sign is refused, printed, and not forwarded.
    const forged = await fetch(listening.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
      },
      body: JSON.stringify({ payload: { eventType: 'v1.export-job.created' } }),
    });
    assert.equal(forged.status, 400);
    await listening.line(/^\S+ refused msg_forged: its webhook-signature is not the subscription's; answered 400$/);

    const job = await api('POST', '/v2/export-jobs', { companyId: company });
    assert.equal(job.status, 201, job.text);
    const [, eventType, messageId] = await listening.line(NOTIFICATION_LINE);
    assert.equal(eventType, 'v1.export-job.created');
    await listening.line(new RegExp(`^\\S+ ${messageId} forwarded: 202 Accepted \\(\\d+ ms\\)$`));

    assert.equal(forwardTarget.requests.length, 1);
    const [received] = forwardTarget.requests;
    assert.ok(received);
    assert.equal(received.url, '/hook');
    assert.equal(received.id, messageId);
    assert.equal(received.headers['content-type'], 'application/json');
    assert.match(String(received.headers['user-agent']), /^ledgerhook\//);
    // The bytes and headers as the service signed them: a Standard Webhooks library verifies them.
    const verified = new Webhook(secret).verify(received.body, {
      'webhook-id': received.id,
      'webhook-timestamp': received.timestamp,
      'webhook-signature': received.signature,
    }) as { payload: { eventType: string; data: unknown } };
    assert.equal(verified.payload.eventType, 'v1.export-job.created');
    assert.deepEqual(verified.payload.data, job.body.data);
    // The service heard the application's answer.
    const [attempt] = await attemptsOf(listening.subscriptionId, messageId as string, 1);
    assert.equal(attempt?.statusCode, 202);

    assert.equal(await listening.stop('SIGINT'), 0);
    assert.match(listening.stderr(), new RegExp(`^Deleted subscription ${listening.subscriptionId}\\.$`, 'm'));
    const gone = await api('GET', `/v1/subscriptions/${listening.subscriptionId}`);
    assert.equal(gone.status, 404, gone.text);
  });

  it('with an API key, --events and --verbose: prints the body, reports a target that is down, keeps going, and deletes on SIGTERM', async () => {
    const down = `http://127.0.0.1:${await closedPort()}/hook`;
    const listening = await startListen(
      ['--url', (server as Served).url, '--forward', down, '--events', 'v1.account.created', '--verbose'],
      { LEDGERHOOK_API_KEY: client.api_key },
    );
    assert.deepEqual(listening.eventTypes, ['v1.account.created']);
    const stored = await api('GET', `/v1/subscriptions/${listening.subscriptionId}`);
    assert.deepEqual(stored.body.data.eventTypes, ['v1.account.created']);

    for (const externalId of ['1000', '1001']) {
      const account = await api('POST', '/v1-beta/accounts', {
        companyId: company,
        externalId,
        name: 'Cash',
        archived: false,
      });
      assert.equal(account.status, 201, account.text);
      const [, eventType, messageId] = await listening.line(NOTIFICATION_LINE);
      assert.equal(eventType, 'v1.account.created');
      // --verbose: the body follows, indented.
      await listening.line(new RegExp(`^ {6}"externalId": "${externalId}",?$`));
      await listening.line(
        new RegExp(`^\\S+ ${messageId} not forwarded to ${down}: connect ECONNREFUSED \\S+; answered 502$`),
      );
      const [attempt] = await attemptsOf(listening.subscriptionId, messageId as string, 1);
      assert.equal(attempt?.statusCode, 502);
    }

    assert.equal(await listening.stop('SIGTERM'), 0);
    const gone = await api('GET', `/v1/subscriptions/${listening.subscriptionId}`);
    assert.equal(gone.status, 404, gone.text);
  });

  it('with a token, refuses in one line, exit code 2, an event type that does not exist and one it may not subscribe to', async () => {
    const url = (server as Served).url;
    const issued = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...clientForm() }).toString(),
    });
    const { access_token: token } = (await issued.json()) as { access_token: string };
    const unknown = await cliOutcome(
      ['listen', '--url', url, '--token', token, '--events', 'v1.account.created,v1.nothing.happened'],
      { ...CLEAN },
      { timeoutMs: DEADLINE_MS },
    );
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.equal(
      unknown.stderr,
      'ledgerhook: --events: no event type v1.nothing.happened (GET /v1/event-types lists them)\n',
    );
    const forbidden = await cliOutcome(
      ['listen', '--url', url, '--events', 'v1.tax-code.created'],
      { ...CLEAN, LEDGERHOOK_TOKEN: token },
      { timeoutMs: DEADLINE_MS },
    );
    assert.equal(forbidden.code, 2, forbidden.stderr);
    assert.match(
      forbidden.stderr,
      /^ledgerhook: the service refused the subscription: 403 FORBIDDEN: [^\n]*tax-codes:read\n$/,
    );
    assert.deepEqual((await api('GET', '/v1/subscriptions')).body.data, []);
  });

  it('refuses a credential the service refuses, in one line, exit code 2', async () => {
    const outcome = await cliOutcome(
      ['listen', '--url', (server as Served).url, '--api-key', 'lhk_not-a-key'],
      { ...CLEAN },
      { timeoutMs: DEADLINE_MS },
    );
    assert.equal(outcome.code, 2, outcome.stderr);
    assert.match(outcome.stderr, /^ledgerhook: the service refused to list the event types: 401 \w+: [^\n]+\n$/);
  });

  it('deletes its subscription when its terminal closes (SIGHUP)', async () => {
    const listening = await startListen(['--url', (server as Served).url, '--events', 'v1.account.created'], {
      LEDGERHOOK_API_KEY: client.api_key,
    });
    assert.equal((await api('GET', `/v1/subscriptions/${listening.subscriptionId}`)).status, 200);
    assert.equal(await listening.stop('SIGHUP'), 0);
    const gone = await api('GET', `/v1/subscriptions/${listening.subscriptionId}`);
    assert.equal(gone.status, 404, gone.text);
  });

  it('prints the subscription it could not delete, exit code 1, when the service is gone at Ctrl-C', async () => {
    const listening = await startListen(['--url', (server as Served).url], clientEnv());
    await (server as Served).stop();
    server = undefined;
    assert.equal(await listening.stop('SIGINT'), 1);
    const id = listening.subscriptionId;
    assert.match(
      listening.stderr(),
      new RegExp(
        `^ledgerhook: cannot reach the service at \\S+: connect ECONNREFUSED \\S+ \\(see --url\\); subscription ${id}, which may still exist: delete it with DELETE /v1/subscriptions/${id}$`,
        'm',
      ),
    );
  });
});
