// The local socket through which `ledgerhook clients …` and `ledgerhook api-keys …` have the running
// service answer them while it holds an embedded DATA_DIR (one process per folder: data-dir-lock.ts).
// A Unix domain socket, never a TCP port, in DATA_DIR/run, a folder only the service's user can
// enter. It takes one request per connection, one of the five in cli-commands.ts as JSON, answers
// it and closes: no other command, and no SQL. docs/decisions/credentials.md says why.
import { once } from 'node:events';
import { chmodSync, lstatSync, mkdirSync, rmSync, type Stats } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type pino from 'pino';
import { Check } from 'typebox/value';
import { CommandFailure } from '../command-failure.ts';
import { ConfigError } from '../config.ts';
import { holderOf, isEnding } from '../db/data-dir-lock.ts';
import type { Database } from '../db/database.ts';
import {
  answerCredentialRequest,
  type CredentialAnswer,
  type CredentialRequest,
  CredentialRequestSchema,
} from './cli-commands.ts';
import { CredentialInputError } from './operations.ts';

/** The folder of the socket, in DATA_DIR: made anew, mode 0700, by each service that starts there. */
export const CLI_SOCKET_DIR = 'run';
const SOCKET_FILE = 'cli.sock';
// A command line's arguments fit many times over.
const MAX_REQUEST_BYTES = 1024 * 1024;
// The CLI sends its request at once: a connection whose request has not arrived by then is closed.
const REQUEST_TIMEOUT_MS = 10_000;
// The longest a command waits for the service: a create hashes one secret (about 50 ms).
const ANSWER_TIMEOUT_MS = 60_000;

/** What the service writes back: the answer, a refusal the direct path gives too, or a failure. */
type Reply = { answer: CredentialAnswer } | { refused: string } | { failed: string };

/** The service could not answer a command it was sent: printed as one line, exit code 1. */
export class ServiceCommandError extends CommandFailure {}

export function cliSocketPath(dataDir: string): string {
  return join(dataDir, CLI_SOCKET_DIR, SOCKET_FILE);
}

export interface CliSocket {
  path: string;
  /** Stops taking connections and resolves once the requests under way are answered; removes the socket. */
  close(): Promise<void>;
}

/**
 * Listens on DATA_DIR/run/cli.sock. Called by the process that holds DATA_DIR's lock, so whatever
 * DATA_DIR/run holds was left by a process that has ended (a killed service's socket): it is removed
 * and the folder made again, mode 0700, before the socket is made in it.
 */
export async function openCliSocket(options: {
  dataDir: string;
  db: Database;
  pepper: Buffer | undefined;
  logger: pino.Logger;
}): Promise<CliSocket> {
  const dir = join(options.dataDir, CLI_SOCKET_DIR);
  rmSync(dir, { recursive: true, force: true }); // a symbolic link is removed, not followed
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o700); // exactly, whatever the umask took off
  const path = cliSocketPath(options.dataDir);
  const server = createServer({ allowHalfOpen: true }, (socket) => serveConnection(socket, options));
  await listen(server, path);
  chmodSync(path, 0o600); // the folder already keeps others out
  return {
    path,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function listen(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function serveConnection(
  socket: Socket,
  { db, pepper, logger }: { db: Database; pepper: Buffer | undefined; logger: pino.Logger },
): void {
  socket.on('error', () => {}); // the CLI went away: there is no one to answer
  // However slowly it trickles in, a request that has not arrived by then is not waited for.
  const deadline = setTimeout(() => socket.destroy(), REQUEST_TIMEOUT_MS);
  socket.on('close', () => clearTimeout(deadline));
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  socket.on('data', (chunk: Buffer) => {
    if (tooLarge) return;
    size += chunk.length;
    if (size <= MAX_REQUEST_BYTES) return void chunks.push(chunk);
    tooLarge = true;
    socket.end(JSON.stringify({ failed: `a request larger than ${MAX_REQUEST_BYTES} bytes` } satisfies Reply));
  });
  socket.on('end', async () => {
    if (tooLarge) return;
    clearTimeout(deadline);
    const reply = await replyTo(Buffer.concat(chunks).toString('utf8'));
    socket.end(JSON.stringify(reply));
  });

  async function replyTo(text: string): Promise<Reply> {
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch {
      request = undefined;
    }
    if (!Check(CredentialRequestSchema, request)) return { failed: 'not a request it takes' };
    const { command } = request;
    try {
      const answer = await answerCredentialRequest(db, pepper, request);
      logger.info({ command }, 'CLI command answered'); // never the answer: it may hold secrets
      return { answer };
    } catch (error) {
      if (error instanceof CredentialInputError) {
        logger.info({ command, refused: error.message }, 'CLI command refused');
        return { refused: error.message };
      }
      logger.error({ err: error, command }, 'CLI command failed');
      return { failed: `${command} failed; its log says why` };
    }
  }
}

/**
 * The answer of the service that holds `dataDir`, through its socket; undefined when no service
 * listens there (none runs, or one is still starting, or one was killed and left its socket). A
 * refusal is a ConfigError with the direct path's message.
 */
export async function askRunningService(
  dataDir: string,
  request: CredentialRequest,
): Promise<CredentialAnswer | undefined> {
  if (!socketFolderExists(join(dataDir, CLI_SOCKET_DIR))) return undefined;
  // A killed holder keeps its socket open until the kernel has freed its memory: a connection made
  // meanwhile would be cut unanswered. The direct path waits for such a holder instead.
  const holder = holderOf(dataDir);
  if (holder !== undefined && isEnding(holder)) return undefined;
  const socket = createConnection(cliSocketPath(dataDir));
  try {
    await once(socket, 'connect');
  } catch (error) {
    socket.destroy();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return undefined;
    throw new ServiceCommandError(`the service that holds DATA_DIR ${dataDir} cannot be reached: ${code}`);
  }
  const service = `the service that holds DATA_DIR ${dataDir}`;
  socket.setTimeout(ANSWER_TIMEOUT_MS, () =>
    socket.destroy(new ServiceCommandError(`${service} did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`)),
  );
  socket.end(JSON.stringify(request));
  let text = '';
  try {
    for await (const chunk of socket.setEncoding('utf8')) text += chunk;
  } catch (error) {
    if (error instanceof ServiceCommandError) throw error;
    throw new ServiceCommandError(`${service} broke the connection: ${(error as Error).message}`);
  } finally {
    socket.destroy();
  }
  if (text === '') {
    throw new ServiceCommandError(
      `${service} ended the connection without answering; \`ledgerhook clients list\` shows whether ${request.command} took effect`,
    );
  }
  let reply: Reply;
  try {
    reply = JSON.parse(text);
  } catch {
    throw new ServiceCommandError(`${service} answered something that is not an answer`);
  }
  if ('refused' in reply) throw new ConfigError(reply.refused);
  if ('failed' in reply) throw new ServiceCommandError(`${service} answered: ${reply.failed}`);
  return reply.answer;
}

/**
 * Whether DATA_DIR/run is there. Refused unless it is a folder of this user's that no other user can
 * enter, as the service makes it: a request, and the secrets answered, go only to this user's service.
 */
function socketFolderExists(dir: string): boolean {
  let stat: Stats;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) {
    throw new ConfigError(
      `${dir} is not a folder of this user's that only it can enter, as the service makes it: run this command as the user the service runs as`,
    );
  }
  return true;
}
