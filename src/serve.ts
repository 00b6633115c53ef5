import pino from 'pino';
import { resolveSigningSecret } from './auth/signing-secret.ts';
import { createTokenVerifier } from './auth/verify-token.ts';
import type { Config, Role } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { buildServer } from './server.ts';

/**
 * Runs the service until SIGTERM or SIGINT, then stops taking requests, finishes those in flight
 * and closes the database.
 */
export async function serve(config: Config, role: Role): Promise<void> {
  const logger = pino({ level: config.logLevel });
  const db = await openDatabase(config);
  const signing = resolveSigningSecret(config);
  const verifyToken = createTokenVerifier({
    secret: signing?.secret,
    jwksUrl: config.authJwksUrl,
    issuer: config.authIssuer,
    audience: config.authAudience,
  });

  const app =
    role === 'worker'
      ? undefined
      : await buildServer({ db, verifyToken, logger, exportJobTtlSeconds: config.exportJobTtlSeconds });
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    if (signing?.source === 'generated' || signing?.source === 'data-dir' || signing?.source === 'memory') {
      logger.info(
        { secretSource: signing.source },
        signing.source === 'memory'
          ? 'tokens are signed with a key that lives only in this process (DATA_DIR=memory)'
          : 'mint a local token with: npm run token -- --sub <uuid> --company <uuid> --scope "accounts:write"',
      );
    }
  }
  logger.info({ role, database: db.kind, environment: config.environment }, 'ledgerhook started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await app?.close();
    await db.close();
    logger.info('stopped');
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop(signal));
}
