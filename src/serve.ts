import pino from 'pino';
import { resolveOAuthSigningKey } from './auth/oauth-signing-key.ts';
import { resolveSigningSecret } from './auth/signing-secret.ts';
import { createTokenVerifier } from './auth/verify-token.ts';
import type { Config, Role } from './config.ts';
import { resolveApiKeyPepper } from './credentials/api-key-pepper.ts';
import { type CliSocket, openCliSocket } from './credentials/cli-socket.ts';
import { startCredentialStatus } from './credentials/credential-status.ts';
import { checkCredentialSettings, ownTokenKey, tokenIssuer, unsharedIssuerWarning } from './credentials/setup.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open-database.ts';
import { startExpirySweeper } from './export-jobs/expiry-sweeper.ts';
import { startWorkerMetricsServer, type WorkerMetricsServer } from './ops/worker-metrics-server.ts';
import { buildServer } from './server.ts';
import { listenForStop, type StopRequest } from './stop-signal.ts';
import { traceDatabase } from './telemetry/database-spans.ts';
import { traceLogFields } from './telemetry/log-fields.ts';
import type { Tracing } from './telemetry/tracing.ts';
import { startAutoDisable } from './webhooks/auto-disable.ts';
import { startDeliveryWorker } from './webhooks/delivery-worker.ts';
import { startRecoveryWorker } from './webhooks/recovery-worker.ts';
import { startRetentionSweeper } from './webhooks/retention-sweeper.ts';

/**
 * Runs the service until SIGTERM or SIGINT, then stops taking requests and claiming deliveries,
 * finishes the requests and attempts in flight and closes the database.
 *
 * The signals are listened for from the first moment: one that arrives while the database opens or
 * migrates ends the start-up after that step and closes what was opened, instead of killing the
 * process halfway through a migration (Node's default before a handler exists). A start-up that
 * fails (the port taken, say) closes what was opened too, so that the process ends with its error
 * instead of living on for its idle database connections.
 */
export async function serve(config: Config, role: Role): Promise<void> {
  // Before anything is opened or logged: a configuration error is one line and exit 2 (main.ts).
  if (role !== 'worker') checkCredentialSettings(config);
  // Log lines carry the trace id only when tracing runs: otherwise no mixin is called per line.
  const logger = pino({ level: config.logLevel, ...(config.tracing && { mixin: traceLogFields }) });
  // The SDK is loaded only when tracing is configured: it adds about half a second to every start.
  const tracing = config.tracing && (await (await import('./telemetry/tracing.ts')).startTracing(config.tracing));
  const stop = listenForStop();
  logger.info({ role }, 'ledgerhook starting');
  let startingUp = true;
  // A start-up step may wait long (a migration lock another process holds, a database that does not
  // answer): say why the process has not stopped yet.
  void stop.next.then((signal) => {
    if (startingUp)
      logger.info({ signal }, 'stopping after the start-up step under way; send it again to stop at once');
  });
  const opened = await openDatabase(config);
  const db = tracing ? traceDatabase(opened) : opened;
  const running: Running = { tracing };
  try {
    await start(running, { config, role, db, logger, stop });
  } catch (error) {
    await close(running, db);
    throw error;
  } finally {
    startingUp = false;
  }
  if (!stop.received) {
    logger.info(
      {
        role,
        database: db.kind,
        ...(db.kind === 'pglite' && {
          dataDir: config.dataDir,
          cache: await sharedBuffers(db),
          cliSocket: running.cliSocket?.path,
        }),
        environment: config.environment,
        publicBaseUrl: config.publicBaseUrl,
      },
      'ledgerhook started',
    );
  }

  const ending = await Promise.race([
    stop.next.then((signal) => ({ signal, error: undefined })),
    db.stopped.then((error) => ({ signal: undefined, error })),
  ]);
  if (ending.error) {
    // The embedded engine after a PANIC (a WAL write that failed on a full disk): no statement can
    // run in this process any more, and a new process replays what was committed. A supervisor
    // (systemd, Kubernetes, Docker's restart policy) starts it again.
    logger.fatal(
      { err: ending.error },
      'the embedded database stopped and cannot go on in this process; exiting with code 1 so that it is started again',
    );
    await close(running, db);
    logger.info('stopped');
    throw ending.error;
  }
  logger.info({ signal: ending.signal }, 'shutting down');
  await close(running, db);
  logger.info('stopped');
}

/** What a role runs beside the database, each part set once it has started. */
interface Running {
  cliSocket?: CliSocket;
  api?: Awaited<ReturnType<typeof startApi>>;
  worker?: Awaited<ReturnType<typeof startDeliveryWorker>>;
  metrics?: WorkerMetricsServer;
  sweeper?: ReturnType<typeof startExpirySweeper>;
  retention?: ReturnType<typeof startRetentionSweeper>;
  recovery?: ReturnType<typeof startRecoveryWorker>;
  autoDisable?: ReturnType<typeof startAutoDisable>;
  tracing?: Tracing;
}

interface StartContext {
  config: Config;
  role: Role;
  db: Database;
  logger: pino.Logger;
  stop: StopRequest;
}

