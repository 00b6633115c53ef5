// `ledgerhook clients …` and `ledgerhook api-keys …`: integration set-up by the operator. Secrets are
// printed once, here, and stored only as hashes.
import { parseArgs } from 'node:util';
import { type Config, ConfigError } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openDatabase } from '../db/open-database.ts';
import { resolveApiKeyPepper } from './api-key-pepper.ts';
import { CredentialInputError, createApiKey, createClient, revokeApiKeyById, revokeClientById } from './operations.ts';
import { listApiKeys, listClients } from './store.ts';

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
  const missing = missingArgument(key, { ...values, id: positionals[0] });
  if (missing) throw new ConfigError(`${missing} (see ledgerhook ${key} --help)`);
  const needsPepper = key === 'clients create' || key === 'api-keys create';
  const pepper = needsPepper ? resolveApiKeyPepper(config) : undefined;
  if (needsPepper && !pepper) {
    throw new ConfigError(
      'API keys need API_KEY_PEPPER (or AUTH_JWT_SECRET) with DATABASE_URL; set the one the service uses',
    );
  }

  const db = await openDatabase(config);
  try {
    await run(db, key, { ...values, id: positionals[0], pepper: pepper as Buffer }, print);
  } catch (error) {
    if (error instanceof CredentialInputError) throw new ConfigError(error.message);
    throw error;
  } finally {
    await db.close();
  }
}

interface Options {
  name?: string;
  company?: string[];
  scope?: string;
  client?: string;
  json: boolean;
  id?: string;
  pepper: Buffer;
}

function missingArgument(command: string, options: Omit<Options, 'json' | 'pepper'>): string | undefined {
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

async function run(db: Database, command: string, options: Options, print: Print): Promise<void> {
  switch (command) {
    case 'clients create': {
      const created = await createClient(db, options.pepper, {
        name: options.name as string,
        companies: options.company as string[],
        scope: options.scope as string,
      });
      const shown = {
        client_id: created.client.id,
        client_secret: created.clientSecret,
        api_key_id: created.apiKey.id,
        api_key: created.apiKeyValue,
        companies: created.client.companies,
        scope: created.client.scopes.join(' '),
      };
      if (options.json) return print(JSON.stringify(shown));
      print(`client_id:     ${shown.client_id}`);
      print(`client_secret: ${shown.client_secret}`);
      print(`api_key_id:    ${shown.api_key_id}`);
      print(`api_key:       ${shown.api_key}`);
      print('The secret and the key are shown this once; only their hashes are stored.');
      return;
    }
    case 'clients list': {
      const [clients, keys] = await Promise.all([listClients(db), listApiKeys(db)]);
      const rows = clients.map((client) => ({
        ...client,
        apiKeys: keys.filter((k) => k.clientId === client.id).map(({ clientId: _, ...k }) => k),
      }));
      if (options.json) return print(JSON.stringify(rows));
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
    case 'clients revoke': {
      const id = options.id as string;
      const revoked = await revokeClientById(db, id);
      if (!revoked) throw new ConfigError(`no active client ${id}`);
      print(
        `revoked ${id}; ${revoked.subscriptions} subscription(s) set INACTIVE, ${revoked.messages} pending message(s) cancelled`,
      );
      return;
    }
    case 'api-keys revoke': {
      const id = options.id as string;
      if (!(await revokeApiKeyById(db, id))) throw new ConfigError(`no active API key ${id}`);
      print(`revoked ${id}`);
      return;
    }
    case 'api-keys create': {
      const { apiKey, apiKeyValue } = await createApiKey(db, options.pepper, options.client as string);
      if (options.json)
        return print(JSON.stringify({ api_key_id: apiKey.id, api_key: apiKeyValue, client_id: apiKey.clientId }));
      print(`api_key_id: ${apiKey.id}`);
      print(`api_key:    ${apiKeyValue}`);
      print('The key is shown this once; only its hash is stored.');
      return;
    }
  }
}
