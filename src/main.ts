#!/usr/bin/env node
// The `ledgerhook` command: serve, migrate, token, clients, api-keys, listen, oauth-signing-key (usage in usage.ts).
// First: it must run before anything has had time to collect garbage (next-tick-shape.ts).
import './next-tick-shape.ts';
import './compile-cache.ts';
import { parseArgs } from 'node:util';
import { SCOPES } from './auth/principal.ts';
import { CommandFailure } from './command-failure.ts';
import { ConfigError, loadConfig, type Role } from './config.ts';
import { DatabaseStoppedError } from './db/database.ts';
import { UUID } from './text-formats.ts';
import { usage } from './usage.ts';
import { VERSION } from './version.ts';

// Each command's code is imported when it runs: `--help`, `--version` and a mistyped option answer
// without loading the server, the database engines or the HTTP client.
const HELP = ['help', '--help', '-h'];

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || HELP.includes(command)) {
    console.log(usage());
    return;
  }
  if (command === '--version' || command === '-v') {
    console.log(VERSION);
    return;
  }
  if (rest.some((arg) => HELP.includes(arg))) {
    // The words before the help flag name the command whose usage is wanted.
    console.log(
      usage(
        argv.slice(
          0,
          argv.findIndex((arg) => HELP.includes(arg)),
        ),
      ),
    );
    return;
  }
  if (command === 'oauth-signing-key') {
    // Reads no setting: it makes the key a configuration needs.
    parseArgs({ args: rest, options: {} });
    const { newOAuthSigningKeyJwk } = await import('./auth/oauth-signing-key.ts');
    console.log(newOAuthSigningKeyJwk());
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { role: { type: 'string', default: 'all' } } });
      if (!['api', 'worker', 'all'].includes(values.role)) throw new ConfigError(`--role must be api, worker or all`);
      const { serve } = await import('./serve.ts');
      await serve(config, values.role as Role);
      return;
    }
    case 'migrate': {
      parseArgs({ args: rest, options: {} }); // takes none: an option or word is a usage error
      const { openDatabase } = await import('./db/open-database.ts');
      const db = await openDatabase(config);
      await db.close();
      console.log('migrations applied');
      return;
    }
    case 'token': {
      const { values } = parseArgs({
        args: rest,
        options: {
          sub: { type: 'string' },
          company: { type: 'string', multiple: true },
          scope: { type: 'string' },
          ttl: { type: 'string', default: '1h' },
          'client-id': { type: 'string' },
          'accounting-system': { type: 'string' },
        },
      });
      if (!values.sub || !values.company?.length || values.scope === undefined) {
        throw new ConfigError('token needs --sub, at least one --company and --scope');
      }
      // What the service would refuse is refused here, rather than printed as a token.
      const wrong = tokenArgumentError(values.sub, values.company, values.scope);
      if (wrong) throw new ConfigError(wrong);
      const { resolveSigningSecret } = await import('./auth/signing-secret.ts');
      const { mintToken } = await import('./auth/mint-token.ts');
      const { tokenLengthError } = await import('./auth/token-size.ts');
      // With DATABASE_URL only AUTH_JWT_SECRET signs such tokens: no secret of its own is kept anywhere.
      const signing = config.authJwtSecret || !config.databaseUrl ? resolveSigningSecret(config) : undefined;
      if (!signing || signing.source === 'memory') {
        throw new ConfigError('token needs AUTH_JWT_SECRET, or the embedded secret kept in DATA_DIR');
      }
      const token = await mintToken(signing.secret, {
        subject: values.sub,
        companies: values.company,
        scope: values.scope,
        ttl: values.ttl,
        clientId: values['client-id'],
        accountingSystem: values['accounting-system'],
        issuer: config.authIssuer,
        audience: config.authAudience,
      });
      const tooLong = tokenLengthError(token.length, values.company.length);
      if (tooLong) throw new ConfigError(tooLong);
      console.log(token);
      return;
    }
    case 'clients':
    case 'api-keys': {
      const { runCredentialsCommand } = await import('./credentials/cli.ts');
      await runCredentialsCommand(config, command, rest);
      return;
    }
    case 'listen': {
      const { runListen } = await import('./listen/listen.ts');
      process.exitCode = await runListen(config, rest);
      return;
    }
    default:
      throw new ConfigError(`unknown command "${command}"; see ledgerhook --help`);
  }
}

function tokenArgumentError(sub: string, companies: string[], scope: string): string | undefined {
  if (!UUID.test(sub)) return `--sub ${sub} is not a uuid`;
  const company = companies.find((c) => !UUID.test(c));
  if (company !== undefined) return `--company ${company} is not a uuid`;
  const unknown = scope.split(' ').filter((s) => s !== '' && !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) return `--scope: no such scope ${unknown.join(', ')}; the scopes are ${SCOPES.join(' ')}`;
  return undefined;
}

/** node:util's parseArgs refuses an unknown option or a missing value with a TypeError of this kind. */
function isArgumentError(error: unknown): error is TypeError {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof TypeError && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/**
 * A configuration error or a wrong command line: one line on stderr and exit code 2, which the
 * documented systemd units do not restart on (docs/operations.md). A value echoed in the message may
 * hold a line break; it is written escaped, so the message stays one line. Ended at once, like a
 * failure below: nothing opened may keep a misconfigured process alive.
 */
function refuse(message: string): never {
  console.error(`ledgerhook: ${message.replace(/\r/g, '\\r').replace(/\n/g, '\\n')}`);
  process.exit(2);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) refuse(error.message);
  if (isArgumentError(error)) refuse(`${error.message} (see ledgerhook --help)`);
  if (error instanceof CommandFailure) {
    console.error(`ledgerhook: ${error.message}`);
    process.exitCode = 1;
    return;
  }
  // Already logged by `serve`, which stopped for it.
  if (!(error instanceof DatabaseStoppedError)) console.error(error);
  // Ended here rather than when nothing is left to run: the embedded engine keeps timers of its own
  // after a failed start (PostgreSQL's start-up progress report, every 10 s, when PGlite cannot open
  // a folder on a full disk), which would keep the process alive and deaf to SIGTERM, caught once
  // by serve. A supervisor sees the exit and starts it again.
  process.exit(1);
});
