// The `ledgerhook` usage: one text per command, so that `ledgerhook <command> --help` prints only
// its own, and `ledgerhook --help` prints them all.

const COMMANDS = {
  serve: `  ledgerhook serve [--role api|worker|all]     run the service (default: all)`,
  migrate: `  ledgerhook migrate                           apply database migrations and exit`,
  token: `  ledgerhook token --sub <uuid> --company <uuid> [--company <uuid>…] --scope "<scopes>"
                   [--ttl 1h] [--client-id <id>] [--accounting-system <name>]
                                               print a signed bearer token for local use`,
  'clients create': `  ledgerhook clients create --name <name> --company <uuid> [--company <uuid>…] --scope "<scopes>" [--json]
                                               register a client; prints its client_id, client_secret and an API key, once`,
  'clients list': `  ledgerhook clients list [--json]             list clients and their API keys (never the secrets)`,
  'clients revoke': `  ledgerhook clients revoke <client-id>        revoke a client: its tokens and API keys are refused at once,
                                               its webhook subscriptions set INACTIVE and their pending messages cancelled`,
  'api-keys create': `  ledgerhook api-keys create --client <client-id> [--json]
                                               another API key for a client, printed once`,
  'api-keys revoke': `  ledgerhook api-keys revoke <key-id>          revoke one API key`,
  listen: `  ledgerhook listen [--forward <url>] [--events <type>,<type>…] [--port 0] [--verbose] [--url <service>]
                   --api-key <key> | --token <token> | --client-id <id> --client-secret <secret>
                                               for development: subscribe a listener on 127.0.0.1 to the events, print
                                               each verified notification, forward it to --forward; the subscription
                                               is deleted when it stops (Ctrl-C). --url: PUBLIC_BASE_URL, else
                                               http://HOST:PORT; the credential may come from LEDGERHOOK_API_KEY,
                                               LEDGERHOOK_TOKEN, or LEDGERHOOK_CLIENT_ID and LEDGERHOOK_CLIENT_SECRET`,
  'oauth-signing-key': `  ledgerhook oauth-signing-key                 print a new OAUTH_SIGNING_KEY (an ES256 private key, one line of JWK)`,
} as const;

const EMBEDDED_NOTE =
  '  (On the embedded database, while the service runs, clients and api-keys run through it: DATA_DIR/run/cli.sock.)';
const GENERAL = `  ledgerhook --version                         print the version
  ledgerhook [<command>] --help                print this usage, or one command's`;

type Command = keyof typeof COMMANDS;

/**
 * The usage of `words` (a command, with its action for clients and api-keys), or of every command
 * when they name none.
 */
export function usage(words: readonly string[] = []): string {
  const [command, action] = words;
  const exact = `${command} ${action}` in COMMANDS ? `${command} ${action}` : command;
  const names = (Object.keys(COMMANDS) as Command[]).filter((name) => name === exact || name.startsWith(`${exact} `));
  if (names.length === 0) return `Usage:\n${Object.values(COMMANDS).join('\n')}\n${GENERAL}\n${EMBEDDED_NOTE}`;
  const credentials = command === 'clients' || command === 'api-keys';
  return `Usage:\n${names.map((name) => COMMANDS[name]).join('\n')}${credentials ? `\n${EMBEDDED_NOTE}` : ''}`;
}
