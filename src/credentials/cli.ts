// `ledgerhook clients …` and `ledgerhook api-keys …`: integration set-up by the operator. Secrets are
// printed once, here, and stored only as hashes. On an embedded DATA_DIR that a running service
// holds, the service answers the command (cli-socket.ts); otherwise this process opens the database.
import { parseArgs } from 'node:util';
import { type Config, ConfigError } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { resolveApiKeyPepper } from './api-key-pepper.ts';
import { answerCredentialRequest, type CredentialAnswer, type CredentialRequest } from './cli-commands.ts';
import { askRunningService } from './cli-socket.ts';
import { CredentialInputError } from './operations.ts';

type Print = (line: string) => void;

export async function runCredentialsCommand(
  config: Config,
  command: 'clients' | 'api-keys',
  argv: string[],
  print: Print = console.log,
): Promise<void> {
  const [action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      company: { type: 'string', multiple: true },
      scope: { type: 'string' },
      client: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const key = `${command} ${action ?? ''}`.trim();
  const known = ['clients create', 'clients list', 'clients revoke', 'api-keys create', 'api-keys revoke'];
  if (!known.includes(key)) throw new ConfigError(`unknown command "${key}"; see ledgerhook --help`);
  // A mistyped command changes nothing: it is refused before the pepper or the database (which on
  // the embedded database would create DATA_DIR) is touched.
  const options = { ...values, id: positionals[0] };
  const missing = missingArgument(key, options);
  if (missing) throw new ConfigError(`${missing} (see ledgerhook ${key} --help)`);
  const request = requestOf(key, options);
  const answer = (await answeredByService(config, request)) ?? (await answerHere(config, request));
  printAnswer(answer, values.json, print);
}

interface Options {
  name?: string;
  company?: string[];
  scope?: string;
  client?: string;
  id?: string;
}

function missingArgument(command: string, options: Options): string | undefined {
  switch (command) {
    case 'clients create':
      if (!options.name || !options.company?.length || options.scope === undefined)
        return 'clients create needs --name, at least one --company and --scope';
      return undefined;
    case 'api-keys create':
      return options.client ? undefined : 'api-keys create needs --client <client-id>';
    case 'clients revoke':
    case 'api-keys revoke':
      return options.id ? undefined : `${command} needs the id`;
    default:
      return undefined;
  }
}

/** The request of a command whose arguments missingArgument found complete. */
function requestOf(command: string, options: Options): CredentialRequest {
  switch (command) {
    case 'clients create':
      return {
        command,
        name: options.name as string,
        companies: options.company as string[],
        scope: options.scope as string,
      };
    case 'api-keys create':
      return { command, clientId: options.client as string };
    case 'clients revoke':
    case 'api-keys revoke':
      return { command, id: options.id as string };
    default:
      return { command: 'clients list' };
  }
}

/** The running service's answer, when one holds the embedded DATA_DIR and listens on its socket. */
async function answeredByService(config: Config, request: CredentialRequest): Promise<CredentialAnswer | undefined> {
  if (config.databaseUrl || config.dataDir === 'memory') return undefined;
  return askRunningService(config.dataDir, request);
}

async function answerHere(config: Config, request: CredentialRequest): Promise<CredentialAnswer> {
  const needsPepper = request.command === 'clients create' || request.command === 'api-keys create';
  const pepper = needsPepper ? resolveApiKeyPepper(config) : undefined;
  if (needsPepper && !pepper) {
    throw new ConfigError(
      'API keys need API_KEY_PEPPER (or AUTH_JWT_SECRET) with DATABASE_URL; set the one the service uses',
    );
  }
  const db = await openDatabase(config);
  try {
    return await answerCredentialRequest(db, pepper, request);
  } catch (error) {
    if (error instanceof CredentialInputError) throw new ConfigError(error.message);
    throw error;
  } finally {
    await db.close();
  }
}

function printAnswer(answer: CredentialAnswer, json: boolean, print: Print) {
  switch (answer.command) {
    case 'clients create': {
      const { created } = answer;
      if (json) return print(JSON.stringify(created));
      print(`client_id:     ${created.client_id}`);
      print(`client_secret: ${created.client_secret}`);
      print(`api_key_id:    ${created.api_key_id}`);
      print(`api_key:       ${created.api_key}`);
      print('The secret and the key are shown this once; only their hashes are stored.');
      return;
    }
    case 'clients list': {
      const rows = answer.clients;
      if (json) return print(JSON.stringify(rows));
      for (const row of rows) {
        const status = row.revokedAt ? `revoked ${row.revokedAt}` : 'active';
        print(
          `${row.id}  ${row.name}  ${status}  scope="${row.scopes.join(' ')}"  companies=${row.companies.join(',')}`,
        );
        for (const k of row.apiKeys)
          print(`    api key ${k.id}  ${k.keyPrefix}…  ${k.revokedAt ? 'revoked' : 'active'}`);
      }
      if (rows.length === 0) print('no clients');
      return;
    }
    case 'clients revoke':
      print(
        `revoked ${answer.id}; ${answer.subscriptions} subscription(s) set INACTIVE, ${answer.messages} pending message(s) cancelled`,
      );
      return;
    case 'api-keys create': {
      const { created } = answer;
      if (json) return print(JSON.stringify(created));
      print(`api_key_id: ${created.api_key_id}`);
      print(`api_key:    ${created.api_key}`);
      print('The key is shown this once; only its hash is stored.');
      return;
    }
    case 'api-keys revoke':
      print(`revoked ${answer.id}`);
      return;
  }
}
