// The command line of `ledgerhook listen`, checked before anything is started: a wrong option is one
// line and exit code 2, as for every command (docs/decisions/listen.md).
import { parseArgs } from 'node:util';
import { type Config, ConfigError } from '../config.ts';
import type { Credential } from './service-client.ts';

export interface ListenOptions {
  /** The service's base address, ending in `/`. */
  url: URL;
  credential: Credential;
  forward: URL | undefined;
  /** The event types asked for; undefined: every type the credential may subscribe to. */
  events: string[] | undefined;
  port: number;
  verbose: boolean;
}

type Env = Record<string, string | undefined>;

// Each credential's options and the variables that stand in for them, which keep a secret out of the
// process list and the shell's history.
const CREDENTIALS = {
  'api-key': { options: ['api-key'], variables: ['LEDGERHOOK_API_KEY'] },
  token: { options: ['token'], variables: ['LEDGERHOOK_TOKEN'] },
  client: { options: ['client-id', 'client-secret'], variables: ['LEDGERHOOK_CLIENT_ID', 'LEDGERHOOK_CLIENT_SECRET'] },
} as const;
type Kind = keyof typeof CREDENTIALS;

const NEEDS_CREDENTIAL =
  'listen needs a credential: --api-key, --token, or --client-id with --client-secret ' +
  '(or LEDGERHOOK_API_KEY, LEDGERHOOK_TOKEN, or LEDGERHOOK_CLIENT_ID with LEDGERHOOK_CLIENT_SECRET)';

export function parseListenOptions(argv: string[], config: Config, env: Env = process.env): ListenOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      'api-key': { type: 'string' },
      token: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      forward: { type: 'string' },
      events: { type: 'string' },
      port: { type: 'string', default: '0' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const url = httpUrl('--url', values.url ?? config.publicBaseUrl);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return {
    url,
    credential: credentialOf(values, env),
    forward: values.forward === undefined ? undefined : httpUrl('--forward', values.forward),
    events: values.events === undefined ? undefined : eventList(values.events),
    port: portOf(values.port),
    verbose: values.verbose,
  };
}

/**
 * The one credential given: by options if any is, else by variables. The two of a client may come
 * one from each (`--client-id` on the command line, the secret in the environment).
 */
function credentialOf(values: Record<string, string | boolean | undefined>, env: Env): Credential {
  const option = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const variable = (name: string) => env[name] || undefined;
  const kinds = Object.keys(CREDENTIALS) as Kind[];
  const byOptions = kinds.filter((kind) => CREDENTIALS[kind].options.some((name) => option(name) !== undefined));
  const byVariables = kinds.filter((kind) => CREDENTIALS[kind].variables.some((name) => variable(name) !== undefined));
  const chosen = byOptions.length > 0 ? byOptions : byVariables;
  if (chosen.length === 0) throw new ConfigError(NEEDS_CREDENTIAL);
  if (chosen.length > 1) {
    const named = chosen.map((kind) =>
      byOptions.length > 0
        ? CREDENTIALS[kind].options.map((name) => `--${name}`).join(' and ')
        : CREDENTIALS[kind].variables.join(' and '),
    );
    throw new ConfigError(`listen takes one credential, not ${named.join(' and ')}`);
  }
  const kind = chosen[0] as Kind;
  const [first = '', second = ''] = CREDENTIALS[kind].options.map(
    (name, i) => option(name) ?? variable(CREDENTIALS[kind].variables[i] as string),
  );
  if (kind !== 'client' && !first) throw new ConfigError(`the ${kind === 'api-key' ? 'API key' : 'token'} is empty`);
  if (kind === 'api-key') return { kind, key: first };
  if (kind === 'token') return { kind, token: first };
  if (!first || !second) {
    throw new ConfigError('--client-id needs --client-secret (or LEDGERHOOK_CLIENT_ID with LEDGERHOOK_CLIENT_SECRET)');
  }
  return { kind, clientId: first, clientSecret: second };
}

function httpUrl(option: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${option} ${text} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${option} ${text} must be http(s)`);
  return url;
}

function eventList(text: string): string[] {
  const types = [...new Set(text.split(',').map((type) => type.trim()))];
  if (types.some((type) => type === '')) throw new ConfigError(`--events "${text}" has an empty event type`);
  return types;
}

function portOf(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port <= 65535)) throw new ConfigError(`--port ${text} is not a port from 0 to 65535`);
  return port;
}
