// `ledgerhook` as child processes, for the tests that need the CLI or several servers.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

export const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
const execFileAsync = promisify(execFile);

export interface Served {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far (its JSON log lines). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `ledgerhook serve --role api` and resolves once it logs its address. */
export async function startServe(env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--role', 'api'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      output += `${line}\n`;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with code ${code} before listening:\n${output}`)));
  });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `ledgerhook <args>` to completion; rejects with its stderr on a non-zero exit. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env } });
}