/** Starts the role's parts in order, none once a stop has been asked for. */
async function start(running: Running, { config, role, db, logger, stop }: StartContext): Promise<void> {
  // Whatever the role, the process that holds an embedded DATA_DIR answers `clients` and `api-keys`.
  if (db.kind === 'pglite' && config.dataDir !== 'memory' && !stop.received) {
    running.cliSocket = await startCliSocket(config, db, logger);
  }
  if (role !== 'worker' && !stop.received) running.api = await startApi(config, db, logger);
  // The worker needs no HTTP port; `all` runs it beside the API in this process. Alone, it serves its
  // /metrics on METRICS_PORT when that is set (the API's /metrics shows them in `all`).
  if (role === 'api' || stop.received) return;
  if (role === 'worker' && config.metricsPort !== undefined) {
    running.metrics = await startWorkerMetricsServer(config.host, config.metricsPort);
    logger.info({ host: config.host, port: running.metrics.port }, 'worker metrics served at /metrics');
  }
  running.worker = await startDeliveryWorker({ db, config, logger });
  running.sweeper = startExpirySweeper({ db, ttlSeconds: config.exportJobTtlSeconds, logger });
  running.retention = startRetentionSweeper({ db, retentionMs: config.webhookRetentionMs, logger });
  running.recovery = startRecoveryWorker({ db, logger });
  if (config.webhookDisableAfterMs > 0) {
    running.autoDisable = startAutoDisable({ db, disableAfterMs: config.webhookDisableAfterMs, logger });
  }
}

// How long requests in flight have to finish once a stop is asked for. Node stops enforcing its
// header and request time-outs when the server closes, so without this cut a client that never
// finishes sending its request would hold the stop for as long as it keeps the connection open
// (docs/decisions/process-lifecycle.md; test/cli/serve.test.ts).
const REQUESTS_GRACE_MS = 10_000;

async function close(running: Running, db: Database): Promise<void> {
  const { api, worker, metrics, sweeper, retention, recovery, autoDisable, cliSocket, tracing } = running;
  const cut = setTimeout(() => api?.app.server.closeAllConnections(), REQUESTS_GRACE_MS).unref();
  // Attempts in flight finish and are recorded (each bounded by WEBHOOK_TIMEOUT_MS).
  await Promise.all([
    api?.app.close(),
    worker?.stop(),
    metrics?.close(),
    ...[sweeper, retention, recovery, autoDisable].map((sweep) => sweep?.stop()),
    cliSocket?.close(), // the commands under way are answered before the database closes
  ]);
  clearTimeout(cut);
  await api?.credentialStatus.close();
  await db.close();
  // The spans of the last requests and attempts are sent before the process ends.
  await tracing?.shutdown();
}

/**
 * The socket `clients` and `api-keys` reach this process through (cli-socket.ts). Without one (a
 * DATA_DIR path too long for a socket's, a filesystem that holds none) the service runs on, and those
 * commands answer that DATA_DIR is in use, as before the service has started.
 */
async function startCliSocket(config: Config, db: Database, logger: pino.Logger): Promise<CliSocket | undefined> {
  try {
    return await openCliSocket({ dataDir: config.dataDir, db, pepper: resolveApiKeyPepper(config), logger });
  } catch (error) {
    logger.warn(
      { err: error },
      'clients and api-keys cannot reach this service (no socket in DATA_DIR/run): run them while it is stopped',
    );
    return undefined;
  }
}

/** The embedded database's page cache, as it runs (sized to its data at start: pglite-shared-buffers.ts). */
async function sharedBuffers(db: Database): Promise<string | undefined> {
  const [row] = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
  return row?.shared_buffers;
}

/** The HTTP API, listening: token verification, our own credentials, rate limits, routes. */
async function startApi(config: Config, db: Database, logger: pino.Logger) {
  const signing = resolveSigningSecret(config);
  // Our own credentials: API keys (hashed with the pepper) and /oauth/token (signed with the key).
  const pepper = resolveApiKeyPepper(config);
  const oauthKey = await resolveOAuthSigningKey(config);
  const credentialStatus = await startCredentialStatus(db, pepper);
  const issuer = oauthKey && tokenIssuer(oauthKey, config);
  const verifyToken = createTokenVerifier({
    secret: signing?.secret,
    jwksUrl: config.authJwksUrl,
    issuer: config.authIssuer,
    audience: config.authAudience,
    own: issuer && ownTokenKey(issuer, credentialStatus),
  });
  const app = await buildServer({
    db,
    verifyToken,
    logger,
    exportJobTtlSeconds: config.exportJobTtlSeconds,
    webhookAllowPrivateTargets: config.webhookAllowPrivateTargets,
    webhookMaxSubscriptionsPerTenant: config.webhookMaxSubscriptionsPerTenant,
    webhookRetentionMs: config.webhookRetentionMs,
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    dashboard: config.dashboard,
    tracing: config.tracing !== undefined,
    credentials: { status: credentialStatus, issuer },
    rateLimits: {
      max: config.rateLimitMax,
      windowMs: config.rateLimitWindowMs,
      authFailureMax: config.authFailureLimitMax,
      authFailureWindowMs: config.authFailureLimitWindowMs,
      redisUrl: config.redisUrl,
    },
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Its plugins' connections (Redis, when it shares the rate limits) would keep the process alive.
    await app.close();
    throw error;
  }
  if (signing?.source === 'generated' || signing?.source === 'data-dir' || signing?.source === 'memory') {
    logger.info(
      { secretSource: signing.source },
      signing.source === 'memory'
        ? 'tokens are signed with a key that lives only in this process (DATA_DIR=memory)'
        : 'mint a local token with: npm run token -- --sub <uuid> --company <uuid> --scope "accounts:write"',
    );
  }
  if (!pepper) logger.warn('API keys are not accepted: set API_KEY_PEPPER (or AUTH_JWT_SECRET) to accept them');
  if (!issuer) logger.warn('/oauth/token is off: set OAUTH_SIGNING_KEY (an ES256 private key) to issue tokens');
  const unshared = unsharedIssuerWarning(issuer, config);
  if (unshared) logger.warn(unshared);
  return { app, credentialStatus };
}
