// The client as an integrator gets it: `npm pack` of clients/typescript, the tarball installed into
// an empty folder with no registry, and examples/client.mjs run there in plain JavaScript against a
// running service (create, get and iterate accounts, one webhook received and verified). A
// TypeScript file there type-checks against the packed declarations alone.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { VERSION } from '../../src/version.ts';
import { type ClientTestService, startClientTestService } from './support.ts';

const REPOSITORY = new URL('../..', import.meta.url).pathname;
const CLIENT = join(REPOSITORY, 'clients/typescript');
const EXAMPLE = join(REPOSITORY, 'examples/client.mjs');
const TSC = join(REPOSITORY, 'node_modules/.bin/tsc');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const running = new Set<number>();

/** Runs a command in a process group of its own, killed whole after `timeoutMs`. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}, timeoutMs = 120_000) {
  return new Promise<Outcome>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      // This Node and the repository's tools (tsc for the client's prepack) first.
      env: {
        ...process.env,
        PATH: `${dirname(process.execPath)}:${REPOSITORY}node_modules/.bin:${process.env.PATH}`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const pid = child.pid as number;
    running.add(pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      process.kill(-pid, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not end within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      running.delete(pid);
      resolve({ code, stdout, stderr });
    });
  });
}

async function succeed(command: string, args: string[], cwd: string, env?: Record<string, string>) {
  const outcome = await run(command, args, cwd, env);
  assert.equal(outcome.code, 0, `${command} ${args.join(' ')}:\n${outcome.stdout}\n${outcome.stderr}`);
  return outcome;
}

const CONSUMER = `import { Ledgerhook, LedgerhookError, verifyWebhook, type WebhookPayload } from '@ledgerhook/client';
const lh = new Ledgerhook({ baseUrl: 'https://ledgerhook.example', apiKey: 'lhk_x' });
export async function names(companyId: string): Promise<string[]> {
  const names: string[] = [];
  for await (const account of lh.accounts.search({ companyId })) names.push(account.name);
  return names;
}
export function status(error: unknown): number | undefined {
  return error instanceof LedgerhookError ? error.status : undefined;
}
export async function handle(body: string, headers: Headers, secret: string): Promise<string> {
  const payload: WebhookPayload = await verifyWebhook(body, headers, secret);
  // @ts-expect-error an export job's data has no externalId
  if (payload.eventType === 'v1.export-job.created') return payload.data.externalId;
  return payload.eventType === 'v1.account.created' ? payload.data.externalId : payload.eventType;
}
`;

describe('the packed client, outside the repository', { timeout: 300_000 }, () => {
  let t: ClientTestService;
  let folder: string;
  before(async () => {
    t = await startClientTestService({ worker: true });
    folder = await mkdtemp(join(tmpdir(), 'ledgerhook-client-'));
  });
  after(async () => {
    for (const pid of running) process.kill(-pid, 'SIGKILL');
    await t?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('installs from its tarball alone, and the example runs against the service', async () => {
    await succeed('npm', ['pack', '--pack-destination', folder], CLIENT);
    const [tarball] = (await readdir(folder)).filter((name) => name.endsWith('.tgz'));
    assert.equal(tarball, `ledgerhook-client-${VERSION}.tgz`);

    // What `npm init -y` leaves (CommonJS), then the tarball with the registry out of reach.
    const app = join(folder, 'app');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'commonjs' }));
    await succeed('npm', ['install', '--offline', '--no-audit', '--no-fund', join(folder, tarball)], app);
    const installed = join(app, 'node_modules/@ledgerhook/client');
    assert.deepEqual((await readdir(installed)).sort(), ['README.md', 'dist', 'package.json']);
    const modules = (await readdir(join(app, 'node_modules'))).filter((name) => !name.startsWith('.'));
    assert.deepEqual(modules, ['@ledgerhook'], 'no dependencies');

    await copyFile(EXAMPLE, join(app, 'client.mjs'));
    const { companyId, apiKey } = await t.application('accounts:write');
    const { stdout } = await succeed('node', ['client.mjs'], app, {
      LEDGERHOOK_URL: t.baseUrl,
      LEDGERHOOK_API_KEY: apiKey,
      COMPANY_ID: companyId,
    });
    assert.match(
      stdout,
      /^created \w+-1000 Cash\ngot Cash\nlisted Bank, Cash\nverified v1\.account\.created (Cash|Bank)\n$/,
    );
    // The example answers 204 and ends; the worker records that attempt a moment later: wait for it
    // (recorded() fails the test by its deadline if it never comes).
    const worker = t.worker;
    assert.ok(worker);
    for (let count = 1; !worker.attempts.some((attempt) => attempt.outcome.statusCode === 204); count++) {
      await worker.recorded(count);
    }

    await writeFile(join(app, 'consumer.ts'), CONSUMER);
    const compilerOptions = { strict: true, noEmit: true, module: 'nodenext', lib: ['es2022', 'dom'], types: [] };
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    await succeed(TSC, ['-p', app], app);
  });
});
